// The audit trail (D35): one `tool_call` JSON line per tool call on both lanes, with the forge
// user (resolved once per credential with D7's check, then remembered), the forge host, ids and flags of the
// arguments but free text only as its length, the outcome, upstream status and latency; never the
// token or a text body. On the log at info, or appended to AUDIT_LOG_PATH, opened once.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { closeSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type ForgeApp } from '../src/app';
import { SEED, startFakeForge, TOKENS, type FakeForge } from './support/fake-forge';
import { capturingLogger } from './support/log-capture';
import { testConfig } from './support/config';
import { connect, MCP_URL, structured, toolError, type Lane } from './support/mcp-client';
import { runToExit } from './support/process';
import { fileAuditSink, openAuditFile } from '../src/logging/audit';

let forge: FakeForge;
let app: ForgeApp;
let fileApp: ForgeApp;
const log = capturingLogger();
const fileLog = capturingLogger();
const dir = mkdtempSync(join(tmpdir(), 'forge-audit-'));
const auditPath = join(dir, 'audit.jsonl');

beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { LOG_LEVEL: 'info' }), { logger: log.logger });
  writeFileSync(auditPath, '{"earlier":"line"}\n');
  fileApp = createApp(testConfig(forge.apiUrl, { LOG_LEVEL: 'info', AUDIT_LOG_PATH: auditPath }), { logger: fileLog.logger });
  // Legacy sessions admitted these credentials (D7): their checks, usernames included, are cached.
  for (const target of [app, fileApp]) {
    for (const token of [TOKENS.maintainer, TOKENS.developer]) await (await connect(target, { 'Private-Token': token })).close();
  }
});
beforeEach(() => {
  forge.reset();
  log.lines.length = 0;
});
afterAll(async () => {
  await app.close();
  await fileApp.close();
  await forge.stop();
});

const P = String(SEED.project);
const SECRET_TEXT = 'the launch codes are 0000';
/** What must never reach a log or audit line as itself: DEL, C1 controls, D36's invisible and bidi characters, U+2028/9. */
const DECEPTIVE = /[\u{7F}-\u{9F}\u{200B}-\u{200F}\u{2028}-\u{202E}\u{2060}-\u{2064}\u{2066}-\u{2069}\u{FEFF}\u{E0000}-\u{E007F}]/u;
const audits = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.event === 'tool_call');

describe.each(['legacy', 'modern'] as Lane[])('audit lines on the %s lane', (lane) => {
  test('one line per call: who, where, what on which ids, how it went; free text only as a length', async () => {
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane });
    structured(
      await c.call('create_issue', { project_id: SEED.projectPath, title: SECRET_TEXT, description: `${SECRET_TEXT}\nmore`, labels: ['bug'], weight: 2 }),
    );
    expect(toolError(await c.call('get_issue', { project_id: P, issue_iid: 'x' })).kind).toBe('validation');
    await c.close();
    const lines = audits(log.lines);
    expect(lines).toHaveLength(2);
    const [created, refused] = lines;
    expect(created).toMatchObject({
      level: 'info',
      event: 'tool_call',
      request_id: expect.any(String),
      lane,
      forge_user: 'maria',
      forge_host: new URL(forge.apiUrl).host,
      tool: 'create_issue',
      outcome: 'ok',
      upstream_status: 201,
      ms: expect.any(Number),
      time: expect.any(String),
      args: { project_id: SEED.projectPath, title: { chars: SECRET_TEXT.length }, description: { chars: SECRET_TEXT.length + 5 }, labels: ['bug'], weight: 2 },
    });
    if (lane === 'legacy') expect(created.session).toEqual(expect.any(String));
    expect(refused).toMatchObject({ tool: 'get_issue', outcome: 'validation', args: { project_id: P, issue_iid: 'x' } });
    expect(refused).not.toHaveProperty('upstream_status');
    const all = log.lines.join('');
    expect(all).not.toContain(TOKENS.maintainer);
    expect(all).not.toContain(SECRET_TEXT);
  });

  test('the forge user comes from the cached credential check: no forge call of its own', async () => {
    const c = await connect(app, { 'Private-Token': TOKENS.developer }, MCP_URL, { lane });
    for (let i = 0; i < 3; i++) structured(await c.call('get_issue', { project_id: P, issue_iid: 2 }));
    await c.close();
    expect(audits(log.lines).map((l) => l.forge_user)).toEqual(['dev', 'dev', 'dev']);
    expect(forge.requests.filter((r) => r.path === '/api/v4/user')).toEqual([]);
  });

  test('unknown tools and parameters are audited, their names never written', async () => {
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane });
    await c.call('no_such_tool', {}).catch(() => undefined);
    await c.call('get_issue', { project_id: P, issue_iid: 1, [TOKENS.guest]: 'x' });
    await c.close();
    const lines = audits(log.lines);
    expect(lines.map((l) => [l.tool, l.outcome])).toEqual([
      ['no_such_tool', 'protocol_error'],
      ['get_issue', 'validation'],
    ]);
    expect(lines[1].args).toMatchObject({ unknown_parameters: 1 });
    expect(log.lines.join('')).not.toContain(TOKENS.guest);
  });

  test('an unknown tool name that is no tool name is written as its length: a caller cannot write megabytes or prose into the log', async () => {
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane });
    const long = 'n'.repeat(20_000);
    await c.call(long, {}).catch(() => undefined);
    await c.call(SECRET_TEXT, {}).catch(() => undefined);
    await c.close();
    expect(audits(log.lines).map((l) => [l.tool, l.outcome])).toEqual([
      [{ chars: 20_000 }, 'protocol_error'],
      [{ chars: SECRET_TEXT.length }, 'protocol_error'],
    ]);
    expect(log.lines.join('')).not.toContain(long);
    expect(log.lines.join('')).not.toContain(SECRET_TEXT);
  });
});

describe('a credential no check has seen (modern lane only)', () => {
  test('its forge user is looked up once, beside its first call, and named on every line', async () => {
    const c = await connect(app, { 'Private-Token': TOKENS.guest }, MCP_URL, { lane: 'modern' });
    for (let i = 0; i < 3; i++) await c.call('get_issue', { project_id: P, issue_iid: 2 });
    await c.close();
    expect(audits(log.lines).map((l) => [l.tool, l.lane, l.forge_user])).toEqual(Array(3).fill(['get_issue', 'modern', 'gus']));
    expect(forge.requests.filter((r) => r.path === '/api/v4/user')).toHaveLength(1);
  });

  test('a credential the forge rejects is refused at connect (D38): no call runs, nothing is audited, asked about once', async () => {
    await expect(connect(app, { 'Private-Token': 'glpat-never-issued-00000000' }, MCP_URL, { lane: 'modern' })).rejects.toThrow(/401/);
    await expect(connect(app, { 'Private-Token': 'glpat-never-issued-00000000' }, MCP_URL, { lane: 'modern' })).rejects.toThrow(/401/);
    expect(audits(log.lines)).toEqual([]);
    expect(forge.requests.filter((r) => r.path === '/api/v4/user')).toHaveLength(1);
  });

  test('a forge username written to deceive (bidi override, zero-width, C1 escape) is in the line as \\u escapes, never raw', async () => {
    // The forge's answer is not to be trusted either: this username would display as "admin…".
    const username = `adm\u202Enim\u200B\u009B31m\u{E0041}\u2029x\u007F`;
    const token = 'glpat-deceptive-user-00000000';
    forge.model.users.set(99, { id: 99, username, name: 'Deceptive', email: 'd@example.test' });
    forge.model.tokens.set(token, { userId: 99, kind: 'personal' });
    const c = await connect(app, { 'Private-Token': token }, MCP_URL, { lane: 'modern' });
    await c.call('get_issue', { project_id: P, issue_iid: 1 });
    await c.close();
    const raw = log.lines.filter((l) => l.includes('"event":"tool_call"'));
    expect(raw).toHaveLength(1);
    expect(raw[0]).not.toMatch(DECEPTIVE);
    expect(raw[0]).toContain('adm\\u202enim\\u200b\\u009b31m\\udb40\\udc41\\u2029x\\u007f');
    expect(JSON.parse(raw[0]).forge_user).toBe(username);
  });
});

describe('AUDIT_LOG_PATH', () => {
  test('lines are appended to the file (what was there stays), not written to the log', async () => {
    const c = await connect(fileApp, { 'Private-Token': TOKENS.maintainer });
    structured(await c.call('get_issue', { project_id: P, issue_iid: 1 }));
    await c.close();
    const lines = readFileSync(auditPath, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('{"earlier":"line"}');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ event: 'tool_call', tool: 'get_issue', outcome: 'ok', forge_user: 'maria', time: expect.any(String) });
    expect(audits(fileLog.lines)).toEqual([]);
  });

  test('a line is in the file when its call may answer; close() writes the lines still waiting', async () => {
    const path = join(dir, 'sink.jsonl');
    const sink = fileAuditSink(openAuditFile(path), capturingLogger().logger);
    const written = [1, 2, 3].map((n) => sink({ n }));
    expect(readFileSync(path, 'utf8')).toBe(''); // gathered until the end of this turn
    await Promise.all(written);
    const ns = () =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { n: number; event: string });
    expect(ns().map((l) => [l.n, l.event])).toEqual([
      [1, 'tool_call'],
      [2, 'tool_call'],
      [3, 'tool_call'],
    ]);
    void sink({ n: 4 });
    sink.close();
    expect(ns().map((l) => l.n)).toEqual([1, 2, 3, 4]);
  });

  test('a forge username that tries to start a line of its own stays inside its one line', async () => {
    const path = join(dir, 'inject.jsonl');
    const sink = fileAuditSink(openAuditFile(path), capturingLogger().logger);
    const forged = 'maria"}\n{"event":"tool_call","forge_user":"admin","outcome":"ok"}\r\n\u2028';
    await Promise.all([sink({ forge_user: forged, tool: 'get_issue' }), sink({ forge_user: '', tool: 'x'.repeat(10_000) })]);
    sink.close();
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]).forge_user).toBe(forged);
    expect(lines[0]).not.toMatch(DECEPTIVE);
  });

  test('a write that fails is said once on the log, never thrown into the call; calls go on', async () => {
    const path = join(dir, 'closed.jsonl');
    const log = capturingLogger();
    const fd = openAuditFile(path);
    const sink = fileAuditSink(fd, log.logger);
    closeSync(fd); // the descriptor goes away under the sink (a disk unmounted, a rotated file closed)
    await sink({ tool: 'a' });
    await sink({ tool: 'b' });
    expect(log.entries().filter((e) => e.event === 'audit_write_failed')).toEqual([expect.objectContaining({ level: 'error', error: 'EBADF' })]);
    sink.close(); // closing an already-closed descriptor is no failure either
  });

  test('a path that cannot be opened stops start-up with one line naming the setting', async () => {
    const { code, stderr } = await runToExit([], {
      STREAMABLE_HTTP: 'true',
      REMOTE_AUTHORIZATION: 'true',
      AUDIT_LOG_PATH: join(dir, 'missing', 'audit.jsonl'),
    });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([`forge-mcp: AUDIT_LOG_PATH: cannot open ${join(dir, 'missing', 'audit.jsonl')} for appending (ENOENT)`]);
  });
});
