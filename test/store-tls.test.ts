// REDIS_URL with rediss:// against a real redis-server speaking TLS (D37; docs/architecture.md,
// "shared state"): a throwaway CA and server certificate made with openssl in a temporary
// directory, the CA handed over the way an operator does (FORGE_CA_CERT_PATH, which also covers
// rediss://), and the store built by the product's own composition (loadConfig → storesFromConfig,
// createApp, and the real entry point as a process). It proves single use and a shared rate window
// over TLS, with keys in the URL's database under `forge-mcp:` and with a TTL, and /readyz ready.
// Then the attacks: no CA or the wrong CA (the certificate is not trusted), a wrong password, and
// rediss:// to a plain port or to a listener that never answers — each leaves the store
// unavailable (503 on /readyz, no crash), logged without the password, and settles within
// REDIS_TIMEOUT_MS instead of hanging (D37: every store call is bounded). Nothing is mocked.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisClient, type TCPSocketListener } from 'bun';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { FixedWindowLimiter } from '../src/web/rate-limit';
import { Metrics } from '../src/metrics/registry';
import { ReplayGuard } from '../src/oauth/replay-guard';
import { storesFromConfig, type Stores } from '../src/store/from-config';
import { KEY_PREFIX } from '../src/store/redis-store';
import { StoreUnavailableError, storeKey } from '../src/store/store';
import { capturingLogger } from './support/log-capture';
import { startServer, type Started } from './support/process';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(30_000);
const PASSWORD = 'tls-store-password-4f1c9a';
const WRONG_PASSWORD = 'wrong-tls-password-77e2b0';
const HTTP_REMOTE = { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: 'http://127.0.0.1:9/api/v4' };

let dir: string;
let caPath: string;
let caPem: string;
let otherCaPath: string;
let tlsPort: number;
let redisProc: ReturnType<typeof Bun.spawn> | undefined;
let plain: RealRedis | undefined;
let silent: TCPSocketListener | undefined;
const raws: RedisClient[] = [];
const stores: Stores[] = [];
const servers: Started[] = [];

function openssl(args: string[]): void {
  const run = Bun.spawnSync(['openssl', ...args], { cwd: dir, stdout: 'ignore', stderr: 'pipe' });
  if (run.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr.toString()}`);
}

/** A self-signed CA in `dir`: `<name>.crt` and `<name>.key`. */
function makeCa(name: string): void {
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '1',
    '-subj',
    `/CN=${name} (throwaway test CA)`,
  ]);
}

/** A port nothing listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = Number(probe.port);
  probe.stop(true);
  return port;
}

/** A client of our own (not the product's) for looking at what the server holds, over TLS. */
async function rawClient(): Promise<RedisClient> {
  const c = new RedisClient(`rediss://:${PASSWORD}@127.0.0.1:${tlsPort}`, {
    tls: { ca: [caPem] },
    autoReconnect: false,
    enableOfflineQueue: false,
    connectionTimeout: 1000,
  });
  await c.connect();
  raws.push(c);
  return c;
}

function config(env: Record<string, string>) {
  return loadConfig({ ...HTTP_REMOTE, LOG_LEVEL: 'debug', ...env });
}

/** The stores as the app builds them: the CA read from FORGE_CA_CERT_PATH (as src/index.ts does). */
function storesFor(env: Record<string, string>) {
  const c = config(env);
  const captured = capturingLogger();
  const s = storesFromConfig(c, {
    logger: captured.logger,
    metrics: new Metrics(),
    caCert: c.FORGE_CA_CERT_PATH ? readFileSync(c.FORGE_CA_CERT_PATH, 'utf8') : undefined,
    probeEveryMs: 0,
  });
  stores.push(s);
  return { stores: s, lines: captured.lines };
}

const tlsUrl = (password = PASSWORD, port = tlsPort) => `rediss://:${password}@127.0.0.1:${port}/2`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-mcp-redis-tls-'));
  makeCa('ca');
  makeCa('other-ca');
  openssl([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  ]);
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
  );
  openssl([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  ]);
  caPath = join(dir, 'ca.crt');
  otherCaPath = join(dir, 'other-ca.crt');
  caPem = readFileSync(caPath, 'utf8');

  // TLS only (--port 0), no client certificates, a password, no persistence.
  tlsPort = freePort();
  redisProc = Bun.spawn(
    [
      'redis-server',
      '--port',
      '0',
      '--tls-port',
      String(tlsPort),
      '--bind',
      '127.0.0.1',
      '--tls-cert-file',
      join(dir, 'server.crt'),
      '--tls-key-file',
      join(dir, 'server.key'),
      '--tls-ca-cert-file',
      caPath,
      '--tls-auth-clients',
      'no',
      '--requirepass',
      PASSWORD,
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' },
  );
  let up = false;
  for (let i = 0; i < 250 && !up; i++) {
    try {
      up = (await (await rawClient()).send('PING', [])) === 'PONG';
    } catch {
      await Bun.sleep(20); // not listening yet
    }
  }
  if (!up) throw new Error(`redis-server with TLS on ${tlsPort} did not start (built without TLS?)`);
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const s of stores) s.close();
  for (const c of raws) c.close();
  silent?.stop(true);
  await plain?.stop();
  redisProc?.kill();
  await redisProc?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe('rediss:// with FORGE_CA_CERT_PATH', () => {
  test('single use across two replicas: the second sees the code consumed; the entry is in database 2, namespaced, with a TTL', async () => {
    const { stores: s } = storesFor({ REDIS_URL: tlsUrl(), FORGE_CA_CERT_PATH: caPath });
    expect(s.kind).toBe('redis');
    const code = `v1.pc.tls-code-${crypto.randomUUID()}`;
    const expiresAt = Date.now() + 60_000;
    const replicaA = new ReplayGuard(Date.now, undefined, { store: s.open(10_000), use: 'code' });
    const replicaB = new ReplayGuard(Date.now, undefined, { store: s.open(10_000), use: 'code' });
    expect(await replicaA.reserve(code, expiresAt)).toBe('reserved');
    expect(await replicaB.reserve(code, expiresAt)).toBe('pending');
    await replicaA.consume(code);
    expect(await replicaB.reserve(code, expiresAt)).toBe('consumed');
    expect(await replicaA.reserve(code, expiresAt)).toBe('consumed');

    const raw = await rawClient();
    const key = `${KEY_PREFIX}${storeKey('code', code)}`;
    expect(await raw.send('EXISTS', [key])).toBe(0); // not in database 0
    await raw.send('SELECT', ['2']);
    expect(await raw.send('GET', [key])).toBe('consumed');
    expect(Number(await raw.send('PTTL', [key]))).toBeGreaterThan(0);
    const keys = (await raw.send('KEYS', [`${KEY_PREFIX}code:*`])) as string[];
    expect(keys).toContain(key);
    expect(keys.join(' ')).not.toContain('tls-code');
  });

  test('a rate window counts across two replicas: the limit is global; the counter lives in database 2 with a TTL', async () => {
    const { stores: s } = storesFor({ REDIS_URL: tlsUrl(), FORGE_CA_CERT_PATH: caPath });
    const at = Date.now(); // one instant for both replicas: the same window
    const scope = `tls-${crypto.randomUUID()}`;
    const replicaA = new FixedWindowLimiter(3, () => at, 60_000, 1000, { store: s.open(100_000), scope });
    const replicaB = new FixedWindowLimiter(3, () => at, 60_000, 1000, { store: s.open(100_000), scope });
    expect((await replicaA.hit('client-ip')).allowed).toBe(true);
    expect((await replicaB.hit('client-ip')).allowed).toBe(true);
    expect((await replicaA.hit('client-ip')).allowed).toBe(true);
    expect((await replicaB.hit('client-ip')).allowed).toBe(false);

    const raw = await rawClient();
    await raw.send('SELECT', ['2']);
    const [key] = (await raw.send('KEYS', [`${KEY_PREFIX}${scope}:*`])) as string[];
    expect(key).toBe(`${KEY_PREFIX}${storeKey(`${scope}:${Math.floor(at / 60_000)}`, 'client-ip')}`);
    expect(await raw.send('GET', [key])).toBe('3');
    expect(Number(await raw.send('PTTL', [key]))).toBeGreaterThan(0);
  });

  test('createApp: /readyz is ready with the store', async () => {
    const c = config({ REDIS_URL: tlsUrl(), FORGE_CA_CERT_PATH: caPath, LOG_LEVEL: 'error' });
    const app = createApp(c, { caCert: readFileSync(caPath, 'utf8') });
    try {
      const ready = await app.handle(new Request('http://127.0.0.1/readyz'));
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', store: 'redis' });
    } finally {
      await app.close();
    }
  });

  test('the server process: the entry point reads the CA file; ready, logged without the password', async () => {
    const server = await startServer({ ...HTTP_REMOTE, REDIS_URL: tlsUrl(), FORGE_CA_CERT_PATH: caPath });
    servers.push(server);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', store: 'redis' });
    expect(server.stderr()).toContain(`"event":"store_configured","store":"redis","url":"rediss://127.0.0.1:${tlsPort}/2"`);
    expect(server.stderr()).not.toContain(PASSWORD);
  });
});

describe('rediss:// attacks: unavailable, bounded, no secret shown', () => {
  async function expectUnavailable(env: Record<string, string>, secret: string) {
    const { stores: s, lines } = storesFor({ REDIS_TIMEOUT_MS: '300', ...env });
    const error = await s
      .open(10)
      .setIfAbsent('k', 'v', 60_000)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).not.toContain(secret);
    const readiness = await s.readiness();
    expect(readiness.ready).toBe(false);
    expect(JSON.stringify(readiness)).not.toContain(secret);
    expect(lines.some((l) => l.includes('"event":"store_unavailable"'))).toBe(true);
    expect(lines.join('\n')).not.toContain(secret);
    return (error as StoreUnavailableError).reason;
  }

  test('no CA configured: the self-signed server certificate is not trusted, nothing is written', async () => {
    await expectUnavailable({ REDIS_URL: tlsUrl() }, PASSWORD);
    const raw = await rawClient();
    await raw.send('SELECT', ['2']);
    expect(await raw.send('EXISTS', [`${KEY_PREFIX}k`])).toBe(0);
  });

  test('another CA configured: still not trusted', async () => {
    await expectUnavailable({ REDIS_URL: tlsUrl(), FORGE_CA_CERT_PATH: otherCaPath }, PASSWORD);
  });

  test('the right CA with a wrong password: refused, the password never repeated', async () => {
    await expectUnavailable({ REDIS_URL: tlsUrl(WRONG_PASSWORD), FORGE_CA_CERT_PATH: caPath }, WRONG_PASSWORD);
  });

  test('rediss:// to a plain (non-TLS) redis-server: fails cleanly', async () => {
    plain = await startRedis({ password: PASSWORD });
    await expectUnavailable({ REDIS_URL: tlsUrl(PASSWORD, plain.port), FORGE_CA_CERT_PATH: caPath }, PASSWORD);
  });

  test('rediss:// to a listener that never answers the handshake: the call ends with "timeout"', async () => {
    const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    silent = listener;
    const reason = await expectUnavailable({ REDIS_URL: tlsUrl(PASSWORD, listener.port), FORGE_CA_CERT_PATH: caPath }, PASSWORD);
    expect(reason).toBe('timeout');
  });

  test('the server process without the CA: starts, /healthz 200, /readyz 503, logged without the password', async () => {
    const server = await startServer({ ...HTTP_REMOTE, REDIS_URL: tlsUrl(), REDIS_TIMEOUT_MS: '300' });
    servers.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', store: 'redis' });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200); // still running after the failure
    // The log line travels through a pipe: wait for it rather than race the response.
    for (let i = 0; i < 200 && !server.stderr().includes('"event":"store_unavailable"'); i++) await Bun.sleep(20);
    expect(server.stderr()).toContain('"event":"store_unavailable"');
    expect(server.stderr()).not.toContain(PASSWORD);
  });
});
