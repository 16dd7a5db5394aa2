// Stateless mode in process: sealed v1.sid. ids re-issued on every authenticated response, the
// id alone authenticates, live credentials win over stale ids, 401/404/405 as docs/spec.md and D9 say,
// and no in-app rate limiter.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { sealerFromConfig } from '../src/sealing/from-config';
import { useApps } from './support/apps';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE, MCP_URL, connect, rpc, structured } from './support/mcp-client';
import { connectV1 } from './support/mcp-client-v1';

export const SECRET = Buffer.alloc(32, 9).toString('base64url');
const OTHER_SECRET = Buffer.alloc(32, 8).toString('base64url');
let forge: FakeForge;
let now = 1_800_000_000_000;
const apps = useApps(() => forge.apiUrl, 'all');

beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => forge.reset());
afterAll(async () => {
  await forge.stop();
});

function statelessApp(overrides: Record<string, string> = {}) {
  return apps.sealed({ OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET, SESSION_TIMEOUT_SECONDS: '600', ...overrides }, { now: () => now });
}

const call = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } },
});
const messageOf = async (r: Response) => ((await r.json()) as { error: { message: string } }).error.message;

describe('sealed session ids', () => {
  test('initialize returns a v1.sid. id; the id alone then authenticates, and every response re-issues it', async () => {
    const app = await statelessApp();
    const init = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.developer });
    const first = init.headers.get('mcp-session-id')!;
    expect(first).toStartWith('v1.sid.');
    expect(first).not.toContain(TOKENS.developer);
    const second = await rpc(app, call(2), { 'mcp-session-id': first });
    expect(second.status).toBe(200);
    const next = second.headers.get('mcp-session-id')!;
    expect(next).toStartWith('v1.sid.');
    expect(next).not.toBe(first);
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
    const notification = await rpc(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': next });
    expect(notification.status).toBe(202);
    expect(notification.headers.get('mcp-session-id')).toStartWith('v1.sid.');
  });

  test('a sealed session reads a resource, completes and gets a prompt (D44), each request on a fresh server', async () => {
    const app = await statelessApp();
    const session = await connect(app, { 'Private-Token': TOKENS.developer });
    try {
      const { contents } = await session.client.readResource({ uri: `gitlab://projects/${SEED.project}/-/issues/1` });
      expect(JSON.parse((contents[0] as { text: string }).text).iid).toBe(1);
      expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
      // The default groups (branches, issues): the issue template and the triage prompt are offered.
      const ref = { type: 'ref/resource' as const, uri: 'gitlab://projects/{project_id}/-/issues/{issue_iid}' };
      const projects = await session.client.complete({ ref, argument: { name: 'project_id', value: 'acme/' } });
      expect(projects.completion.values).toContain(SEED.projectPath);
      const prompt = await session.client.getPrompt({ name: 'triage_new_issues', arguments: { project_id: '42' } });
      expect((prompt.messages[0].content as { text: string }).text).toContain('list_issues');
    } finally {
      await session.close();
    }
  });

  test('the v1 SDK client runs a whole session, adopting each new id', async () => {
    const app = await statelessApp();
    const session = await connectV1(app, { 'Private-Token': TOKENS.maintainer });
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      structured(await session.call('get_branch', { project_id: String(SEED.project), branch_name: 'develop' }));
      ids.add(session.transport.sessionId!);
    }
    expect(ids.size).toBe(3);
    await session.client.close();
  });

  test('the v2 SDK client runs a whole session on the legacy lane while every answer carries a fresh id', async () => {
    const app = await statelessApp();
    const issued: string[] = [];
    const watching = {
      handle: async (request: Request) => {
        const response = await app.handle(request);
        const sid = response.headers.get('mcp-session-id');
        if (sid) issued.push(sid);
        return response;
      },
    };
    const session = await connect(watching, { 'Private-Token': TOKENS.maintainer });
    expect(session.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    for (const branch of ['main', 'develop', 'main']) {
      expect(structured<{ name: string }>(await session.call('get_branch', { project_id: String(SEED.project), branch_name: branch })).name).toBe(branch);
    }
    // initialize, initialized, the tool list the client reads for output schemas, three calls
    expect(issued.length).toBeGreaterThanOrEqual(5);
    expect(new Set(issued).size).toBe(issued.length);
    for (const sid of issued) expect(sid).toStartWith('v1.sid.');
    await session.client.close();
  });

  test('inactivity: an id older than the session TTL → 404; a re-issued one keeps the session alive', async () => {
    const app = await statelessApp({ SESSION_TIMEOUT_SECONDS: '60' });
    let sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    for (let i = 0; i < 3; i++) {
      now += 50_000;
      const r = await rpc(app, { jsonrpc: '2.0', id: 10 + i, method: 'ping' }, { 'mcp-session-id': sid });
      expect(r.status).toBe(200);
      sid = r.headers.get('mcp-session-id')!;
    }
    now += 61_000;
    const expired = await rpc(app, { jsonrpc: '2.0', id: 20, method: 'ping' }, { 'mcp-session-id': sid });
    expect(expired.status).toBe(404);
    expect(await messageOf(expired)).toBe('Session not found');
  });

  test.each([
    ['malformed', () => 'not-a-sealed-id'],
    ['a stateful UUID', () => crypto.randomUUID()],
    ['tampered', (sid: string) => sid.slice(0, -3) + (sid.endsWith('AAA') ? 'BBB' : 'AAA')],
    [
      'sealed under another key',
      async () => {
        const other = await sealerFromConfig(testConfig(forge.apiUrl, { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: OTHER_SECRET }), () => now);
        return other!.seal('sid', { k: 'private', t: TOKENS.maintainer, u: forge.apiUrl, g: 'x' });
      },
    ],
  ])('%s id without credentials → 404 "Session not found"; with live credentials → served and re-issued', async (_, make) => {
    const app = await statelessApp();
    const good = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    const bad = await make(good);
    const refused = await rpc(app, call(3), { 'mcp-session-id': bad });
    expect(refused.status).toBe(404);
    expect(await messageOf(refused)).toBe('Session not found');
    const served = await rpc(app, call(4), { 'mcp-session-id': bad, 'Private-Token': TOKENS.developer });
    expect(served.status).toBe(200);
    expect(served.headers.get('mcp-session-id')).toStartWith('v1.sid.');
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
  });

  test('live credentials win over the token sealed in a valid id', async () => {
    const app = await statelessApp();
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    expect((await rpc(app, call(5), { 'mcp-session-id': sid, Authorization: `Bearer ${TOKENS.guest}` })).status).toBe(200);
    expect(forge.requests.at(-1)!.headers.get('authorization')).toBe(`Bearer ${TOKENS.guest}`);
  });

  test('a client that keeps its first id but sends credentials keeps working past the TTL (SDK 2.x behaviour)', async () => {
    const app = await statelessApp({ SESSION_TIMEOUT_SECONDS: '60' });
    const first = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    now += 120_000;
    expect((await rpc(app, call(6), { 'mcp-session-id': first, 'Private-Token': TOKENS.maintainer })).status).toBe(200);
  });
});

describe('refusals', () => {
  test('no credentials and no id → 401 "Authentication required"', async () => {
    const response = await rpc(await statelessApp(), INITIALIZE);
    expect(response.status).toBe(401);
    expect(await messageOf(response)).toBe('Authentication required');
    expect(response.headers.get('www-authenticate')).toStartWith('Bearer');
  });

  test('only an ingress\'s Basic Authorization, no id → 401 "Authentication required" (no credential of ours)', async () => {
    const response = await rpc(await statelessApp(), INITIALIZE, { Authorization: 'Basic aW5ncmVzczpzZWNyZXQ=' });
    expect(response.status).toBe(401);
    expect(await messageOf(response)).toBe('Authentication required');
    expect(response.headers.get('www-authenticate')).toStartWith('Bearer');
  });

  test('a Basic Authorization beside a session id is judged as credentials (rule 3) → 401 "Missing Authorization or Private-Token header"', async () => {
    const app = await statelessApp();
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    const response = await rpc(app, call(7), { 'mcp-session-id': sid, Authorization: 'Basic aW5ncmVzczpzZWNyZXQ=' });
    expect(response.status).toBe(401);
    expect(await messageOf(response)).toBe('Missing Authorization or Private-Token header');
  });

  test('a credential below 20 characters → 401 "Missing Authorization or Private-Token header", then why', async () => {
    const response = await rpc(await statelessApp(), INITIALIZE, { 'Private-Token': 'short' });
    expect(response.status).toBe(401);
    expect(await messageOf(response)).toBe('Missing Authorization or Private-Token header. The token is too short: at least 20 characters are needed.');
  });

  test('a made-up token is never sealed into an id: 401 with the invalid_token challenge, one check per token (D7)', async () => {
    const app = await statelessApp();
    for (const body of [INITIALIZE, call(2)]) {
      const response = await rpc(app, body, { 'Private-Token': 'glpat-made-up-stateless-0000' });
      expect(response.status).toBe(401);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(await messageOf(response)).toBe('Authentication required: the forge did not accept this token');
    }
    expect(forge.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v4/user']);
  });

  test('an accepted token is checked once, then sealed and served without asking again', async () => {
    const app = await statelessApp();
    const sid = (await rpc(app, INITIALIZE, { 'JOB-TOKEN': TOKENS.job })).headers.get('mcp-session-id')!;
    expect(sid).toStartWith('v1.sid.');
    for (let i = 0; i < 3; i++) expect((await rpc(app, call(10 + i), { 'mcp-session-id': sid, 'JOB-TOKEN': TOKENS.job })).status).toBe(200);
    expect(forge.requests.filter((r) => r.path === '/api/v4/job')).toHaveLength(1);
  });

  test("an empty batch [] → 400 with JSON-RPC's invalid request error", async () => {
    const response = await rpc(await statelessApp(), [], { 'Private-Token': TOKENS.maintainer });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: an empty batch holds no message' }, id: null });
  });

  test.each(['GET', 'DELETE'])('%s /mcp → 405', async (method) => {
    const app = await statelessApp();
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
    const response = await app.handle(new Request(MCP_URL, { method, headers: { 'mcp-session-id': sid, accept: 'text/event-stream' } }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  describe('OAuth mode: GET and DELETE are authenticated before their 405 (D9)', () => {
    const oauthApp = () =>
      statelessApp({
        REMOTE_AUTHORIZATION: 'false',
        FORGE_MCP_OAUTH: 'true',
        MCP_SERVER_URL: 'https://mcp.example.org',
        FORGE_OAUTH_CLIENT_ID: 'forge-app-id',
      });
    const send = (app: ForgeApp, method: string, headers: Record<string, string>) =>
      app.handle(new Request(MCP_URL, { method, headers: { accept: 'text/event-stream', ...headers } }));

    test.each(['GET', 'DELETE'])('%s without a credential or a session id → 401 "Authentication required" with the OAuth challenge', async (method) => {
      const app = await oauthApp();
      for (const headers of [{}, { 'mcp-session-id': '' }] as Record<string, string>[]) {
        const response = await send(app, method, headers);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe(
          'Bearer resource_metadata="https://mcp.example.org/.well-known/oauth-protected-resource/mcp", scope="api"',
        );
        expect(await messageOf(response)).toBe('Authentication required');
      }
    });

    test.each(['GET', 'DELETE'])(
      '%s with a malformed, forged or expired id and no credential → 404 "Session not found", as a POST (rule 3)',
      async (method) => {
        const app = await oauthApp();
        const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
        now += 601_000; // past SESSION_TIMEOUT_SECONDS: expired
        try {
          for (const id of ['v1.sid.forged', '..', 'x'.repeat(4000), sid]) {
            const response = await send(app, method, { 'mcp-session-id': id });
            expect(response.status).toBe(404);
            expect(await messageOf(response)).toBe('Session not found');
            const post = await rpc(app, call(9), { 'mcp-session-id': id });
            expect(post.status).toBe(404);
          }
        } finally {
          now -= 601_000;
        }
      },
    );

    test.each([
      ['Private-Token', { 'Private-Token': 'short' }],
      ['bearer', { Authorization: 'Bearer short' }],
    ])("a short %s → 401 with the OAuth challenge: SPEC's text, then that the token is too short", async (_, headers) => {
      const response = await rpc(await oauthApp(), INITIALIZE, headers as Record<string, string>);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer resource_metadata="https://mcp.example.org/.well-known/oauth-protected-resource/mcp", scope="api"',
      );
      expect(await messageOf(response)).toBe('Missing Authorization or Private-Token header. The token is too short: at least 20 characters are needed.');
      expect(forge.requests).toEqual([]);
    });

    test.each(['GET', 'DELETE'])('%s with a valid sealed id alone (rule 3) or a live credential → 405', async (method) => {
      const app = await oauthApp();
      const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
      const attempts: Record<string, string>[] = [{ 'mcp-session-id': sid }, { 'Private-Token': TOKENS.maintainer }];
      for (const headers of attempts) {
        const response = await send(app, method, headers);
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
    });
  });

  test('no in-app rate limiter (rule 7)', async () => {
    const app = await statelessApp({ MAX_REQUESTS_PER_MINUTE: '1' });
    for (let i = 0; i < 5; i++) expect((await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer })).status).toBe(200);
  });

  test('start-up needs the sealer', () => {
    const config = testConfig(forge.apiUrl, { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET });
    expect(() => createApp(config)).toThrow('sealer');
  });
});

describe('an id opens only where it was sealed (session/sealed-session.ts)', () => {
  test('another deployment sharing the secret (another MCP_SERVER_URL, or a forge it may not call) answers 404 and calls nothing', async () => {
    const here = await statelessApp({ MCP_SERVER_URL: 'https://mcp-a.example.com' });
    const sid = (await rpc(here, INITIALIZE, { 'Private-Token': TOKENS.developer })).headers.get('mcp-session-id')!;
    expect((await rpc(here, call(2), { 'mcp-session-id': sid })).status).toBe(200);
    const elsewhere = await statelessApp({ MCP_SERVER_URL: 'https://mcp-b.example.com' });
    // Same public URL, but its only forge is another one: the id's forge is not one it may call.
    const otherForge = await startFakeForge();
    try {
      const sameUrl = await apps.sealedOn(
        otherForge.apiUrl,
        { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET, MCP_SERVER_URL: 'https://mcp-a.example.com' },
        { now: () => now },
      );
      forge.reset();
      for (const app of [elsewhere, sameUrl]) {
        const response = await rpc(app, call(3), { 'mcp-session-id': sid });
        expect(response.status).toBe(404);
        expect(await messageOf(response)).toBe('Session not found');
      }
      expect(forge.requests.length + otherForge.requests.length).toBe(0);
    } finally {
      await otherForge.stop();
    }
  });
});
