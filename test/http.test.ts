// The HTTP surface of /mcp in stateful mode: health, routing, authentication, sessions, limits.
import { afterEach, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { testConfig } from './support/config';
import { INITIALIZE, MCP_URL, connect, rpc } from './support/mcp-client';

// No forge is called in these tests; the URL only has to be valid.
const FORGE = 'http://127.0.0.1:9/api/v4';
const TOKEN = 'glpat-http-test-token-0001';
const apps: ForgeApp[] = [];

function makeApp(overrides: Record<string, string> = {}, now?: () => number): ForgeApp {
  const app = createApp(testConfig(FORGE, overrides), { now });
  apps.push(app);
  return app;
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

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
  });

  test('other methods on /mcp answer 405', async () => {
    const response = await makeApp().handle(new Request(MCP_URL, { method: 'PUT' }));
    expect(response.status).toBe(405);
  });
});

describe('remote authorization', () => {
  test.each([
    ['no credentials', {}],
    ['a short Private-Token', { 'Private-Token': 'short-token' }],
    ['a short bearer token', { Authorization: 'Bearer abc' }],
    ['a non-bearer Authorization', { Authorization: `Basic ${TOKEN}` }],
    ['a short JOB-TOKEN', { 'JOB-TOKEN': '1234' }],
  ])('initialize with %s → 401 with SPEC\'s text', async (_, headers) => {
    const response = await rpc(makeApp(), INITIALIZE, headers as Record<string, string>);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toStartWith('Bearer');
    expect((await errorOf(response)).message).toBe('Missing Authorization or Private-Token header');
  });

  test.each([
    ['Private-Token', { 'Private-Token': TOKEN }],
    ['Authorization: Bearer', { Authorization: `Bearer ${TOKEN}` }],
    ['JOB-TOKEN', { 'JOB-TOKEN': TOKEN }],
  ])('initialize with %s opens a session', async (_, headers) => {
    const app = makeApp();
    await openSession(app, headers as Record<string, string>);
    expect(app.sessions.size).toBe(1);
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
    const app = makeApp({ SESSION_TIMEOUT_SECONDS: '60' }, () => now);
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
    const app = makeApp({ SESSION_TIMEOUT_SECONDS: '10' }, () => now);
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

  test('the SDK client connects, lists tools and closes its session', async () => {
    const app = makeApp();
    const session = await connect(app, { 'Private-Token': TOKEN });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_branch');
    await session.close();
    expect(app.sessions.size).toBe(0);
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
      new Request(MCP_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/html', 'Private-Token': TOKEN }, body: JSON.stringify(INITIALIZE) }),
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

  test('a CORS preflight from an allowed origin lists the auth and session headers', async () => {
    const app = makeApp();
    const response = await app.handle(new Request(MCP_URL, { method: 'OPTIONS', headers: { Origin: 'http://localhost:6274' } }));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
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
