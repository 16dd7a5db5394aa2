// Every kind of GitLab credential (docs/credentials.md, D38) through the SDK clients: what each may
// list and call, refusals before the network, the expiry warning, the audit lines, and a made-up
// token refused at connect on the 2026-07-28 lane. The fake forge judges each token as GitLab does
// (test/support/fake-forge/tokens.ts).
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { testConfig } from './support/config';
import { capturingLogger } from './support/log-capture';
import { startFakeForge, TOKENS, type FakeForge } from './support/fake-forge';
import { connect, MCP_URL, structured, toolError, type Connected, type Lane } from './support/mcp-client';
import { startServer } from './support/process';

setDefaultTimeout(20_000);

let forge: FakeForge;
let app: ForgeApp;
const log = capturingLogger();
const clients: Connected[] = [];
const ready = (async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { LOG_LEVEL: 'info' }), { logger: log.logger });
})();
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
  await forge.stop();
});

async function as(token: string, lane: Lane = 'legacy', header = 'Private-Token'): Promise<Connected> {
  await ready;
  const client = await connect(app, { [header]: token }, MCP_URL, { lane });
  clients.push(client);
  return client;
}

const P = '42';
const tools = async (c: Connected) => (await c.client.listTools()).tools.map((t) => t.name);
const sent = (from: number) => forge.requests.slice(from).map((r) => `${r.method} ${r.path}`);

describe('a token that cannot write: read tools only, its writes refused before the network', () => {
  test.each(['legacy', 'modern'] as const)('classic read_api on the %s lane', async (lane) => {
    const full = await tools(await as(TOKENS.maintainer, lane));
    const c = await as(TOKENS.readApi, lane);
    const listed = await tools(c);
    expect(listed).toContain('list_issues');
    expect(listed).not.toContain('create_issue');
    expect(listed.length).toBeLessThan(full.length);
    const before = forge.requests.length;
    const error = toolError(await c.call('create_issue', { project_id: P, title: 'x' }));
    expect(error.kind).toBe('permission');
    expect(error.message).toContain('`api` scope');
    expect(sent(before)).toEqual([]);
  });

  test('a group access token with read_api: the same', async () => {
    const c = await as(TOKENS.groupBot);
    expect(await tools(c)).not.toContain('update_issue');
    expect(toolError(await c.call('update_issue', { project_id: P, issue_iid: 1, title: 'y' })).message).toContain('group access token');
  });

  test('an api token keeps every tool', async () => {
    expect(await tools(await as(TOKENS.projectBot))).toContain('create_issue');
  });
});

describe('CI job tokens reach only what GitLab lets them', () => {
  test('a tool whose endpoint takes no job token is refused before the network, naming the limit', async () => {
    const c = await as(TOKENS.job, 'legacy', 'JOB-TOKEN');
    const before = forge.requests.length;
    const error = toolError(await c.call('get_issue', { project_id: P, issue_iid: 1 }));
    expect(error.kind).toBe('permission');
    expect(error.message).toContain('CI job token cannot reach GET /projects/:id/issues/:…');
    expect(sent(before)).toEqual([]);
    // One it may reach goes through.
    expect(structured(await c.call('list_branches', { project_id: P }))).toBeTruthy();
  });
});

describe('a token that expires within seven days', () => {
  test('its first call carries a warning and one log line says so; later calls do not', async () => {
    const c = await as(TOKENS.expiring);
    const first = structured<{ warnings?: string[] }>(await c.call('get_issue', { project_id: P, issue_iid: 1 }));
    expect(first.warnings).toEqual([expect.stringMatching(/personal access token expires in [23] days \(\d{4}-\d{2}-\d{2}\)/)]);
    const second = structured<{ warnings?: string[] }>(await c.call('get_issue', { project_id: P, issue_iid: 1 }));
    expect(second.warnings).toBeUndefined();
    const lines = log.entries().filter((l) => l.event === 'token_expiring');
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0])).not.toContain(TOKENS.expiring);
    expect(lines[0]).not.toHaveProperty('scopes');
  });
});

describe('audit lines name the forge user, or the token kind where the user cannot be read', () => {
  test.each([
    ['classic', TOKENS.maintainer, 'Private-Token', { forge_user: 'maria' }],
    ['project access token', TOKENS.projectBot, 'Private-Token', { forge_user: expect.stringMatching(/^project_42_bot_/) }],
    ['group access token', TOKENS.groupBot, 'Private-Token', { forge_user: expect.stringMatching(/^group_6_bot_/) }],
    ['fine-grained without User: Read', TOKENS.fineGrainedReader, 'Private-Token', { forge_token: 'fine-grained personal access token' }],
    ['classic read_repository', TOKENS.readRepository, 'Private-Token', { forge_token: 'personal access token' }],
    ['CI job token', TOKENS.job, 'JOB-TOKEN', { forge_user: 'dev' }],
  ])('%s', async (_, token, header, expected) => {
    const c = await as(token, 'legacy', header);
    const before = log.lines.length;
    await c.call('list_branches', { project_id: P });
    const line = log.lines
      .slice(before)
      .map((l) => JSON.parse(l))
      .find((l) => l.event === 'tool_call');
    expect(line).toMatchObject({ tool: 'list_branches', ...expected });
    expect(JSON.stringify(line)).not.toContain(token);
  });
});

describe('a made-up token on the 2026-07-28 lane', () => {
  test('server/discover answers 401 and the v2 client fails to connect; asked about once', async () => {
    await ready;
    const before = forge.requests.length;
    for (let i = 0; i < 2; i++) {
      await expect(connect(app, { 'Private-Token': 'glpat-made-up-at-connect-00' }, MCP_URL, { lane: 'modern' })).rejects.toThrow(/401/);
    }
    expect(sent(before)).toEqual(['GET /api/v4/user']);
  });

  test('a valid token is checked once, then served from the cache', async () => {
    const token = 'glpat-fresh-modern-0000000';
    forge.model.tokens.set(token, { userId: 1, kind: 'personal' });
    const before = forge.requests.length;
    const c = await as(token, 'modern');
    await c.call('get_issue', { project_id: P, issue_iid: 1 });
    await c.call('get_issue', { project_id: P, issue_iid: 1 });
    expect(sent(before).filter((r) => r === 'GET /api/v4/user')).toHaveLength(1);
  });
});

describe('a real server process and the SDK client', () => {
  test('a fine-grained token without User: Read opens a legacy session, calls a read tool, and its write is refused before the network', async () => {
    await ready;
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl });
    try {
      const c = await connect(app, { 'Private-Token': TOKENS.fineGrainedReader }, `${server.url}/mcp`);
      clients.push(c);
      const issues = structured<{ items: unknown[] }>(await c.call('list_issues', { project_id: P }));
      expect(issues.items.length).toBeGreaterThan(0);
      expect(await tools(c)).not.toContain('create_issue');
      const before = forge.requests.length;
      const error = toolError(await c.call('create_issue', { project_id: P, title: 'x' }));
      expect(error.kind).toBe('permission');
      expect(error.message).toContain('fine-grained');
      expect(sent(before)).toEqual([]);
      expect(server.stderr()).not.toContain(TOKENS.fineGrainedReader);
    } finally {
      await server.stop();
    }
  });
});
