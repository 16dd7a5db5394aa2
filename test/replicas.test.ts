// Real replicas: three server processes sharing one secret behind a round-robin proxy serve one
// client session between them; tampered, expired and foreign ids get 404 on every replica; a
// secret rotation runs with old and new replicas side by side; and on the modern lane (D27)
// replicas need no shared secret at all.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE, MODERN_VERSION, connect, structured } from './support/mcp-client';
import { startServer, type Started } from './support/process';

setDefaultTimeout(30_000);
const S1 = Buffer.alloc(32, 1).toString('base64url');
const S2 = Buffer.alloc(32, 2).toString('base64url');
let forge: FakeForge;
const started: Started[] = [];

beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  await forge.stop();
});

async function replica(env: Record<string, string>): Promise<Started> {
  const server = await startServer({ REMOTE_AUTHORIZATION: 'true', OAUTH_STATELESS_MODE: 'true', FORGE_API_URL: forge.apiUrl, ...env });
  started.push(server);
  return server;
}

/** A round-robin ingress: each request goes to the next replica; `hits` counts per replica. */
function roundRobin(backends: Started[]) {
  let next = 0;
  const hits = backends.map(() => 0);
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const i = next++ % backends.length;
      hits[i]++;
      const url = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      return fetch(`${backends[i].url}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, hits, stop: () => server.stop(true) };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('three replicas, one secret', () => {
  let replicas: Started[];
  beforeAll(async () => {
    replicas = await Promise.all([1, 2, 3].map(() => replica({ OAUTH_STATELESS_SECRET: S1 })));
  });

  test('a full SDK client session lands on every replica and works throughout', async () => {
    const all = roundRobin(replicas);
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${all.url}/mcp`);
    const { tools } = await session.client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    for (const branch of ['main', 'develop', 'feature/login', 'main']) {
      expect(structured<{ name: string }>(await session.call('get_branch', { project_id: String(SEED.project), branch_name: branch })).name).toBe(branch);
    }
    expect(all.hits.every((n) => n >= 2)).toBe(true);
    await session.client.close();
    all.stop();
  });

  test('an id from one replica alone authenticates on another', async () => {
    const sid = (await post(replicas[0].url, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    const response = await post(replicas[1].url, ping(2), { 'mcp-session-id': sid });
    expect(response.status).toBe(200);
  });

  test('tampered and foreign ids → 404 on every replica; with credentials → served', async () => {
    const sid = (await post(replicas[0].url, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    const tampered = sid.slice(0, 20) + (sid[20] === 'A' ? 'B' : 'A') + sid.slice(21);
    const foreign = (await post((await replica({ OAUTH_STATELESS_SECRET: S2 })).url, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get(
      'mcp-session-id',
    )!;
    for (const r of replicas) {
      expect((await post(r.url, ping(3), { 'mcp-session-id': tampered })).status).toBe(404);
      expect((await post(r.url, ping(4), { 'mcp-session-id': foreign })).status).toBe(404);
      expect((await post(r.url, ping(5), { 'mcp-session-id': foreign, 'Private-Token': TOKENS.maintainer })).status).toBe(200);
    }
  });

  test('an expired id → 404 (session TTL 1 s)', async () => {
    const short = await replica({ OAUTH_STATELESS_SECRET: S1, OAUTH_STATELESS_SESSION_TTL_SECONDS: '1' });
    const sid = (await post(short.url, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    expect((await post(short.url, ping(6), { 'mcp-session-id': sid })).status).toBe(200);
    await Bun.sleep(2200);
    const expired = await post(short.url, ping(7), { 'mcp-session-id': sid });
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toBe('Session not found');
  });

  test('GET and DELETE → 405 on every replica', async () => {
    for (const r of replicas) {
      expect((await fetch(`${r.url}/mcp`, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(405);
      expect((await fetch(`${r.url}/mcp`, { method: 'DELETE' })).status).toBe(405);
    }
  });
});

describe('rotation with old and new replicas side by side', () => {
  test('step 2 (new secret current, old previous) and step 1 (old current, new previous) read each other', async () => {
    const oldOnly = await replica({ OAUTH_STATELESS_SECRET: S1 });
    const step1 = await replica({ OAUTH_STATELESS_SECRET: S1, OAUTH_STATELESS_SECRET_PREVIOUS: S2 });
    const step2 = await replica({ OAUTH_STATELESS_SECRET: S2, OAUTH_STATELESS_SECRET_PREVIOUS: S1 });
    const done = await replica({ OAUTH_STATELESS_SECRET: S2 });

    const fromOld = (await post(oldOnly.url, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    // Ids minted under the old secret open on every replica that still knows it.
    for (const r of [step1, step2]) expect((await post(r.url, ping(10), { 'mcp-session-id': fromOld })).status).toBe(200);
    // Ids minted during step 2 (new secret) open on step-1 replicas too: that is why step 1 exists.
    const fromNew = (await post(step2.url, ping(11), { 'mcp-session-id': fromOld })).headers.get('mcp-session-id')!;
    expect((await post(step1.url, ping(12), { 'mcp-session-id': fromNew })).status).toBe(200);
    expect((await post(done.url, ping(13), { 'mcp-session-id': fromNew })).status).toBe(200);
    // A replica that never learnt the new secret cannot read new ids; one without the old secret cannot read old ids.
    expect((await post(oldOnly.url, ping(14), { 'mcp-session-id': fromNew })).status).toBe(404);
    expect((await post(done.url, ping(15), { 'mcp-session-id': fromOld })).status).toBe(404);
  });
});

describe('the modern lane: three replicas, three different secrets', () => {
  test('a v2 client pinned to 2026-07-28 is served by every replica in turn; nothing sealed, no session id', async () => {
    const own = await Promise.all([3, 4, 5].map((n) => replica({ OAUTH_STATELESS_SECRET: Buffer.alloc(32, n).toString('base64url') })));
    const all = roundRobin(own);
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${all.url}/mcp`, { lane: 'modern' });
    expect(session.client.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
    const { tools } = await session.client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    for (const branch of ['main', 'develop', 'feature/login', 'main', 'develop']) {
      expect(structured<{ name: string }>(await session.call('get_branch', { project_id: String(SEED.project), branch_name: branch })).name).toBe(branch);
    }
    expect(session.transport.sessionId).toBeUndefined();
    expect(all.hits.every((n) => n >= 2)).toBe(true);
    await session.close();
    all.stop();
  });
});
