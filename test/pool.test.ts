// The upstream pool: one client per forge origin (D7), LRU eviction of idle clients at
// the size limit, the idle sweep, 503 when every client is busy, and each client's fetch options
// for real: a custom CA for a self-signed HTTPS forge, certificate checks off, and forward proxies.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { ForgeClient } from '../src/forge/client';
import { createEndpoint } from '../src/forge/endpoint';
import { ForgePool } from '../src/forge/pool';
import { ToolError } from '../src/tools/errors';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { capturingLogger } from './support/log-capture';
import { INITIALIZE, connect, rpc, structured } from './support/mcp-client';
import { makeSelfSignedCert, startForwardProxy, startHttpsForge, type SelfSigned } from './support/network';

const OPTIONS = { rejectUnauthorized: true, timeoutMs: 5000 };

describe('LRU and idle sweep (controllable clock)', () => {
  test('one client per origin, reused; at the limit the least recently used idle client is evicted', () => {
    let now = 0;
    const evicted: string[] = [];
    const pool = new ForgePool(OPTIONS, { maxSize: 2, idleTimeoutMs: 1000, now: () => now, onEvict: (u, why) => evicted.push(`${why} ${u}`) });
    const a = pool.lease('http://a/api/v4')!;
    a.release();
    now = 10;
    pool.lease('http://b/api/v4')!.release();
    now = 20;
    expect(pool.lease('http://a/api/v4')!.endpoint).toBe(a.endpoint); // reused, and now most recent
    now = 30;
    pool.lease('http://c/api/v4')!.release();
    expect(evicted).toEqual(['lru http://b']);
    expect(pool.has('http://a/api/v4')).toBe(true);
    expect(pool.size).toBe(2);
  });

  test('busy clients are never evicted; when all are busy a new origin is refused', () => {
    const pool = new ForgePool(OPTIONS, { maxSize: 2, idleTimeoutMs: 1000 });
    const a = pool.lease('http://a/api/v4')!;
    const b = pool.lease('http://b/api/v4')!;
    expect(pool.lease('http://c/api/v4')).toBeUndefined();
    b.release();
    expect(pool.lease('http://c/api/v4')).toBeDefined();
    expect(pool.has('http://a/api/v4')).toBe(true);
    a.release();
  });

  test('the sweep removes clients idle past the timeout, not busy ones', () => {
    let now = 0;
    const pool = new ForgePool(OPTIONS, { maxSize: 10, idleTimeoutMs: 1000, now: () => now });
    pool.lease('http://idle/api/v4')!.release();
    const busy = pool.lease('http://busy/api/v4')!;
    now = 1001;
    expect(pool.sweep()).toBe(1);
    expect(pool.has('http://idle/api/v4')).toBe(false);
    expect(pool.has('http://busy/api/v4')).toBe(true);
    busy.release();
    now = 3000;
    expect(pool.sweep()).toBe(1);
    expect(pool.size).toBe(0);
  });
});

describe('keyed by origin (D7)', () => {
  test('path variants of one origin share one client (fetch options and in-flight count); each endpoint keeps its own API URL', () => {
    const pool = new ForgePool(OPTIONS, { maxSize: 3, idleTimeoutMs: 1000 });
    const urls = ['http://h:8080/api/v4', 'http://h:8080/gitlab/api/v4', 'http://h:8080/a/b/api/v4'];
    const leases = urls.map((u) => pool.lease(u)!);
    expect(pool.size).toBe(1);
    expect(leases.map((l) => l.endpoint.apiUrl)).toEqual(urls);
    expect(leases.map((l) => l.endpoint.apiPath)).toEqual(['/api/v4', '/gitlab/api/v4', '/a/b/api/v4']);
    expect(new Set(leases.map((l) => l.endpoint.fetchOptions)).size).toBe(1);
    const again = pool.lease(urls[1])!;
    expect(again.endpoint).toBe(leases[1].endpoint);
    again.release();
    // Scheme and port are part of the origin.
    for (const other of ['https://h:8080/api/v4', 'http://h:8081/api/v4']) expect(pool.lease(other)).toBeDefined();
    expect(pool.size).toBe(3);
    expect(pool.lease('http://elsewhere/api/v4')).toBeUndefined(); // all three origins busy
    for (const l of leases) l.release();
    expect(pool.lease('http://elsewhere/api/v4')).toBeDefined(); // h:8080 was idle at last, and evicted
    expect(pool.has(urls[0])).toBe(false);
  });

  test('through the server: three path variants with slow requests in flight hold one slot; another origin still gets one; logs name origins', async () => {
    const forge = await startFakeForge();
    const slow = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Promise<Response>((r) => setTimeout(() => r(Response.json({ id: 1, username: 'maria', name: 'main' })), 400)),
    });
    const capture = capturingLogger();
    let now = Date.now();
    const slowOrigin = `http://127.0.0.1:${slow.port}`;
    const app = createApp(testConfig(forge.apiUrl, { ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: slowOrigin, FORGE_POOL_MAX_SIZE: '3' }), {
      logger: capture.logger,
      now: () => now,
    });
    const variants = [slowOrigin, `${slowOrigin}/x`, `${slowOrigin}/group/gitlab`];
    const sessions = await Promise.all(variants.map((url) => connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': url })));
    const pending = sessions.map((s) => s.call('get_branch', { project_id: '1', branch_name: 'main' }));
    await Bun.sleep(100);
    expect(app.pool.size).toBe(1);
    const other = await connect(app, { 'Private-Token': TOKENS.maintainer });
    expect(structured<{ name: string }>(await other.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' })).name).toBe('main');
    for (const call of pending) expect(structured<{ name: string }>(await call).name).toBe('main');
    const metrics = (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as { poolSize: number; rejectedByCapacity: number };
    expect(metrics).toMatchObject({ poolSize: 2, rejectedByCapacity: 0 });
    now += 300_001; // FORGE_POOL_IDLE_TIMEOUT's default, passed
    expect(app.pool.sweep()).toBe(2);
    const evicted = capture
      .entries()
      .filter((e) => e.event === 'pool_evicted')
      .map((e) => `${e.reason} ${e.origin}`);
    expect(evicted.sort()).toEqual([`idle ${new URL(forge.apiUrl).origin}`, `idle ${slowOrigin}`].sort());
    await Promise.all([...sessions, other].map((s) => s.close()));
    await app.close();
    slow.stop(true);
    await forge.stop();
  });
});

describe('through the server', () => {
  let one: FakeForge;
  let app: ForgeApp;
  let slow: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    one = await startFakeForge();
    slow = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>((r) => setTimeout(() => r(Response.json({ name: 'main' })), 400)) });
    app = createApp(testConfig(one.apiUrl, { ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: `http://127.0.0.1:${slow.port}`, FORGE_POOL_MAX_SIZE: '1' }));
  });
  afterAll(async () => {
    await app.close();
    await one.stop();
    slow.stop(true);
  });

  test('FORGE_POOL_MAX_SIZE=1: a new forge URL while the only client is busy → 503; evictions are counted', async () => {
    const busy = await connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': `http://127.0.0.1:${slow.port}` });
    const pending = busy.call('get_branch', { project_id: '1', branch_name: 'main' });
    await Bun.sleep(100);
    const refused = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Server capacity reached');
    structured(await pending);
    // Idle again: the default forge's client replaces it.
    const other = await connect(app, { 'Private-Token': TOKENS.maintainer });
    structured(await other.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' }));
    const metrics = (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as {
      poolSize: number;
      poolEvictions: number;
      rejectedByCapacity: number;
    };
    expect(metrics).toMatchObject({ poolSize: 1, poolEvictions: 1, rejectedByCapacity: 1 });
  });
});

describe('TLS and proxies', () => {
  let tls: SelfSigned;
  let https: ReturnType<typeof startHttpsForge>;
  beforeAll(() => {
    tls = makeSelfSignedCert();
    https = startHttpsForge(tls);
  });
  afterAll(() => https.stop());

  const get = (options: Parameters<typeof createEndpoint>[1], apiUrl = https.url) =>
    new ForgeClient(createEndpoint(apiUrl, options), { kind: 'private', token: TOKENS.maintainer }).json<{ name: string }>({
      method: 'GET',
      path: '/projects/1/repository/branches/main',
    });

  test('a self-signed forge is refused without its CA', async () => {
    const error = await get(OPTIONS).catch((e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).kind).toBe('upstream');
  });

  test('FORGE_CA_CERT_PATH makes it trusted (public roots stay trusted beside it)', async () => {
    expect((await get({ ...OPTIONS, caCert: tls.cert })).name).toBe('main');
  });

  test('RUNTIME_TLS_REJECT_UNAUTHORIZED=0 skips verification', async () => {
    expect((await get({ ...OPTIONS, rejectUnauthorized: false })).name).toBe('main');
  });

  test('HTTPS_PROXY carries https requests (CONNECT); NO_PROXY bypasses it', async () => {
    const proxy = await startForwardProxy();
    expect((await get({ ...OPTIONS, caCert: tls.cert, httpsProxy: proxy.url })).name).toBe('main');
    expect(proxy.seen).toEqual([`CONNECT localhost:${https.port}`]);
    await get({ ...OPTIONS, caCert: tls.cert, httpsProxy: proxy.url, noProxy: ['.localhost', 'localhost'] });
    expect(proxy.seen).toHaveLength(1);
    await proxy.stop();
  });

  test('HTTP_PROXY carries http requests, configured through the server settings', async () => {
    const forge = await startFakeForge();
    const proxy = await startForwardProxy();
    const app = createApp(testConfig(forge.apiUrl, { HTTP_PROXY: proxy.url }));
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    structured(await session.call('get_branch', { project_id: String(SEED.project), branch_name: 'main' }));
    // The proxy records the first request of each connection it carries: the credential check of
    // initialize (D7); get_branch followed on that same kept-alive connection through the proxy.
    expect(proxy.seen).toEqual([`GET ${forge.apiUrl}/user`]);
    expect(forge.requests.map((r) => r.path)).toEqual([
      '/api/v4/user',
      '/api/v4/personal_access_tokens/self',
      `/api/v4/projects/${SEED.project}/repository/branches/main`,
    ]);
    await session.close();
    await app.close();
    await proxy.stop();
    await forge.stop();
  });

  test('a server process reads FORGE_CA_CERT_PATH at start and calls the HTTPS forge', async () => {
    const { startServer } = await import('./support/process');
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: https.url, FORGE_CA_CERT_PATH: tls.certPath });
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
    expect(structured<{ name: string }>(await session.call('get_branch', { project_id: '1', branch_name: 'main' })).name).toBe('main');
    await session.close();
    expect(await server.stop()).toBe(0);
  }, 20_000);

  test('RUNTIME_TLS_REJECT_UNAUTHORIZED=0 is logged as a warning at start', async () => {
    const { startServer } = await import('./support/process');
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: https.url, RUNTIME_TLS_REJECT_UNAUTHORIZED: '0' });
    await server.stop();
    expect(server.stderr()).toContain('"level":"warn"');
    expect(server.stderr()).toContain('"event":"tls_verification_disabled"');
  }, 20_000);
});
