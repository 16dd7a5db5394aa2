// Real MCP clients on both lanes (D27): the v2 client pinned to 2026-07-28, probing with 'auto',
// and forced to 2025-11-25, and the v1 client (legacy), each listing tools and calling one with its
// own Private-Token, in process (app.handle) and against a real server process; then stdio with
// the v2 client in both modes, a resource read, a completion and a prompt included (D44).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createApp, type ForgeApp } from '../src/app';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { MCP_URL, MODERN_VERSION, connect, structured, type ConnectOptions, type Handler } from './support/mcp-client';
import { connectV1 } from './support/mcp-client-v1';
import { ENTRY, startServer, type Started } from './support/process';

setDefaultTimeout(20_000);
let forge: FakeForge;
let app: ForgeApp;
let server: Started;
beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl));
  server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl });
});
afterAll(async () => {
  await app.close();
  await server.stop();
  await forge.stop();
});

interface Session {
  version(): string | undefined;
  sessionId(): string | undefined;
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  close(): Promise<void>;
}

async function v2(target: Handler, url: string, options: ConnectOptions): Promise<Session> {
  const s = await connect(target, { 'Private-Token': TOKENS.developer }, url, options);
  return {
    version: () => s.client.getNegotiatedProtocolVersion(),
    sessionId: () => s.transport.sessionId,
    tools: async () => (await s.client.listTools()).tools.map((t) => t.name),
    call: (name, args) => s.call(name, args),
    close: s.close,
  };
}

async function v1(target: Handler, url: string): Promise<Session> {
  const s = await connectV1(target, { 'Private-Token': TOKENS.developer }, url);
  return {
    version: () => s.transport.protocolVersion,
    sessionId: () => s.transport.sessionId,
    tools: async () => (await s.client.listTools()).tools.map((t) => t.name),
    call: (name, args) => s.call(name, args),
    close: s.close,
  };
}

const CLIENTS: [string, (target: Handler, url: string) => Promise<Session>, string, 'modern' | 'legacy'][] = [
  ['v2 pinned to 2026-07-28', (t, u) => v2(t, u, { lane: 'modern' }), MODERN_VERSION, 'modern'],
  ['v2 in auto mode', (t, u) => v2(t, u, { lane: 'auto' }), MODERN_VERSION, 'modern'],
  ['v2 forced to 2025-11-25', (t, u) => v2(t, u, { versions: ['2025-11-25'] }), '2025-11-25', 'legacy'],
  ['v2 forced to 2025-06-18', (t, u) => v2(t, u, { versions: ['2025-06-18'] }), '2025-06-18', 'legacy'],
  ['v1 (SDK 1.32.2)', v1, '2025-11-25', 'legacy'],
];

async function exercise(session: Session, version: string, lane: 'modern' | 'legacy') {
  expect(session.version()).toBe(version);
  if (lane === 'modern') expect(session.sessionId()).toBeUndefined();
  else expect(session.sessionId()).toBeTruthy();
  expect(await session.tools()).toContain('get_branch');
  const branch = await session.call('get_branch', { project_id: String(SEED.project), branch_name: 'develop' });
  expect(structured<{ name: string }>(branch as never).name).toBe('develop');
  expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
  const missing = await session.call('get_branch', { project_id: String(SEED.project), branch_name: 'no-such-branch' });
  expect(missing.isError).toBe(true);
  await session.close();
}

describe('in process (app.handle)', () => {
  test.each(CLIENTS)('%s', async (_, open, version, lane) => {
    const before = { ...app.metrics.requestsByLane };
    await exercise(await open(app, MCP_URL), version, lane);
    expect(app.metrics.requestsByLane[lane]).toBeGreaterThan(before[lane]);
    // the 'auto' probe is the only request the modern client may leave on the other lane
    if (lane === 'modern') expect(app.metrics.requestsByLane.legacy).toBe(before.legacy);
    expect(app.sessions.size).toBe(0);
  });
});

describe('against a real server process', () => {
  test.each(CLIENTS)('%s', async (_, open, version, lane) => {
    await exercise(await open({ handle: (r) => fetch(r) }, `${server.url}/mcp`), version, lane);
  });

  test("the server's metrics count both lanes", async () => {
    const metrics = (await (await fetch(`${server.url}/metrics.json`)).json()) as {
      requestsByLane: { modern: number; legacy: number };
      activeSessions: number;
    };
    expect(metrics.requestsByLane.modern).toBeGreaterThan(0);
    expect(metrics.requestsByLane.legacy).toBeGreaterThan(0);
    expect(metrics.activeSessions).toBe(0);
  });
});

describe('stdio with the v2 client', () => {
  test.each([
    ['legacy (initialize)', {}, '2025-11-25'],
    ['pinned to 2026-07-28 (server/discover)', { versionNegotiation: { mode: { pin: MODERN_VERSION } } }, MODERN_VERSION],
    // D27: the HTTP legacy lane negotiates 2025-03-26 to 2025-11-25 only; stdio keeps the SDK's revisions.
    ['speaking only 2024-11-05', { supportedProtocolVersions: ['2024-11-05'] as string[] }, '2024-11-05'],
  ] as const)('%s', async (_, options, version) => {
    const transport = new StdioClientTransport({
      command: 'bun',
      args: ['run', ENTRY],
      env: {
        PATH: process.env.PATH ?? '',
        FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.developer,
        FORGE_API_URL: forge.apiUrl,
        FORGE_TOOLSETS: 'branches,issues',
        LOG_LEVEL: 'error',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-v2', version: '1' }, options);
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    const result = await client.callTool({ name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'develop' } });
    expect((result.structuredContent as { name: string }).name).toBe('develop');
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
    // Resources, completions and prompts (D44) on stdio too, with the static token.
    const issue = await client.readResource({ uri: `gitlab://projects/${SEED.project}/-/issues/1` });
    expect(JSON.parse((issue.contents[0] as { text: string }).text).iid).toBe(1);
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
    const ref = { type: 'ref/resource' as const, uri: 'gitlab://projects/{project_id}/-/issues/{issue_iid}' };
    expect((await client.complete({ ref, argument: { name: 'project_id', value: 'acme/' } })).completion.values).toContain(SEED.projectPath);
    const prompt = await client.getPrompt({ name: 'triage_new_issues', arguments: { project_id: SEED.projectPath } });
    expect((prompt.messages[0].content as { text: string }).text).toContain('list_issues');
    await client.close();
  });
});
