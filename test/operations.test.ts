// What an operator relies on: /metrics and /metrics.json with every counter moving when its
// event happens, per-IP and per-session rate limits with Retry-After, and a bounded limiter.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ForgeApp } from '../src/app';
import { clientIp } from '../src/web/client-ip';
import { FixedWindowLimiter } from '../src/web/rate-limit';
import { useApps } from './support/apps';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE, connect, rpc } from './support/mcp-client';

let forge: FakeForge;
const makeApp = useApps(() => forge.apiUrl, 'all');
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});

const json = async (app: ForgeApp) => (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as Record<string, any>;
const text = async (app: ForgeApp) => (await app.handle(new Request('http://localhost/metrics'))).text();

describe('/metrics.json', () => {
  test('has every SPEC field with its type', async () => {
    const m = await json(makeApp({ MAX_SESSIONS: '7', SESSION_TIMEOUT_SECONDS: '90', MAX_REQUESTS_PER_MINUTE: '33' }));
    for (const field of [
      'activeSessions',
      'totalSessions',
      'expiredSessions',
      'authFailures',
      'requestsProcessed',
      'rejectedByRateLimit',
      'rejectedByCapacity',
      'authenticatedSessions',
      'uptime',
    ]) {
      expect(typeof m[field]).toBe('number');
    }
    for (const field of ['rss', 'heapTotal', 'heapUsed', 'external']) expect(m.memoryUsage[field]).toBeGreaterThan(0);
    expect(m.config).toEqual({ maxSessions: 7, maxRequestsPerMinute: 33, sessionTimeoutSeconds: 90, remoteAuthEnabled: true });
  });

  test('each counter moves when its event happens', async () => {
    let now = 10_000_000;
    const app = makeApp({ MAX_SESSIONS: '2', SESSION_TIMEOUT_SECONDS: '60' }, { now: () => now });
    const start = await json(app);
    expect(start).toMatchObject({ activeSessions: 0, totalSessions: 0, requestsProcessed: 0, authFailures: 0 });

    await rpc(app, INITIALIZE, {}); // 401
    expect((await json(app)).authFailures).toBe(1);

    const a = await connect(app, { 'Private-Token': TOKENS.maintainer });
    await connect(app, { 'Private-Token': TOKENS.developer });
    let m = await json(app);
    expect(m).toMatchObject({ activeSessions: 2, totalSessions: 2, authenticatedSessions: 2 });
    expect(m.requestsProcessed).toBeGreaterThanOrEqual(5);

    expect((await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.guest })).status).toBe(503);
    expect((await json(app)).rejectedByCapacity).toBe(1);

    await a.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' });
    await a.call('get_branch', { project_id: String(SEED.project), branch_name: 'gone' });
    m = await json(app);
    expect(m.toolCalls).toEqual({ 'get_branch:ok': 1, 'get_branch:not_found': 1 });
    expect(m.poolSize).toBe(1);

    now += 61_000;
    app.sessions.sweep();
    m = await json(app);
    expect(m).toMatchObject({ activeSessions: 0, expiredSessions: 2, authenticatedSessions: 0 });
  });

  test('a session past its timeout counts as expired at once, in both views, before any periodic sweep', async () => {
    let now = 20_000_000;
    const app = makeApp({ SESSION_TIMEOUT_SECONDS: '60' }, { now: () => now });
    await connect(app, { 'Private-Token': TOKENS.maintainer });
    await connect(app, { 'Private-Token': TOKENS.developer });
    now += 30_000;
    expect(await json(app)).toMatchObject({ activeSessions: 2, expiredSessions: 0, authenticatedSessions: 2 });
    now += 31_000; // 61 s idle: both expired; the sweep (every 60 s of real time) has not run
    expect(await text(app)).toContain('forge_mcp_active_sessions 0\n');
    expect(await json(app)).toMatchObject({ activeSessions: 0, expiredSessions: 2, authenticatedSessions: 0 });
  });

  test('static-token sessions are not counted as authenticated', async () => {
    const app = makeApp({ REMOTE_AUTHORIZATION: 'false', FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.maintainer });
    await connect(app, {});
    expect(await json(app)).toMatchObject({ activeSessions: 1, authenticatedSessions: 0 });
    expect((await json(app)).config.remoteAuthEnabled).toBe(false);
  });
});

test("stateless mode reports the sealed ids' inactivity timeout as the session timeout", async () => {
  const secret = { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 7).toString('base64url'), SESSION_TIMEOUT_SECONDS: '900' };
  const statelessApp = (overrides: Record<string, string>) => makeApp.sealed(overrides);
  expect((await json(await statelessApp({ ...secret, OAUTH_STATELESS_SESSION_TTL_SECONDS: '5' }))).config.sessionTimeoutSeconds).toBe(5);
  expect((await json(await statelessApp(secret))).config.sessionTimeoutSeconds).toBe(900); // its default: SESSION_TIMEOUT_SECONDS
});

test('OAuth mode counts as callers bringing their own credentials', async () => {
  const app = makeApp({
    REMOTE_AUTHORIZATION: 'false',
    FORGE_MCP_OAUTH: 'true',
    MCP_SERVER_URL: 'http://localhost:3002',
    FORGE_OAUTH_CLIENT_ID: 'forge-app-id',
  });
  expect((await json(app)).config.remoteAuthEnabled).toBe(true);
});

describe('/metrics (Prometheus text)', () => {
  test('HELP and TYPE for every metric, forge_mcp_ prefix, counters end in _total, histograms by status class', async () => {
    const app = makeApp();
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer });
    await c.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' });
    await c.call('get_branch', { project_id: String(SEED.project), branch_name: 'nope' });
    const body = await text(app);
    const types = [...body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(types.length).toBeGreaterThan(10);
    for (const [name, type] of types) {
      expect(name).toStartWith('forge_mcp_');
      expect(body).toContain(`# HELP ${name} `);
      if (type === 'counter') expect(name).toEndWith('_total');
    }
    for (const line of body.split('\n').filter((l) => l && !l.startsWith('#'))) expect(line).toMatch(/^forge_mcp_[a-z_]+(\{[^}]*\})? -?[\d.e+-]+$/);
    expect(body).toContain('forge_mcp_tool_calls_total{tool="get_branch",outcome="ok"} 1');
    expect(body).toContain('forge_mcp_tool_calls_total{tool="get_branch",outcome="not_found"} 1');
    // The credential check of initialize (GET /user, D7) and the successful get_branch.
    // The credential check, what the token may do (D38) and the call.
    expect(body).toContain('forge_mcp_upstream_request_duration_seconds_count{status_class="2xx"} 3');
    expect(body).toContain('forge_mcp_upstream_request_duration_seconds_count{status_class="4xx"} 1');
    expect(body).toMatch(/forge_mcp_active_sessions 1\n/);
    expect(body).toMatch(/forge_mcp_sessions_total 1\n/);
  });
});

describe('rate limits', () => {
  test('per client IP: the request over the limit gets 429 "Rate limit exceeded" with Retry-After; a new window lets it through', async () => {
    let now = 60_000 * 1000 + 15_000; // 15 s into a window
    const app = makeApp({ MAX_REQUESTS_PER_MINUTE: '3' }, { now: () => now });
    const send = () =>
      app.handle(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKENS.maintainer },
          body: JSON.stringify(INITIALIZE),
        }),
        '10.1.1.1',
      );
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Rate limit exceeded');
    // Another address is not affected.
    expect(
      (
        await app.handle(
          new Request('http://localhost/mcp', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKENS.maintainer },
            body: JSON.stringify(INITIALIZE),
          }),
          '10.2.2.2',
        )
      ).status,
    ).toBe(200);
    now += 45_000;
    expect((await send()).status).toBe(200);
    expect((await json(app)).rejectedByRateLimit).toBe(1);
  });

  test('a refused client is logged once per window, not once per refused request', async () => {
    let now = 0;
    const limiter = new FixedWindowLimiter(1, () => now);
    expect((await limiter.hit('a')).allowed).toBe(true);
    expect(await limiter.hit('a')).toMatchObject({ allowed: false, firstRefusal: true });
    expect(await limiter.hit('a')).toMatchObject({ allowed: false });
    expect((await limiter.hit('a')).firstRefusal).toBeUndefined();
    now += 60_000;
    expect((await limiter.hit('a')).allowed).toBe(true);
  });

  test('MCP_TRUST_PROXY=true: the entry the one proxy appended counts, whatever the client wrote to its left', async () => {
    const post = (app: ForgeApp, xff: string) =>
      app.handle(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'Private-Token': TOKENS.maintainer,
            'X-Forwarded-For': xff,
          },
          body: JSON.stringify(INITIALIZE),
        }),
        '127.0.0.1',
      );
    const trusting = makeApp({ MAX_REQUESTS_PER_MINUTE: '1', MCP_TRUST_PROXY: 'true' });
    expect((await post(trusting, '203.0.113.1')).status).toBe(200);
    // The client forges a fresh leftmost entry each time; the proxy (nginx, ALB, Envoy) appends the real one.
    expect((await post(trusting, '198.51.100.7, 203.0.113.1')).status).toBe(429);
    expect((await post(trusting, '198.51.100.8, 203.0.113.1')).status).toBe(429);
    expect((await post(trusting, '203.0.113.2')).status).toBe(200);
    const ignoring = makeApp({ MAX_REQUESTS_PER_MINUTE: '1' });
    expect((await post(ignoring, '203.0.113.1')).status).toBe(200);
    expect((await post(ignoring, '203.0.113.2')).status).toBe(429);
  });

  test('IPv6: 30 requests from one /64 with a new interface id each are one client; IPv4-mapped counts as the IPv4 address (D10)', async () => {
    const init = () => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKENS.maintainer },
      body: JSON.stringify(INITIALIZE),
    });
    const app = makeApp({ MAX_REQUESTS_PER_MINUTE: '5' }, { now: () => 60_000 * 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push(
        (await app.handle(new Request('http://localhost/mcp', init()), `2001:db8:66:1:${((i * 4099) % 65536).toString(16)}:${i}::${(i * 31).toString(16)}`))
          .status,
      );
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    // The next /64 is another client; so is an IPv4 address, whose mapped spelling is the same one.
    expect((await app.handle(new Request('http://localhost/mcp', init()), '2001:db8:66:2::1')).status).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await app.handle(new Request('http://localhost/mcp', init()), i % 2 ? '203.0.113.9' : '::ffff:203.0.113.9')).status).toBe(200);
    expect((await app.handle(new Request('http://localhost/mcp', init()), '::FFFF:cb00:7109')).status).toBe(429);
  });

  test('MCP_TRUST_PROXY=2: the second entry from the right; fewer entries than proxies count as the socket address', () => {
    const request = (xff?: string) => new Request('http://localhost/mcp', { headers: xff === undefined ? {} : { 'X-Forwarded-For': xff } });
    expect(clientIp(request('1.1.1.1, 2.2.2.2, 3.3.3.3'), '10.0.0.9', 2)).toBe('2.2.2.2');
    expect(clientIp(request('2.2.2.2 ,3.3.3.3'), '10.0.0.9', 2)).toBe('2.2.2.2');
    expect(clientIp(request('3.3.3.3'), '10.0.0.9', 2)).toBe('10.0.0.9');
    expect(clientIp(request(''), '10.0.0.9', 1)).toBe('10.0.0.9');
    expect(clientIp(request(' , '), '10.0.0.9', 1)).toBe('10.0.0.9');
    expect(clientIp(request('1.1.1.1'), '10.0.0.9', 0)).toBe('10.0.0.9');
    expect(clientIp(request(), undefined, 1)).toBe('unknown');
  });

  test('MCP_TRUST_PROXY takes true, false or a number of proxies', () => {
    expect(testConfig('https://gitlab.example.com', { MCP_TRUST_PROXY: 'true' }).trustedProxies).toBe(1);
    expect(testConfig('https://gitlab.example.com', { MCP_TRUST_PROXY: 'false' }).trustedProxies).toBe(0);
    expect(testConfig('https://gitlab.example.com', { MCP_TRUST_PROXY: '3' }).trustedProxies).toBe(3);
    expect(testConfig('https://gitlab.example.com').trustedProxies).toBe(0);
    for (const bad of ['yes', '-1', '100', '1.5'])
      expect(() => testConfig('https://gitlab.example.com', { MCP_TRUST_PROXY: bad })).toThrow(/MCP_TRUST_PROXY: must be true, false or a number/);
  });

  test('per session: one session cannot exceed the limit even from many addresses', async () => {
    const app = makeApp({ MAX_REQUESTS_PER_MINUTE: '3', MCP_TRUST_PROXY: 'true' });
    const init = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forwarded-For': '198.51.100.1' });
    const sid = init.headers.get('mcp-session-id')!;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await rpc(app, { jsonrpc: '2.0', id: 10 + i, method: 'ping' }, { 'mcp-session-id': sid, 'X-Forwarded-For': `198.51.100.${10 + i}` })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  describe('batches (D10): limits count JSON-RPC messages, not HTTP requests', () => {
    const INIT_2025_03_26 = { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-03-26' } };
    const toolCall = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } },
    });
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

    test('per client IP: a batch of 100 tools/call under a limit of 3 is refused whole, and nothing reaches the forge', async () => {
      const app = makeApp({ MAX_REQUESTS_PER_MINUTE: '3' });
      const sid = (await rpc(app, INIT_2025_03_26, { 'Private-Token': TOKENS.maintainer })).headers.get('mcp-session-id')!;
      const upstreamBefore = forge.requests.length;
      const refused = await rpc(
        app,
        Array.from({ length: 100 }, (_, i) => toolCall(10 + i)),
        { 'mcp-session-id': sid },
      );
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Rate limit exceeded');
      expect(forge.requests.length).toBe(upstreamBefore);
      // initialize and the refused batch's first message are counted: one more message fits.
      expect((await rpc(app, toolCall(200), { 'mcp-session-id': sid })).status).toBe(200);
      expect((await rpc(app, toolCall(201), { 'mcp-session-id': sid })).status).toBe(429);
      expect(forge.requests.length).toBe(upstreamBefore + 1);
    });

    test('per session: each message of a batch counts, whichever address it comes from', async () => {
      const app = makeApp({ MAX_REQUESTS_PER_MINUTE: '3', MCP_TRUST_PROXY: 'true' });
      const from = (n: number) => ({ 'X-Forwarded-For': `198.51.100.${n}` });
      const sid = (await rpc(app, INIT_2025_03_26, { 'Private-Token': TOKENS.maintainer, ...from(1) })).headers.get('mcp-session-id')!;
      expect((await rpc(app, [ping(2), ping(3), ping(4), ping(5)], { 'mcp-session-id': sid, ...from(2) })).status).toBe(429);
      const served = await rpc(app, [ping(6), ping(7), ping(8)], { 'mcp-session-id': sid, ...from(3) });
      expect(served.status).toBe(200);
      expect(((await served.json()) as { id: number }[]).map((r) => r.id).sort()).toEqual([6, 7, 8]);
      expect((await rpc(app, ping(9), { 'mcp-session-id': sid, ...from(4) })).status).toBe(429);
    });

    test.each([
      ['in a session', true],
      ['without a session id', false],
    ])("an empty batch [] %s → 400 with JSON-RPC's invalid request error", async (_, inSession) => {
      const app = makeApp();
      const headers: Record<string, string> = { 'Private-Token': TOKENS.maintainer };
      if (inSession) headers['mcp-session-id'] = (await rpc(app, INIT_2025_03_26, headers)).headers.get('mcp-session-id')!;
      const response = await rpc(app, [], headers);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: an empty batch holds no message' }, id: null });
    });
  });

  test('the limiter forgets old windows at once and holds at most maxKeys addresses', async () => {
    let now = 0;
    const limiter = new FixedWindowLimiter(5, () => now, 60_000, 1000);
    for (let i = 0; i < 5000; i++) expect((await limiter.hit(`ip-${i}`)).allowed).toBe(true);
    expect(limiter.size).toBe(1000);
    now += 60_000;
    await limiter.hit('ip-new');
    expect(limiter.size).toBe(1);
  });
});
