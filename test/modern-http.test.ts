// The HTTP surface of /mcp on the modern lane (MCP 2026-07-28, D27): the twins of the
// legacy lane's HTTP tests (http.test.ts, stateless.test.ts, dynamic-url.test.ts, pool.test.ts)
// plus what the revision itself asks of a tools-only server. Every request stands alone: it
// carries its credential, no session id is issued or read, and errors carry the request's id.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { ForgeApp } from '../src/app';
import { MESSAGES } from '../src/web/errors';
import { useApps } from './support/apps';
import { capturingLogger } from './support/log-capture';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE, MCP_URL, MODERN_VERSION, connect, modernHeaders, modernMessage, modernRpc, rpc, structured, toolError } from './support/mcp-client';

const TOKEN = TOKENS.maintainer;
let forge: FakeForge;
let two: FakeForge;
const makeApp = useApps(() => forge.apiUrl);
const statelessApp = (overrides: Record<string, string> = {}) =>
  makeApp.sealed({ OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 5).toString('base64url'), ...overrides });

beforeAll(async () => {
  forge = await startFakeForge();
  two = await startFakeForge();
});
beforeEach(() => {
  forge.reset();
  two.reset();
});
afterAll(async () => {
  await forge.stop();
  await two.stop();
});

const getBranch = (branch = 'main') => ({ name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: branch } });

async function errorOf(response: Response, id: unknown) {
  const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string; data?: unknown }; id: unknown };
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toEqual(id);
  return body.error;
}

const upstream = () => forge.requests.map((r) => `${r.method} ${r.path}`);

describe('requests stand alone', () => {
  test('tools/call with a credential is served at once: no initialize, no session id issued; the token is checked once (D7, D38)', async () => {
    const app = makeApp();
    const response = await modernRpc(app, 'call-1', 'tools/call', getBranch(), { 'Private-Token': TOKEN });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toStartWith('application/json');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as {
      id: string;
      result: { structuredContent: { name: string }; resultType: string; _meta: Record<string, { name: string }> };
    };
    expect(body.id).toBe('call-1');
    expect(body.result.structuredContent.name).toBe('main');
    expect(body.result.resultType).toBe('complete');
    expect(body.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('forge-tool-server');
    const branch = `GET /api/v4/projects/${SEED.project}/repository/branches/main`;
    expect(upstream()).toEqual(['GET /api/v4/user', 'GET /api/v4/personal_access_tokens/self', branch]);
    // The check's answer is cached: the next call sends the tool's request only.
    expect((await modernRpc(app, 'call-2', 'tools/call', getBranch(), { 'Private-Token': TOKEN })).status).toBe(200);
    expect(upstream().slice(3)).toEqual([branch]);
    expect(app.sessions.size).toBe(0);
  });

  test('a session id sent along is neither read nor answered', async () => {
    const app = makeApp();
    const response = await modernRpc(app, 1, 'tools/list', {}, { 'Private-Token': TOKEN, 'mcp-session-id': 'not-a-session' });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  test('each request acts with its own credential', async () => {
    const app = makeApp();
    await modernRpc(app, 1, 'tools/call', getBranch(), { 'Private-Token': TOKENS.developer });
    await modernRpc(app, 2, 'tools/call', getBranch(), { Authorization: `Bearer ${TOKENS.guest}` });
    // A job token reaches the branch list, not one branch (doc/ci/jobs/ci_job_token.md; D38).
    await modernRpc(app, 3, 'tools/call', { name: 'list_branches', arguments: { project_id: String(SEED.project) } }, { 'JOB-TOKEN': TOKENS.job });
    // Each credential is checked (D38: GET /user and what the token may do; GET /job), then used.
    expect(forge.requests.map((r) => r.headers.get('private-token') ?? r.headers.get('authorization') ?? r.headers.get('job-token'))).toEqual([
      ...Array(3).fill(TOKENS.developer),
      ...Array(3).fill(`Bearer ${TOKENS.guest}`),
      ...Array(2).fill(TOKENS.job),
    ]);
  });

  test('a made-up token holds nothing and gets the 401 a legacy initialize gets, with the id; asked about once (D38)', async () => {
    const app = makeApp();
    for (const id of [4, 5]) {
      const response = await modernRpc(app, id, 'tools/call', getBranch(), { 'Private-Token': 'glpat-made-up-modern-000000' });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBeTruthy();
      const body = (await response.json()) as { id: number; error: { message: string } };
      expect(body.id).toBe(id);
      expect(body.error.message).toBe(MESSAGES.forgeRejectedToken);
    }
    expect(upstream()).toEqual(['GET /api/v4/user']);
  });
});

describe("server/discover and the revision's own checks", () => {
  test('server/discover names 2026-07-28, the tools, resources, prompts and completions capabilities (D44), the instructions and public cache hints', async () => {
    const response = await modernRpc(makeApp(), 'd', 'server/discover', {}, { 'Private-Token': TOKEN });
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: Record<string, unknown> };
    expect(result.supportedVersions).toEqual([MODERN_VERSION]);
    expect(result.capabilities).toEqual({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} });
    expect(String(result.instructions)).toContain("the caller's own token");
    expect(result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
  });

  test("tools/list carries cache hints (public: the list is the deployment's, the same for every caller); the legacy lane's carries none", async () => {
    const app = makeApp();
    const modern = (await (await modernRpc(app, 1, 'tools/list', {}, { 'Private-Token': TOKEN })).json()) as {
      result: { tools: unknown[]; ttlMs: number; cacheScope: string };
    };
    expect(modern.result).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' });
    expect(modern.result.tools).toEqual(app.catalog.listResult.tools);
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).headers.get('mcp-session-id')!;
    const legacy = (await (await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid })).json()) as {
      result: Record<string, unknown>;
    };
    expect(legacy.result.ttlMs).toBeUndefined();
    expect(legacy.result.cacheScope).toBeUndefined();
  });

  // prompts/list is served since D44; resources/unsubscribe is another method the revision removed.
  test.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'no/such/method'])(
    '%s → 404 with -32601 and the id',
    async (method) => {
      const response = await modernRpc(makeApp(), 'm-7', method, method === 'logging/setLevel' ? { level: 'info' } : {}, { 'Private-Token': TOKEN });
      expect(response.status).toBe(404);
      expect((await errorOf(response, 'm-7')).code).toBe(-32601);
    },
  );

  test.each([
    ['Mcp-Method missing', { 'mcp-method': '' }],
    ['Mcp-Method naming another method', { 'mcp-method': 'tools/list' }],
    ['Mcp-Method in another case', { 'mcp-method': 'TOOLS/CALL' }],
    ['Mcp-Name naming another tool', { 'mcp-name': 'delete_branch' }],
    ['Mcp-Name missing', { 'mcp-name': '' }],
    ['MCP-Protocol-Version missing', { 'mcp-protocol-version': '' }],
    ['MCP-Protocol-Version naming a 2025 revision', { 'mcp-protocol-version': '2025-11-25' }],
    ['a huge Mcp-Name', { 'mcp-name': 'x'.repeat(8000) }],
  ])('%s → 400 with -32020 and the id, nothing sent to the forge', async (_, headers) => {
    const message = modernMessage(11, 'tools/call', getBranch());
    const sent: Record<string, string> = { ...modernHeaders(message), 'Private-Token': TOKEN };
    for (const [name, value] of Object.entries(headers)) {
      if (value === '') delete sent[name];
      else sent[name] = value;
    }
    const response = await rpc(makeApp(), message, sent);
    expect(response.status).toBe(400);
    expect((await errorOf(response, 11)).code).toBe(-32020);
    expect(forge.requests).toEqual([]);
  });

  test('Mcp-Name with surrounding spaces is the same name', async () => {
    const response = await modernRpc(makeApp(), 12, 'tools/call', getBranch(), { 'Private-Token': TOKEN, 'mcp-name': '  get_branch  ' });
    expect(response.status).toBe(200);
  });

  test('an envelope naming an unknown revision → 400 with -32022, what is supported and what was asked', async () => {
    const message = modernMessage(13, 'tools/list');
    (message.params._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const response = await rpc(makeApp(), message, { ...modernHeaders(message), 'mcp-protocol-version': '2099-01-01', 'Private-Token': TOKEN });
    expect(response.status).toBe(400);
    const error = await errorOf(response, 13);
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: [MODERN_VERSION], requested: '2099-01-01' });
  });

  test('an unknown tool → -32602 with the id, as on the legacy lane', async () => {
    const response = await modernRpc(makeApp(), 14, 'tools/call', { name: 'no_such_tool', arguments: {} }, { 'Private-Token': TOKEN });
    expect(response.status).toBe(200);
    const error = await errorOf(response, 14);
    expect(error).toMatchObject({ code: -32602, message: 'Unknown tool: no_such_tool' });
  });

  test('a non-JSON Content-Type → 415 with the id (the prelude has read the body the SDK answers without)', async () => {
    const app = makeApp();
    for (const [id, method, params] of [
      [15, 'tools/list', {}],
      ['call-15', 'tools/call', getBranch()],
    ] as const) {
      const message = modernMessage(id, method, params);
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
        const response = await rpc(app, message, { ...modernHeaders(message), 'Private-Token': TOKEN, 'content-type': contentType });
        expect(response.status).toBe(415);
        expect(response.headers.get('content-type')).toStartWith('application/json');
        expect((await errorOf(response, id)).message).toBe('Unsupported Media Type: Content-Type must be application/json');
      }
    }
    expect(forge.requests).toEqual([]);
  });
});

describe('GET and DELETE → 405', () => {
  test.each(['GET', 'DELETE'])('%s naming 2026-07-28 → 405 Allow: POST, with or without a credential', async (method) => {
    const app = makeApp();
    for (const headers of [{}, { 'Private-Token': TOKEN }, { 'Private-Token': TOKEN, 'mcp-session-id': 'x' }] as Record<string, string>[]) {
      const response = await app.handle(
        new Request(MCP_URL, { method, headers: { 'mcp-protocol-version': MODERN_VERSION, accept: 'text/event-stream', ...headers } }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await errorOf(response, null)).code).toBe(-32000);
    }
  });
});

describe("authentication (SPEC's statuses and texts, D6), with the request id", () => {
  test.each([
    ['no credentials', {}, 'Missing Authorization or Private-Token header'],
    ['a non-bearer Authorization', { Authorization: `Basic ${TOKEN}` }, 'Missing Authorization or Private-Token header'],
    ['an empty Authorization', { Authorization: '' }, 'Missing Authorization or Private-Token header'],
    [
      'a short Private-Token',
      { 'Private-Token': 'short-token' },
      'Missing Authorization or Private-Token header. The token is too short: at least 20 characters are needed.',
    ],
    [
      'a bearer of spaces',
      { Authorization: `Bearer ${' '.repeat(30)}` },
      'Missing Authorization or Private-Token header. The token is too short: at least 20 characters are needed.',
    ],
    ['an empty JOB-TOKEN', { 'JOB-TOKEN': '' }, 'Missing Authorization or Private-Token header. The token is too short: at least 20 characters are needed.'],
  ])('%s → 401', async (_, headers, text) => {
    for (const id of [21, 'str-id']) {
      const response = await modernRpc(makeApp(), id, 'tools/call', getBranch(), headers as Record<string, string>);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await errorOf(response, id)).message).toBe(text);
    }
    expect(forge.requests).toEqual([]);
  });

  // D23: a value this server sealed is never a forge token; it is refused, and no forge sees it.
  test.each([
    ['a session id in Private-Token', { 'Private-Token': `v1.sid.${'A'.repeat(40)}` }],
    ['a download token in JOB-TOKEN', { 'JOB-TOKEN': `v1.dl.${'A'.repeat(40)}` }],
    ['an OAuth access token as a bearer', { Authorization: `Bearer v1.at.${'A'.repeat(40)}` }],
  ])('%s → 401 invalid_token with the id, nothing sent to the forge', async (_, headers) => {
    for (const id of [22, 'sealed-id']) {
      const response = await modernRpc(makeApp(), id, 'tools/call', getBranch(), headers as Record<string, string>);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect((await errorOf(response, id)).message).toBe(
        'Authentication required: the credential is a value this server issued (a session id, a download or OAuth token), not a forge token; it was not sent to the forge',
      );
    }
    expect(forge.requests).toEqual([]);
  });

  test('a notification without a credential → 401 without an id', async () => {
    const response = await rpc(
      makeApp(),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: modernMessage(0, 'x').params._meta } },
      { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'notifications/cancelled' },
    );
    expect(response.status).toBe(401);
    await errorOf(response, null);
  });

  test('static-token mode: requests need no credential and act with the static token', async () => {
    const app = makeApp({ REMOTE_AUTHORIZATION: 'false', FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.developer });
    expect((await modernRpc(app, 1, 'tools/call', getBranch())).status).toBe(200);
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
  });

  test('logs name the lane and hold no token', async () => {
    const capture = capturingLogger();
    const app = makeApp({}, { logger: capture.logger });
    await modernRpc(app, 1, 'tools/call', getBranch(), { 'Private-Token': TOKEN });
    await modernRpc(app, 2, 'tools/call', getBranch(), { 'Private-Token': 'short' });
    expect(capture.entries().find((e) => e.event === 'tool_call')).toMatchObject({ lane: 'modern', tool: 'get_branch', outcome: 'ok' });
    expect(capture.entries().find((e) => e.event === 'auth_failed')).toMatchObject({ lane: 'modern' });
    expect(capture.lines.join('')).not.toContain(TOKEN);
  });
});

describe('rate limits (D10): per client IP and per credential', () => {
  const behindProxy = { MCP_TRUST_PROXY: '1', MAX_REQUESTS_PER_MINUTE: '3' };

  test('per client IP: the fourth request in a minute → 429 with Retry-After, counted before the body is read', async () => {
    const app = makeApp(behindProxy);
    const from = (ip: string, token: string, id: number) =>
      modernRpc(
        app,
        id,
        'tools/list',
        {},
        token === TOKENS.job ? { 'JOB-TOKEN': token, 'X-Forwarded-For': ip } : { 'Private-Token': token, 'X-Forwarded-For': ip },
      );
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.1', [TOKENS.maintainer, TOKENS.developer, TOKENS.guest][i], i)).status).toBe(200);
    const refused = await from('10.0.0.1', TOKENS.job, 9);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(refused, null)).message).toBe('Rate limit exceeded');
    expect((await from('10.0.0.2', TOKENS.maintainer, 10)).status).toBe(200);
  });

  test('per credential: one token from many addresses → 429 with the id; another token goes on', async () => {
    const app = makeApp(behindProxy);
    for (let i = 0; i < 3; i++)
      expect((await modernRpc(app, i, 'tools/list', {}, { 'Private-Token': TOKEN, 'X-Forwarded-For': `10.0.1.${i}` })).status).toBe(200);
    const refused = await modernRpc(app, 'over', 'tools/list', {}, { 'Private-Token': TOKEN, 'X-Forwarded-For': '10.0.1.9' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await errorOf(refused, 'over')).message).toBe('Rate limit exceeded');
    expect((await modernRpc(app, 5, 'tools/list', {}, { 'Private-Token': TOKENS.developer, 'X-Forwarded-For': '10.0.1.10' })).status).toBe(200);
    const metrics = (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as { rejectedByRateLimit: number };
    expect(metrics.rejectedByRateLimit).toBe(1);
  });

  test('per credential: one token sent as Private-Token and as Authorization: Bearer in turn has one budget, not one per header', async () => {
    const app = makeApp(behindProxy);
    const header = (i: number): Record<string, string> => (i % 2 ? { authorization: `Bearer ${TOKEN}` } : { 'Private-Token': TOKEN });
    for (let i = 0; i < 3; i++) expect((await modernRpc(app, i, 'tools/list', {}, { ...header(i), 'X-Forwarded-For': `10.0.2.${i}` })).status).toBe(200);
    for (let i = 3; i < 5; i++) expect((await modernRpc(app, i, 'tools/list', {}, { ...header(i), 'X-Forwarded-For': `10.0.2.${i}` })).status).toBe(429);
  });

  test('stateless mode: no in-app limiter on the modern lane either (SPEC stateless rule 7)', async () => {
    const app = await statelessApp({ MAX_REQUESTS_PER_MINUTE: '1' });
    for (let i = 0; i < 4; i++) expect((await modernRpc(app, i, 'tools/list', {}, { 'Private-Token': TOKEN })).status).toBe(200);
  });
});

describe('capacity (D7): the pool', () => {
  test('FORGE_POOL_MAX_SIZE=1: a request for another forge while the only client is busy → 503 with the id', async () => {
    const slow = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Promise<Response>((r) => setTimeout(() => r(Response.json({ name: 'main' })), 400)),
    });
    const app = makeApp({ ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: `http://127.0.0.1:${slow.port}`, FORGE_POOL_MAX_SIZE: '1' });
    const pending = modernRpc(app, 1, 'tools/call', getBranch(), { 'Private-Token': TOKEN, 'X-Forge-API-URL': `http://127.0.0.1:${slow.port}` });
    await Bun.sleep(100);
    const refused = await modernRpc(app, 'cap', 'tools/call', getBranch(), { 'Private-Token': TOKEN });
    expect(refused.status).toBe(503);
    expect((await errorOf(refused, 'cap')).message).toBe('Server capacity reached');
    expect((await pending).status).toBe(200);
    expect((await modernRpc(app, 3, 'tools/call', getBranch(), { 'Private-Token': TOKEN })).status).toBe(200);
    slow.stop(true);
  });

  test('modern requests hold no session slot: MAX_SESSIONS=1 full, the modern lane still serves', async () => {
    const app = makeApp({ MAX_SESSIONS: '1' });
    expect((await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).status).toBe(200);
    expect((await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).status).toBe(503);
    for (let i = 0; i < 3; i++) expect((await modernRpc(app, i, 'tools/call', getBranch(), { 'Private-Token': TOKEN })).status).toBe(200);
    expect(app.sessions.size).toBe(1);
  });
});

describe('origin and host (D12)', () => {
  test.each([
    ['http://evil.example.com', 403],
    ['null', 403],
    ['http://localhost:6274', 200],
    ['https://mcp.example.org', 200],
    ['https://app.example.net', 200],
  ])('Origin %s → %d', async (origin, status) => {
    const app = makeApp({ MCP_SERVER_URL: 'https://mcp.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example.net' });
    const response = await modernRpc(app, 1, 'tools/list', {}, { 'Private-Token': TOKEN, Origin: origin });
    expect(response.status).toBe(status);
  });

  test.each([
    ['evil.example.com', 403],
    ['evil.example.com:3002', 403],
    ['localhost.evil.example', 403],
    ['', 403],
    ['localhost:3002', 200],
    ['127.0.0.1:3002', 200],
    ['[::1]:3002', 200],
    ['mcp.example.org', 200],
    ['app.example.net', 200],
  ])('Host %p on a server listening on loopback → %d, on both lanes', async (host, status) => {
    const app = makeApp({ MCP_SERVER_URL: 'https://mcp.example.org', MCP_ALLOWED_ORIGINS: 'https://app.example.net' });
    const modern = await modernRpc(app, 1, 'tools/list', {}, { 'Private-Token': TOKEN, Host: host });
    expect(modern.status).toBe(status);
    const legacy = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN, Host: host });
    expect(legacy.status).toBe(status);
    if (status === 403) expect((await errorOf(legacy, null)).message).toBe('Forbidden: Host not allowed');
  });

  test("refusals made before the body is read carry id null, not the unread body's id (D27)", async () => {
    const app = makeApp({ MCP_TRUST_PROXY: '1', MAX_REQUESTS_PER_MINUTE: '1', MAX_REQUEST_BODY_BYTES: '2048' });
    const refusals: [number, Record<string, string>][] = [
      [403, { Host: 'evil.example.com' }],
      [403, { Origin: 'http://evil.example.com' }],
      [413, { 'content-length': '999999', 'X-Forwarded-For': '10.9.0.1' }],
    ];
    for (const [status, headers] of refusals) {
      const response = await modernRpc(app, 'unread', 'tools/list', {}, { 'Private-Token': TOKEN, ...headers });
      expect(response.status).toBe(status);
      await errorOf(response, null);
    }
    expect((await modernRpc(app, 1, 'tools/list', {}, { 'Private-Token': TOKEN, 'X-Forwarded-For': '10.9.0.2' })).status).toBe(200);
    const limited = await modernRpc(app, 'unread', 'tools/list', {}, { 'Private-Token': TOKEN, 'X-Forwarded-For': '10.9.0.2' });
    expect(limited.status).toBe(429);
    await errorOf(limited, null);
  });

  test('a server listening on all addresses sits behind its own names: the Host header is not judged', async () => {
    const app = makeApp({ HOST: '0.0.0.0' });
    expect((await modernRpc(app, 1, 'tools/list', {}, { 'Private-Token': TOKEN, Host: 'mcp.internal.example' })).status).toBe(200);
  });
});

describe('body limits', () => {
  test('a declared body over MAX_REQUEST_BODY_BYTES → 413 before reading it', async () => {
    const message = modernMessage(1, 'tools/list');
    const response = await makeApp({ MAX_REQUEST_BODY_BYTES: '2048' }).handle(
      new Request(MCP_URL, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modernHeaders(message),
          'Private-Token': TOKEN,
          'content-length': '999999',
        },
        body: JSON.stringify(message),
      }),
    );
    expect(response.status).toBe(413);
  });

  test('a tools/call whose arguments grow past the limit → 413, nothing sent to the forge', async () => {
    const response = await modernRpc(
      makeApp({ MAX_REQUEST_BODY_BYTES: '2048' }),
      1,
      'tools/call',
      { name: 'get_branch', arguments: { project_id: '1', branch_name: 'x'.repeat(4096) } },
      { 'Private-Token': TOKEN },
    );
    expect(response.status).toBe(413);
    expect(forge.requests).toEqual([]);
  });

  test('invalid JSON → 400 parse error without an id (the body never parsed)', async () => {
    const response = await rpc(makeApp(), '{"jsonrpc":"2.0","id":5,', {
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': 'tools/list',
      'Private-Token': TOKEN,
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response, null)).code).toBe(-32700);
  });
});

describe("a body that is no JSON-RPC message, sent with a legacy session id: the session's lane answers it", () => {
  const NOT_MESSAGES: [string, unknown][] = [
    ['null', null],
    ['a string', 'abc'],
    ['a number', 123],
    ['an empty object', {}],
    ['an id alone', { jsonrpc: '2.0', id: 9 }],
    ['a method that is not a string', { jsonrpc: '2.0', id: 'm', method: 9 }],
    ['a batch with a member that is no message', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 1]],
  ];
  const send = (app: ForgeApp, body: unknown, headers: Record<string, string>) => rpc(app, JSON.stringify(body), headers);

  test.each(NOT_MESSAGES)('%s: a live session id without a credential → 400 -32700 (not 401); an unknown id → 404', async (_, body) => {
    for (const app of [makeApp(), await statelessApp()]) {
      const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).headers.get('mcp-session-id')!;
      forge.reset();
      for (const headers of [
        { 'mcp-session-id': sid },
        { 'mcp-session-id': sid, 'mcp-protocol-version': MODERN_VERSION },
        { 'mcp-session-id': sid, 'Private-Token': TOKEN },
      ] as Record<string, string>[]) {
        const response = await send(app, body, headers);
        expect(response.status).toBe(400);
        expect(response.headers.get('www-authenticate')).toBeNull();
        expect(await errorOf(response, null)).toEqual({ code: -32700, message: 'Parse error: Invalid JSON-RPC message' });
      }
      const unknown = await send(app, body, { 'mcp-session-id': 'v1.sid.no-such-session' });
      expect(unknown.status).toBe(404);
      expect((await errorOf(unknown, null)).message).toBe('Session not found');
      // The credential check (D7) and what it asks of a token it took (D38) are not a tool's request.
      expect(forge.requests.filter((r) => !r.path.endsWith('/user') && !r.path.endsWith('/personal_access_tokens/self'))).toEqual([]);
    }
  });

  test.each(NOT_MESSAGES)(
    "%s without a session id: no credential → 401 (docs/spec.md's row, the challenge clients discover by), a credential → 400 -32600",
    async (_, body) => {
      const app = makeApp();
      const refused = await send(app, body, {});
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      const invalid = await send(app, body, { 'Private-Token': TOKEN });
      expect(invalid.status).toBe(400);
      expect(((await invalid.json()) as { error: { code: number } }).error.code).toBe(-32600);
      expect(forge.requests).toEqual([]);
    },
  );

  test('a body that is no JSON at all, with a live legacy session id and no credential → 400 parse error (-32700) without an id', async () => {
    const app = makeApp();
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).headers.get('mcp-session-id')!;
    for (const text of ['{"jsonrpc":"2.0","id":5,', '', 'not json']) {
      const response = await rpc(app, text, { 'mcp-session-id': sid });
      expect(response.status).toBe(400);
      expect((await errorOf(response, null)).code).toBe(-32700);
    }
  });
});

describe('dynamic forge URL: each request names its own', () => {
  const dynamic = () => makeApp({ ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: new URL(two.apiUrl).origin });

  test('X-Forge-API-URL picks the forge per request; without it, the first FORGE_API_URL', async () => {
    const app = dynamic();
    expect((await modernRpc(app, 1, 'tools/call', getBranch(), { 'Private-Token': TOKEN, 'X-Forge-API-URL': two.apiUrl })).status).toBe(200);
    expect((await modernRpc(app, 2, 'tools/call', getBranch('develop'), { 'Private-Token': TOKEN })).status).toBe(200);
    // Each forge checks the token for itself (D7, D38), then serves the call.
    expect(two.requests.map((r) => r.path)).toEqual([
      '/api/v4/user',
      '/api/v4/personal_access_tokens/self',
      `/api/v4/projects/${SEED.project}/repository/branches/main`,
    ]);
    expect(forge.requests.map((r) => r.path)).toEqual([
      '/api/v4/user',
      '/api/v4/personal_access_tokens/self',
      `/api/v4/projects/${SEED.project}/repository/branches/develop`,
    ]);
  });

  test.each([
    ['http://evil.example.com/api/v4', 'its host is not an allowed forge (FORGE_API_URL, FORGE_ALLOWED_HOSTS)'],
    ['ftp://127.0.0.1/api/v4', 'the scheme must be http or https'],
    ['x'.repeat(5000), 'not an absolute http(s) URL'],
    ['http://user:pw@127.0.0.1/api/v4', 'it holds a user name or password; credentials go in headers, never in the URL'],
    ['http://127.0.0.1/api/v4?private_token=glpat-inthequery0000000', 'it holds a query or a fragment; give the forge base or API URL only'],
  ])('%p → 400 "Invalid custom API URL provided: <why>" with the id; the token goes nowhere', async (url, why) => {
    const response = await modernRpc(dynamic(), 'u', 'tools/call', getBranch(), { 'Private-Token': TOKEN, 'X-Forge-API-URL': url });
    expect(response.status).toBe(400);
    expect((await errorOf(response, 'u')).message).toBe(`Invalid custom API URL provided: ${why}`);
    expect(forge.requests).toEqual([]);
    expect(two.requests).toEqual([]);
  });
});

describe('metrics count both lanes', () => {
  test('requestsByLane and forge_mcp_lane_requests_total; sessions stay legacy-only', async () => {
    const app = makeApp();
    for (let i = 0; i < 3; i++) await modernRpc(app, i, 'tools/call', getBranch(), { 'Private-Token': TOKEN });
    await modernRpc(app, 9, 'tools/call', getBranch(), {}); // refused 401: counted on its lane
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).headers.get('mcp-session-id')!;
    await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: getBranch() }, { 'mcp-session-id': sid });
    const json = (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as Record<string, unknown>;
    expect(json).toMatchObject({ requestsProcessed: 6, requestsByLane: { modern: 4, legacy: 2 }, totalSessions: 1, activeSessions: 1 });
    const text = await (await app.handle(new Request('http://localhost/metrics'))).text();
    expect(text).toContain('forge_mcp_requests_total 6');
    expect(text).toContain('forge_mcp_lane_requests_total{lane="modern"} 4');
    expect(text).toContain('forge_mcp_lane_requests_total{lane="legacy"} 2');
    expect(text).toContain('forge_mcp_tool_calls_total{tool="get_branch",outcome="ok"} 4');
  });
});

describe('stateless mode: nothing sealed on the modern lane', () => {
  test('requests are served without a session id, and none is issued', async () => {
    const app = await statelessApp();
    for (let i = 0; i < 3; i++) {
      const response = await modernRpc(app, i, 'tools/call', getBranch(), { 'Private-Token': TOKEN });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    }
    // The D7 check runs on the modern lane too (D38), once: its answer is cached for the other calls.
    expect(upstream().filter((r) => r.endsWith('/user'))).toEqual(['GET /api/v4/user']);
  });

  test('no credential → 401 "Authentication required" (SPEC\'s stateless row, as the legacy lane says it) with the id; a sealed id is no credential here', async () => {
    const app = await statelessApp();
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': TOKEN })).headers.get('mcp-session-id')!;
    // An ingress's Basic Authorization is no credential of ours either.
    for (const headers of [
      {},
      { 'mcp-session-id': sid },
      { Authorization: 'Basic aW5ncmVzczpzZWNyZXQ=' },
      { Authorization: 'Basic aW5ncmVzczpzZWNyZXQ=', 'mcp-session-id': sid },
    ] as Record<string, string>[]) {
      for (const [id, method, params] of [
        ['a', 'tools/call', getBranch()],
        ['b', 'tools/list', {}],
      ] as const) {
        const response = await modernRpc(app, id, method, params, headers);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expect((await errorOf(response, id)).message).toBe('Authentication required');
      }
    }
    const legacy = await rpc(app, INITIALIZE);
    expect(legacy.status).toBe(401);
    expect((await errorOf(legacy, null)).message).toBe('Authentication required');
    // A short token is a credential SPEC's other row refuses, on this lane as on the legacy one.
    const short = await modernRpc(app, 'c', 'tools/call', getBranch(), { 'Private-Token': 'short-token' });
    expect((await errorOf(short, 'c')).message).toStartWith('Missing Authorization or Private-Token header');
    // The credential check (D7) and what it asks of a token it took (D38) are not a tool's request.
    expect(forge.requests.filter((r) => !r.path.endsWith('/user') && !r.path.endsWith('/personal_access_tokens/self'))).toEqual([]);
  });

  test('the v2 client pinned to 2026-07-28 runs the whole tool set', async () => {
    const app = await statelessApp();
    const client = await connect(app, { 'Private-Token': TOKEN }, MCP_URL, { lane: 'modern' });
    expect(client.client.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
    expect(client.transport.sessionId).toBeUndefined();
    expect(structured<{ name: string }>(await client.call('get_branch', { project_id: String(SEED.project), branch_name: 'develop' })).name).toBe('develop');
    expect(toolError(await client.call('get_branch', { project_id: String(SEED.project), branch_name: 'no-such-branch' })).kind).toBe('not_found');
    await client.close();
  });
});
