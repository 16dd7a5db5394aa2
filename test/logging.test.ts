// Everything the server logs during a full session — initialize, calls, failures, 401s, expiry —
// is JSON lines without any token or session id (D5).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { capturingLogger } from './support/log-capture';
import { INITIALIZE, connect, rpc } from './support/mcp-client';

let forge: FakeForge;
let app: ForgeApp;
const capture = capturingLogger();
let now = 1_000_000;
const MADE_UP = 'glpat-made-up-logging-000000';

beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { LOG_LEVEL: 'debug', SESSION_TIMEOUT_SECONDS: '60' }), { logger: capture.logger, now: () => now });
});
afterAll(async () => {
  await app.close();
  await forge.stop();
});

test('no token, secret or session id in any log line', async () => {
  const session = await connect(app, { Authorization: `Bearer ${TOKENS.maintainer}` });
  await session.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' });
  await session.call('get_branch', { project_id: String(SEED.project), branch_name: 'missing' });
  await session.call('list_branches', { project_id: String(SEED.project), per_page: 1000 });
  forge.failNext({ status: 429, headers: { 'Retry-After': '600' } });
  await session.call('get_commit', { project_id: String(SEED.project), sha: SEED.headSha });
  const sid = session.transport.sessionId!;
  await rpc(app, INITIALIZE, { 'Private-Token': 'too-short-token' });
  await rpc(app, INITIALIZE, { 'Private-Token': MADE_UP }); // the forge rejects it (D7)
  await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.guest, Origin: `http://${TOKENS.guest}.evil.example` });
  await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.guest, Origin: 'http://evil.example' });
  const guest = await connect(app, { 'Private-Token': TOKENS.guest });
  await guest.call('delete_branch', { project_id: String(SEED.project), branch_name: 'develop' });
  now += 61_000;
  await rpc(app, { jsonrpc: '2.0', id: 5, method: 'ping' }, { 'mcp-session-id': sid });
  app.sessions.sweep();

  const entries = capture.entries();
  const events = new Set(entries.map((e) => e.event));
  for (const event of ['session_opened', 'tool_call', 'origin_refused', 'session_expired', 'auth_failed']) expect(events).toContain(event);
  for (const entry of entries) {
    expect(typeof entry.level).toBe('string');
    expect(typeof entry.time).toBe('string');
  }
  const all = capture.lines.join('');
  for (const secret of [TOKENS.maintainer, TOKENS.guest, 'too-short-token', MADE_UP, sid]) expect(all).not.toContain(secret);
  const calls = entries.filter((e) => e.event === 'tool_call');
  expect(calls.map((e) => e.outcome)).toEqual(['ok', 'not_found', 'validation', 'rate_limited', 'permission']);
  expect(calls.every((e) => typeof e.session === 'string' && (e.session as string).length === 10)).toBe(true);
});
