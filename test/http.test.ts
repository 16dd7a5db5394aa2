// The HTTP surface of /mcp in stateful mode: health, routing, authentication, sessions, limits.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { ForgeApp } from '../src/app';
import { jsonLongerThan } from '../src/web/body';
import { useApps } from './support/apps';
import { startHeldForge } from './support/held-forge';
import { capturingLogger } from './support/log-capture';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE, MCP_URL, connect, rpc } from './support/mcp-client';

// Sessions open only for a token the forge accepts (D7): the fake forge answers that check.
const TOKEN = TOKENS.maintainer;
let forge: FakeForge;
const makeApp = useApps(() => forge.apiUrl);

beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => forge.reset());
afterAll(() => forge.stop());

async function errorOf(response: Response) {
  const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBeNull();
  return body.error;
}

async function openSession(app: ForgeApp, headers: Record<string, string> = { 'Private-Token': TOKEN }): Promise<string> {
  const response = await rpc(app, INITIALIZE, headers);
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  return id as string;
}

describe('routes', () => {
  test('GET /healthz answers 200 {"status":"ok"} without authentication', async () => {
    const response = await makeApp().handle(new Request('http://localhost/healthz'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('unknown routes answer 404', async () => {
    const response = await makeApp().handle(new Request('http://localhost/nope'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not Found' });
  });

  const OAUTH_MODE = { REMOTE_AUTHORIZATION: 'false', FORGE_MCP_OAUTH: 'true', MCP_SERVER_URL: 'http://localhost', FORGE_OAUTH_CLIENT_ID: 'forge-app-id' };
  test.each([
    ['POST', '/healthz', {}, 'GET, HEAD'],
    ['DELETE', '/metrics', {}, 'GET, HEAD'],
    ['PUT', '/metrics.json?x=1', {}, 'GET, HEAD'],
    ['OPTIONS', '/readyz/', {}, 'GET, HEAD'],
    ['POST', '/downloads/attachment', {}, 'GET, HEAD'],
    ['GET', '/register', OAUTH_MODE, 'OPTIONS, POST'],
    ['GET', '/token', OAUTH_MODE, 'OPTIONS, POST'],
    ['POST', '/authorize', OAUTH_MODE, 'GET, HEAD'],
    ['GET', '/consent', OAUTH_MODE, 'POST'],
    ['DELETE', '/.well-known/oauth-protected-resource/mcp', OAUTH_MODE, 'GET, HEAD, OPTIONS'],
  ])('%s %s answers 405 with the methods the path serves in Allow (RFC 9110)', async (method, path, env, allow) => {
    const response = await makeApp(env).handle(new Request(`http://localhost${path}`, { method }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({ error: 'Method Not Allowed' });
  });

  test('a path of OAuth mode is not found without it, whatever the method', async () => {
    for (const method of ['GET', 'POST']) {
      const response = await makeApp().handle(new Request('http://localhost/token', { method }));
      expect(response.status).toBe(404);
    }
  });

  test.each([
    ['/mcp', 200, '/mcp'],
    ['/mcp?trace=1', 200, '/mcp?trace=1'],
    ['/mcp/', 200, '/mcp/'],
    ['/mcpx', 404, '/mcpx'],
    ['/mcp-old', 404, '/mcp-old'],
    ['/MCP', 404, '/MCP'],
    ['/mcp?', 200, '/mcp?'],
    ['/mcp?q…q (8,000 characters)', 200, `/mcp?${'q'.repeat(8_000)}`],
    ['/mcp/../mcp', 200, '/mcp/../mcp'],
    ['/x/../mcp', 200, '/x/../mcp'],
    ['//mcp', 404, '//mcp'],
    ['/%6Dcp', 404, '/%6Dcp'],
    ['/mcp%2F', 404, '/mcp%2F'],
    ['/mcp;x', 404, '/mcp;x'],
  ])('POST %s answers %d (/mcp itself bypasses the router; its neighbours do not reach it)', async (_, status, path) => {
    const response = await makeApp().handle(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKEN },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(response.status).toBe(status);
    if (status === 200) expect(response.headers.get('mcp-session-id')).toBeTruthy();
  });

  test('other methods on /mcp answer 405', async () => {
    const response = await makeApp().handle(new Request(MCP_URL, { method: 'PUT' }));
    expect(response.status).toBe(405);
  });
});

/** An initialize refused with 401: its challenge and message, and nothing sent to the forge. */
async function expectRefusedInitialize(headers: Record<string, string>, challenge: string, message: string) {
  const response = await rpc(makeApp(), INITIALIZE, headers);
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(challenge);
  expect((await errorOf(response)).message).toBe(message);
  expect(forge.requests).toEqual([]);
}

describe('remote authorization', () => {
  test.each([
    ['no credentials', {}],
    ['a non-bearer Authorization', { Authorization: `Basic ${TOKEN}` }],
    ['an Authorization of another scheme', { Authorization: `Token ${TOKEN}` }],
    ['a bare token in Authorization', { Authorization: TOKEN }],
    ['an empty Authorization', { Authorization: '' }],
  ])("initialize with %s → 401 with SPEC's text", async (_, headers) => {
    await expectRefusedInitialize(headers, 'Bearer', 'Missing Authorization or Private-Token header');
  });

  test.each([
    ['a short Private-Token', { 'Private-Token': 'short-token' }],
    ['a short bearer token', { Authorization: 'Bearer abc' }],
    ['"Bearer" without a token', { Authorization: 'Bearer' }],
    ['a bearer token of spaces', { Authorization: `Bearer ${' '.repeat(30)}` }],
    ['a short JOB-TOKEN', { 'JOB-TOKEN': '1234' }],
    ['an empty Private-Token', { 'Private-Token': '' }],
    ['19 characters', { 'Private-Token': 'x'.repeat(19) }],
    ['dots', { 'Private-Token': '..' }],
  ])("initialize with %s → 401: SPEC's text, then that the token is too short", async (_, headers) => {
    await expectRefusedInitialize(
      headers,
      'Bearer',
      'Missing Authorization or Private-Token header. The token is too short: at least 20 characters are needed.',
    );
  });

  // D23: a value this server sealed is never a forge token; it is refused, and no forge sees it.
  test.each([
    ['a session id in Private-Token', { 'Private-Token': `v1.sid.${'A'.repeat(40)}` }],
    ['an OAuth access token in Private-Token', { 'Private-Token': `v1.at.${'A'.repeat(40)}` }],
    ['a download token in JOB-TOKEN', { 'JOB-TOKEN': `v1.dl.${'A'.repeat(40)}` }],
    ['an OAuth access token as a bearer', { Authorization: `Bearer v1.at.${'A'.repeat(40)}` }],
    ['a refresh token as a bearer, padded', { Authorization: `Bearer   v1.rt.${'A'.repeat(40)}  ` }],
  ])('initialize with %s → 401 invalid_token, nothing sent to the forge', async (_, headers) => {
    await expectRefusedInitialize(
      headers,
      'Bearer error="invalid_token"',
      'Authentication required: the credential is a value this server issued (a session id, a download or OAuth token), not a forge token; it was not sent to the forge',
    );
  });

  test('a token that only looks sealed (another prefix, inside the token) is sent on as it is', async () => {
    for (const token of [`v2.at.${'A'.repeat(40)}`, `v1.xx.${'A'.repeat(40)}`, `glpat-v1.at.${'A'.repeat(30)}`]) {
      const response = await rpc(makeApp(), INITIALIZE, { 'Private-Token': token });
      // The forge judges it (the fake forge knows none of these tokens): its refusal, not ours.
      expect(response.status).toBe(401);
      expect((await errorOf(response)).message).toBe('Authentication required: the forge did not accept this token');
    }
    expect(forge.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v4/user', 'GET /api/v4/user', 'GET /api/v4/user']);
  });

  test.each([
    ['Private-Token', { 'Private-Token': TOKEN }, 'GET /api/v4/user'],
    ['Authorization: Bearer', { Authorization: `Bearer ${TOKEN}` }, 'GET /api/v4/user'],
    ['JOB-TOKEN', { 'JOB-TOKEN': TOKENS.job }, 'GET /api/v4/job'],
    ["Private-Token beside an ingress's Basic Authorization", { 'Private-Token': TOKEN, Authorization: 'Basic aW5ncmVzczpzZWNyZXQ=' }, 'GET /api/v4/user'],
    ["JOB-TOKEN beside an ingress's Basic Authorization", { 'JOB-TOKEN': TOKENS.job, Authorization: 'Basic aW5ncmVzczpzZWNyZXQ=' }, 'GET /api/v4/job'],
  ])('initialize with %s opens a session once the forge accepted the token', async (_, headers, check) => {
    const app = makeApp();
    await openSession(app, headers as Record<string, string>);
    expect(app.sessions.size).toBe(1);
    // A token the forge took is then asked what it may do (D38); a job token has no self-description.
    const introspection = check.endsWith('/job') ? [] : ['GET /api/v4/personal_access_tokens/self'];
    expect(forge.requests.map((r) => `${r.method} ${r.path}`)).toEqual([check, ...introspection]);
  });

  test('a request without credentials and without a session id → 401', async () => {
    const response = await rpc(makeApp(), { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(response.status).toBe(401);
  });

  test('later requests may carry only the session id', async () => {
    const app = makeApp();
    const id = await openSession(app);
    const response = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { tools: unknown[] } };
    expect(body.result.tools.length).toBeGreaterThan(0);
  });

  test('a later request with a bad credential is refused even with a valid session id', async () => {
    const app = makeApp();
    const id = await openSession(app);
    const response = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id, 'Private-Token': 'bad' });
    expect(response.status).toBe(401);
  });
});

describe('sessions', () => {
  test('an unknown session id → 404 "Session not found"', async () => {
    const response = await rpc(makeApp(), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'nope', 'Private-Token': TOKEN });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toBe('Session not found');
  });

  test('a non-initialize request with credentials but no session id → 400', async () => {
    const response = await rpc(makeApp(), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'Private-Token': TOKEN });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('Mcp-Session-Id');
  });

  test('an initialize whose params pass 64 KiB of JSON opens no session (a session keeps them for its life, parsed); a usual one does', async () => {
    const app = makeApp();
    const experimental = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, { a: [1, 2, 3], b: 'x' }]));
    const fat = { ...INITIALIZE, id: 7, params: { ...INITIALIZE.params, capabilities: { experimental } } };
    expect(JSON.stringify(fat.params).length).toBeGreaterThan(65_536);
    const refused = await rpc(app, fat, { 'Private-Token': TOKEN });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: "Invalid params: an initialize's params may take at most 65536 bytes of JSON" },
    });
    expect(app.sessions.size).toBe(0);
    const usual = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN });
    expect(usual.status).toBe(200);
    expect(app.sessions.size).toBe(1);
  });

  test('an initialize whose params nest deeper than the runtime can print is refused alike by its size (400 naming the bound, not the 500 of printing it)', async () => {
    const app = makeApp();
    // 64 KiB of JSON at most, measured without printing the params: printing recursed, so a
    // 2 MB body of nested arrays overflowed the stack (500 -32603) after more than a second of CPU.
    const depth = 1_000_000;
    const body = `{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"raw","version":"1"},"capabilities":{"experimental":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}}}`;
    const refused = await rpc(app, body, { 'Private-Token': TOKEN });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32602, message: "Invalid params: an initialize's params may take at most 65536 bytes of JSON" },
    });
    // The bound's own message: the params were measured, not printed (printing overflowed the stack).
    expect(app.sessions.size).toBe(0);
    // Nested deep within the limit: opens, as before.
    const nested = {
      ...INITIALIZE,
      params: { ...INITIALIZE.params, capabilities: { experimental: { x: JSON.parse(`${'{"a":'.repeat(5_000)}{}${'}'.repeat(5_000)}`) } } },
    };
    expect((await rpc(app, nested, { 'Private-Token': TOKEN })).status).toBe(200);
    expect(app.sessions.size).toBe(1);
  });

  test('the params are measured as their JSON text, exactly', () => {
    const values = [
      null,
      7,
      -0,
      1.5e300,
      'é\n"\\',
      '',
      [],
      {},
      [1, [2, {}]],
      { a: { b: [null, true, 'q'] }, 'k"': [] },
      JSON.parse('{"__proto__":{"a":1},"b":[[],[[]]]}'),
    ];
    for (const value of values) {
      const length = JSON.stringify(value).length;
      expect([value, jsonLongerThan(value, length), jsonLongerThan(value, length - 1)]).toEqual([value, false, true]);
    }
  });

  test('DELETE ends the session; later use gets 404', async () => {
    const app = makeApp();
    const id = await openSession(app);
    const del = await app.handle(new Request(MCP_URL, { method: 'DELETE', headers: { 'mcp-session-id': id } }));
    expect(del.status).toBe(200);
    expect(app.sessions.size).toBe(0);
    const after = await rpc(app, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(after.status).toBe(404);
  });

  test('a session expires after SESSION_TIMEOUT_SECONDS without requests, checked on use', async () => {
    let now = 1_000_000;
    const app = makeApp({ SESSION_TIMEOUT_SECONDS: '60' }, { now: () => now });
    const id = await openSession(app);
    now += 59_000;
    expect((await rpc(app, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(200);
    now += 59_000; // activity moved the deadline
    expect((await rpc(app, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(200);
    now += 61_000;
    const expired = await rpc(app, { jsonrpc: '2.0', id: 4, method: 'ping' }, { 'mcp-session-id': id });
    expect(expired.status).toBe(404);
    expect(app.sessions.size).toBe(0);
  });

  test('the sweep frees idle sessions', async () => {
    let now = 1_000_000;
    const app = makeApp({ SESSION_TIMEOUT_SECONDS: '10' }, { now: () => now });
    await openSession(app);
    await openSession(app);
    now += 11_000;
    expect(app.sessions.sweep()).toBe(2);
    expect(app.sessions.size).toBe(0);
  });

  test('MAX_SESSIONS: a further initialize gets 503 "Server capacity reached"; a freed slot can be reused', async () => {
    const app = makeApp({ MAX_SESSIONS: '2' });
    const first = await openSession(app);
    await openSession(app);
    const refused = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN });
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).message).toBe('Server capacity reached');
    await app.handle(new Request(MCP_URL, { method: 'DELETE', headers: { 'mcp-session-id': first } }));
    await openSession(app);
  });

  test('a refused initialize (a batch with two) leaves no session behind', async () => {
    const app = makeApp();
    const response = await rpc(app, [INITIALIZE, { ...INITIALIZE, id: 2 }], { 'Private-Token': TOKEN });
    expect(response.status).toBe(400);
    expect(app.sessions.size).toBe(0);
  });

  test('GET /mcp opens the notification stream of a session', async () => {
    const app = makeApp();
    const id = await openSession(app);
    const response = await app.handle(new Request(MCP_URL, { method: 'GET', headers: { 'mcp-session-id': id, accept: 'text/event-stream' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    await response.body?.cancel();
  });

  test('over a real socket the notification stream opens at once, before any event (it begins with an SSE comment)', async () => {
    const app = makeApp();
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, s) => app.handle(request, s.requestIP(request)?.address) });
    try {
      const id = await openSession(app);
      // Bun.serve sends a streamed answer's headers with its first chunk: without one, this fetch
      // would not resolve until the session's first notification (none comes here).
      const response = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
        headers: { 'mcp-session-id': id, accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      });
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
      const first = await response.body!.getReader().read();
      expect(new TextDecoder().decode(first.value)).toBe(': stream opened\n\n');
      await response.body?.cancel().catch(() => {});
    } finally {
      server.stop(true);
    }
  });

  test('the SDK client connects, lists tools and closes its session', async () => {
    const app = makeApp();
    const session = await connect(app, { 'Private-Token': TOKEN });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_branch');
    await session.close();
    expect(app.sessions.size).toBe(0);
  });
});

describe('session slots (D7): only tokens the forge accepted hold one', () => {
  const REJECTED = 'Authentication required: the forge did not accept this token';
  const madeUp = (i: number) => `glpat-made-up-token-${String(i).padStart(6, '0')}`;
  const checks = () => forge.requests.filter((r) => r.path === '/api/v4/user' || r.path === '/api/v4/job').length;

  test('20 made-up tokens get 401 with the invalid_token challenge and hold no slot; a real user still gets in', async () => {
    const app = makeApp({ MAX_SESSIONS: '20' });
    for (let i = 0; i < 20; i++) {
      const response = await rpc(app, INITIALIZE, { 'Private-Token': madeUp(i) });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect((await errorOf(response)).message).toBe(REJECTED);
    }
    expect(app.sessions.size).toBe(0);
    await openSession(app);
    const metrics = (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as { authFailures: number };
    expect(metrics.authFailures).toBe(20);
  });

  test.each([
    ['a personal token sent as JOB-TOKEN', { 'JOB-TOKEN': TOKENS.maintainer }, '/api/v4/job'],
    ['a job token sent as Private-Token', { 'Private-Token': TOKENS.job }, '/api/v4/user'],
    ['a job token sent as a bearer token', { Authorization: `Bearer ${TOKENS.job}` }, '/api/v4/user'],
    ['a huge made-up token', { 'Private-Token': 'g'.repeat(8000) }, '/api/v4/user'],
  ])('%s → 401, asked with the call that credential kind may make', async (_, headers, path) => {
    const app = makeApp();
    const response = await rpc(app, INITIALIZE, headers as Record<string, string>);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toBe(REJECTED);
    expect(forge.requests.map((r) => r.path)).toEqual([path]);
    expect(app.sessions.size).toBe(0);
  });

  test('the answer is cached per credential: one check for many initializes, accepted or rejected', async () => {
    const app = makeApp();
    for (let i = 0; i < 3; i++) await openSession(app);
    for (let i = 0; i < 3; i++) expect((await rpc(app, INITIALIZE, { 'Private-Token': madeUp(1) })).status).toBe(401);
    expect(checks()).toBe(2);
    // The same token as another kind is another credential.
    expect((await rpc(app, INITIALIZE, { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect(checks()).toBe(3);
  });

  test('the cached answer runs out after a few minutes: a revoked token is then refused', async () => {
    let now = 1_000_000;
    const app = makeApp({}, { now: () => now });
    await openSession(app, { 'Private-Token': TOKENS.developer });
    forge.model.tokens.delete(TOKENS.developer);
    await openSession(app, { 'Private-Token': TOKENS.developer }); // still the cached answer
    now += 5 * 60_000 + 1;
    const refused = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.developer });
    expect(refused.status).toBe(401);
    expect(checks()).toBe(2);
  });

  test('simultaneous initializes with one new token ask the forge once', async () => {
    const app = makeApp();
    const responses = await Promise.all(Array.from({ length: 8 }, () => rpc(app, INITIALIZE, { 'Private-Token': TOKEN })));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(checks()).toBe(1);
    expect(app.sessions.size).toBe(8);
  });

  test.each([
    ['answers 503', () => forge.failNext({ pathIncludes: '/api/v4/user', status: 503 })],
    ['answers 500', () => forge.failNext({ pathIncludes: '/api/v4/user', status: 500 })],
    ['redirects', () => forge.failNext({ pathIncludes: '/api/v4/user', status: 302, body: '', headers: { Location: 'http://evil.example/' } })],
  ])('when the forge %s, the initialize goes on uncached with a warning, and no token is logged', async (_, fail) => {
    const capture = capturingLogger();
    const app = makeApp({}, { logger: capture.logger });
    fail();
    await openSession(app, { 'Private-Token': madeUp(7) });
    expect(capture.entries().filter((e) => e.event === 'credential_check_unavailable')).toEqual([
      expect.objectContaining({ level: 'warn', credential: 'private' }),
    ]);
    // Not cached: the next initialize asks again, and the forge's refusal is final.
    expect((await rpc(app, INITIALIZE, { 'Private-Token': madeUp(7) })).status).toBe(401);
    expect(checks()).toBe(2);
    expect(capture.lines.join('')).not.toContain(madeUp(7));
  });

  test('a forge that cannot be reached lets the initialize through with a warning', async () => {
    const capture = capturingLogger();
    const app = makeApp.on('http://127.0.0.1:9/api/v4', {}, { logger: capture.logger });
    await openSession(app);
    expect(capture.entries().some((e) => e.event === 'credential_check_unavailable' && e.level === 'warn')).toBe(true);
  });

  test('the static token (D3) is trusted as configured: no check', async () => {
    const app = makeApp({ REMOTE_AUTHORIZATION: 'false', FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-static-not-checked-000' });
    await openSession(app, {});
    expect(forge.requests).toEqual([]);
  });

  test('expired sessions never count toward MAX_SESSIONS, swept or not', async () => {
    let now = 1_000_000;
    const app = makeApp({ MAX_SESSIONS: '2', SESSION_TIMEOUT_SECONDS: '30' }, { now: () => now });
    await openSession(app);
    await openSession(app);
    now += 31_000; // both expired; no sweep has run
    await openSession(app);
    await openSession(app);
    expect(app.sessions.size).toBe(2);
  });

  test('at MAX_SESSIONS the least recently used session idle for a minute is closed to make room', async () => {
    let now = 1_000_000;
    const capture = capturingLogger();
    const app = makeApp({ MAX_SESSIONS: '2' }, { now: () => now, logger: capture.logger });
    const older = await openSession(app);
    const newer = await openSession(app);
    now += 30_000;
    expect((await rpc(app, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': older })).status).toBe(200);
    now += 31_000; // newer idle 61 s, older idle 31 s
    const third = await openSession(app);
    expect((await rpc(app, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': newer })).status).toBe(404);
    for (const id of [older, third]) expect((await rpc(app, { jsonrpc: '2.0', id: 4, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(200);
    expect(capture.entries().filter((e) => e.event === 'session_evicted')).toEqual([expect.objectContaining({ reason: 'capacity', idle_seconds: 61 })]);
  });

  test('only when no session has been idle for a minute does initialize get 503', async () => {
    let now = 1_000_000;
    const app = makeApp({ MAX_SESSIONS: '2' }, { now: () => now });
    await openSession(app);
    await openSession(app);
    now += 59_000;
    const refused = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN });
    expect(refused.status).toBe(503);
    expect((await errorOf(refused)).message).toBe('Server capacity reached');
    now += 1_000;
    await openSession(app);
  });

  test('a made-up token at capacity neither evicts an idle session nor gets a slot', async () => {
    let now = 1_000_000;
    const app = makeApp({ MAX_SESSIONS: '1' }, { now: () => now });
    const id = await openSession(app);
    now += 120_000;
    expect((await rpc(app, INITIALIZE, { 'Private-Token': madeUp(3) })).status).toBe(401);
    expect((await rpc(app, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': id })).status).toBe(200);
  });

  test('a session with a request in flight is never closed to make room, however long the request', async () => {
    let now = 1_000_000;
    const slow = startHeldForge();
    const app = makeApp.on(slow.apiUrl, { MAX_SESSIONS: '1' }, { now: () => now });
    const busy = await connect(app, { 'Private-Token': TOKEN });
    const pending = busy.call('get_branch', { project_id: '1', branch_name: 'main' });
    await slow.called;
    now += 120_000;
    expect((await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).status).toBe(503);
    slow.release();
    expect((await pending).isError).toBeFalsy();
    expect((await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).status).toBe(200);
    slow.stop();
  });
});

describe('protocol version negotiation on the legacy lane (D27: 2025-03-26 to 2025-11-25)', () => {
  const stateless = () => makeApp.sealed({ OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 7).toString('base64url') });
  const initialize = (app: ForgeApp, protocolVersion: string) =>
    rpc(app, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } }, { 'Private-Token': TOKEN });

  test.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-11-25'],
    ['2024-10-07', '2025-11-25'],
    ['2099-01-01', '2025-11-25'],
  ])('initialize asking for %s → answered with %s, in stateful and stateless mode', async (asked, answered) => {
    for (const app of [makeApp(), await stateless()]) {
      const response = await initialize(app, asked);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(answered);
    }
  });

  test('a client that offers 2024-11-05 first and also 2025-11-25 goes on with 2025-11-25; one that speaks only 2024-11-05 is told no', async () => {
    const app = makeApp();
    const client = await connect(app, { 'Private-Token': TOKEN }, MCP_URL, { versions: ['2024-11-05', '2025-11-25'] });
    expect(client.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect((await client.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' })).isError).toBeFalsy();
    await client.close();
    await expect(connect(app, { 'Private-Token': TOKEN }, MCP_URL, { versions: ['2024-11-05'] })).rejects.toThrow(/protocol version/i);
  });

  test('a request of a session naming a 2024 revision in MCP-Protocol-Version → 400', async () => {
    const app = makeApp();
    const sid = await openSession(app);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await rpc(app, list, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
    const refused = await rpc(app, list, { 'mcp-session-id': sid, 'mcp-protocol-version': '2024-11-05' });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toContain('Unsupported protocol version');
  });
});

describe('malformed input', () => {
  test('invalid JSON → 400 parse error, and no session', async () => {
    const app = makeApp();
    const response = await rpc(app, '{"jsonrpc": "2.0", ', { 'Private-Token': TOKEN });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe(-32700);
    expect(app.sessions.size).toBe(0);
  });

  test('a JSON value that is not JSON-RPC → 400', async () => {
    const response = await rpc(makeApp(), { hello: 'world', method: 'initialize' }, { 'Private-Token': TOKEN });
    expect(response.status).toBe(400);
  });

  test('a declared body over MAX_REQUEST_BODY_BYTES → 413 before reading it', async () => {
    const app = makeApp({ MAX_REQUEST_BODY_BYTES: '2048' });
    const response = await app.handle(
      new Request(MCP_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKEN, 'content-length': '999999' },
        body: '{}',
      }),
    );
    expect(response.status).toBe(413);
  });

  test('a streamed body that grows past the limit → 413', async () => {
    const app = makeApp({ MAX_REQUEST_BODY_BYTES: '2048' });
    let pulled = 0;
    const stream = new ReadableStream({
      pull(controller) {
        pulled++;
        if (pulled > 1000) return controller.close();
        controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
      },
    });
    const response = await app.handle(
      new Request(MCP_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKEN },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10); // it stopped reading early
  });

  test('a client that does not accept JSON and SSE → 406 from the transport', async () => {
    const app = makeApp();
    const response = await app.handle(
      new Request(MCP_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/html', 'Private-Token': TOKEN },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(response.status).toBe(406);
    expect(app.sessions.size).toBe(0);
  });
});

describe('origin check (DNS rebinding)', () => {
  test.each([
    ['http://evil.example.com', 403],
    ['http://127.0.0.1.evil.example', 403],
    ['null', 403],
    ['http://localhost:6274', 200],
    ['http://127.0.0.1:8080', 200],
    ['https://mcp.example.org', 200],
    ['https://app.example.net', 200],
  ])('Origin %s → %d', async (origin, status) => {
    const app = makeApp({ MCP_SERVER_URL: 'https://mcp.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example.net' });
    const response = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN, Origin: origin });
    expect(response.status).toBe(status);
    if (status === 200) expect(response.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
  });

  const OTHER_PATHS = ['/healthz', '/readyz', '/metrics', '/metrics.json', '/downloads/attachment?project_id=1&secret=s&filename=f&_token=t', '/nope'];

  test.each(OTHER_PATHS)('every path, not only /mcp: %s refuses a foreign Origin and, on loopback, a foreign Host (D12)', async (path) => {
    const app = makeApp({ MCP_SERVER_URL: 'https://mcp.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example.net' });
    const byOrigin = await app.handle(new Request(`http://localhost${path}`, { headers: { Origin: 'http://evil.example.com' } }));
    expect(byOrigin.status).toBe(403);
    expect(await byOrigin.json()).toEqual({ error: 'Forbidden: Origin not allowed' });
    const byHost = await app.handle(new Request(`http://localhost${path}`, { headers: { Host: 'evil.example.com:3002' } }));
    expect(byHost.status).toBe(403);
    expect(await byHost.json()).toEqual({ error: 'Forbidden: Host not allowed' });
    const allowed: Record<string, string>[] = [{}, { Origin: 'http://localhost:6274' }, { Origin: 'https://app.example.net', Host: 'mcp.example.org' }];
    for (const headers of allowed) {
      expect((await app.handle(new Request(`http://localhost${path}`, { headers }))).status).not.toBe(403);
    }
  });

  // Bun.serve hands an empty Host, one it cannot parse, or none (HTTP/1.0) over as a bare path.
  test.each([
    ['an empty Host', 'HTTP/1.1', 'Host: \r\n'],
    ['a Host that is no host', 'HTTP/1.1', 'Host: bad host\r\n'],
    ['no Host at all (HTTP/1.0)', 'HTTP/1.0', ''],
  ])("%s is refused in each path's own shape over a socket: JSON-RPC on /mcp and below, {error} elsewhere (D6, D12)", async (_, version, host) => {
    const app = makeApp();
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, s) => app.handle(request, s.requestIP(request)?.address) });
    try {
      const send = async (method: string, path: string) => {
        const socket = await Bun.connect({
          hostname: '127.0.0.1',
          port: server.port as number,
          socket: { data: (_s, chunk) => void (answer += chunk.toString()), open() {}, close: () => closed() },
        });
        let answer = '';
        let closed: () => void = () => {};
        const done = new Promise<void>((resolve) => (closed = resolve));
        const body = method === 'POST' ? JSON.stringify(INITIALIZE) : '';
        socket.write(
          `${method} ${path} ${version}\r\n${host}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nPrivate-Token: ${TOKEN}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        await done;
        return { status: Number(answer.split(' ')[1]), body: JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) };
      };
      for (const path of ['/mcp', '/mcp/readonly']) {
        expect(await send('POST', path)).toEqual({
          status: 403,
          body: { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: Host not allowed' }, id: null },
        });
      }
      expect(await send('GET', '/healthz')).toEqual({ status: 403, body: { error: 'Forbidden: Host not allowed' } });
    } finally {
      server.stop(true);
    }
  });

  test('the narrowed endpoints (/mcp/readonly, D34) refuse a foreign Origin as /mcp does', async () => {
    const app = makeApp();
    const response = await app.handle(
      new Request('http://localhost/mcp/readonly', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'Private-Token': TOKEN,
          Origin: 'http://evil.example.com',
        },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toBe('Forbidden: Origin not allowed');
  });

  // Every header a request to /mcp may carry: credentials, the revisions' headers, D8's forge URL, D34's policy.
  const REQUEST_HEADERS = [
    'authorization',
    'private-token',
    'job-token',
    'content-type',
    'accept',
    'mcp-session-id',
    'mcp-protocol-version',
    'mcp-method',
    'mcp-name',
    'last-event-id',
    'x-forge-api-url',
    'x-mcp-toolsets',
    'x-mcp-tools',
    'x-mcp-exclude-tools',
    'x-mcp-readonly',
  ];

  test.each(['/mcp', '/mcp/readonly', '/mcp/x/issues'])('a CORS preflight to %s from an allowed origin allows every header /mcp reads', async (path) => {
    const app = makeApp();
    const response = await app.handle(
      new Request(`http://localhost${path}`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://localhost:6274', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': REQUEST_HEADERS.join(', ') },
      }),
    );
    expect(response.status).toBe(204);
    const allowed = response.headers
      .get('access-control-allow-headers')!
      .split(',')
      .map((h) => h.trim().toLowerCase());
    expect(REQUEST_HEADERS.filter((h) => !allowed.includes(h))).toEqual([]);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
  });
});

describe('static token mode (HTTP without remote authorization)', () => {
  test('clients need no credentials; sessions still apply', async () => {
    const app = makeApp({ REMOTE_AUTHORIZATION: 'false', FORGE_PERSONAL_ACCESS_TOKEN: TOKEN });
    const id = await openSession(app, {});
    const response = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(response.status).toBe(200);
  });
});
