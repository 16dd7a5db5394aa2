// Three stateless replicas as real processes behind a round-robin proxy, sharing one real
// redis-server (D37): a proxy code redeemed on one replica is refused on the others, and so is a
// refresh token, once the grace period of a repeat is over (within it, every replica answers a
// repeat with the same pair, D23); a client over MAX_REQUESTS_PER_MINUTE across the three gets 429 (the limit is global);
// with the store killed, sign-ins answer 503, tool calls go on without limits and the log says so;
// with the store back, everything recovers without restarting a replica. /readyz follows each
// state while /healthz stays 200. Then an attack: the store holds no code or token in clear, and
// every key has a TTL.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { REFRESH_REUSE_GRACE_MS } from '../src/oauth/refresh-reuse';
import { SEED, startFakeForge, type FakeForge } from './support/fake-forge';
import { FORGE_APP_ID, SECRET, registerForgeApp } from './support/fake-oauth-harness';
import { codeGrant, redeem, refreshGrant, signIn, type OwnTokens } from './support/fake-oauth-steps';
import { startServer, type Started } from './support/process';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(60_000);
const LIMIT = 40;
let redis: RealRedis;
let forge: FakeForge;
let replicas: Started[] = [];
let proxy: ReturnType<typeof Bun.serve>;
let base = '';
/** Every code and token handed out, to look for in the store at the end. */
const secrets: string[] = [];

beforeAll(async () => {
  [redis, forge] = await Promise.all([startRedis(), startFakeForge()]);
  let next = 0;
  // The ingress: round-robin, and the one trusted proxy that writes X-Forwarded-For (MCP_TRUST_PROXY=true).
  proxy = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const target = replicas[next++ % replicas.length];
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', '10.0.0.1');
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      return fetch(`${target.url}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' });
    },
  });
  base = `http://127.0.0.1:${proxy.port}`;
  registerForgeApp(forge, base);
  const env = {
    FORGE_MCP_OAUTH: 'true',
    MCP_SERVER_URL: base,
    FORGE_OAUTH_CLIENT_ID: FORGE_APP_ID,
    OAUTH_STATELESS_MODE: 'true',
    OAUTH_STATELESS_SECRET: SECRET,
    FORGE_API_URL: forge.apiUrl,
    REDIS_URL: redis.url,
    REDIS_TIMEOUT_MS: '300',
    MAX_REQUESTS_PER_MINUTE: String(LIMIT),
    MCP_TRUST_PROXY: 'true',
  };
  replicas = await Promise.all([1, 2, 3].map(() => startServer(env)));
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  proxy?.stop(true);
  await Promise.all([redis?.stop(), forge?.stop()]);
});

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

/** A 2026-07-28 tools/call (no session) as client `ip`, with our own access token. */
let rpcId = 0;
function toolCall(accessToken: string, ip: string): Promise<Response> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  };
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
      'x-forwarded-for': ip,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_issue',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++rpcId,
      method: 'tools/call',
      params: { name: 'get_issue', arguments: { project_id: String(SEED.project), issue_iid: '1' }, _meta: meta },
    }),
  });
}

/** Signs in through the proxy and redeems the code on `replica`: our own token pair. */
async function tokensFrom(replica: Started): Promise<OwnTokens & { clientId: string }> {
  const s = await signIn(base);
  secrets.push(s.landing.code!);
  const response = await redeem(replica.url, codeGrant(s));
  if (response.status !== 200) throw new Error(`redeem failed: ${response.status} ${await response.text()}`);
  const tokens = (await response.json()) as OwnTokens;
  secrets.push(tokens.access_token, tokens.refresh_token!);
  return { ...tokens, clientId: s.clientId };
}

/** Waits for the start of a minute if this one ends too soon for a whole count (D10's windows are clock minutes). */
async function roomInThisMinute(needMs = 15_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await Bun.sleep(left + 50);
}

const readyz = async (r: Started) => {
  const response = await fetch(`${r.url}/readyz`);
  return { status: response.status, body: await json(response) };
};

async function eventually(what: string, check: () => Promise<boolean>, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await Bun.sleep(100);
  }
  throw new Error(`${what} did not happen`);
}

describe('three stateless replicas sharing one store', () => {
  test('/readyz: ready on every replica, naming the store', async () => {
    for (const r of replicas) expect(await readyz(r)).toEqual({ status: 200, body: { status: 'ready', store: 'redis' } });
  });

  test('a proxy code redeemed on one replica is refused on the others', async () => {
    const s = await signIn(base);
    secrets.push(s.landing.code!);
    expect((await redeem(replicas[0].url, codeGrant(s))).status).toBe(200);
    for (const other of [replicas[1], replicas[2], replicas[0]]) {
      const again = await redeem(other.url, codeGrant(s));
      expect(again.status).toBe(400);
      expect(await json(again)).toMatchObject({ error: 'invalid_grant', error_description: 'the authorization code was already used' });
    }
  });

  test('a refresh token used on one replica: a repeat within the grace period gets the same pair on the others (D23); another scope, or any repeat after it, is refused on every replica', async () => {
    const tokens = await tokensFrom(replicas[0]);
    const grant = refreshGrant(tokens.clientId, tokens.refresh_token!);
    const refreshed = await redeem(replicas[1].url, grant);
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as OwnTokens;
    secrets.push(next.access_token, next.refresh_token!);
    for (const other of [replicas[0], replicas[2]]) {
      const repeat = await redeem(other.url, grant);
      expect(repeat.status).toBe(200);
      expect(await json(repeat)).toMatchObject({ access_token: next.access_token, refresh_token: next.refresh_token });
      const narrower = await redeem(other.url, refreshGrant(tokens.clientId, tokens.refresh_token!, { scope: 'read_api' }));
      expect(narrower.status).toBe(400);
      expect(await json(narrower)).toMatchObject({ error: 'invalid_grant', error_description: 'the refresh token was already used' });
    }
    await Bun.sleep(REFRESH_REUSE_GRACE_MS + 250);
    for (const r of replicas) {
      const replay = await redeem(r.url, grant);
      expect(replay.status).toBe(400);
      expect(await json(replay)).toMatchObject({ error: 'invalid_grant', error_description: 'the refresh token was already used' });
    }
    // The rotated one still works, once.
    expect((await redeem(replicas[2].url, refreshGrant(tokens.clientId, next.refresh_token!))).status).toBe(200);
  });

  test('the same refresh token sent to two replicas at once: one forge refresh, the same pair for both (D23)', async () => {
    const tokens = await tokensFrom(replicas[0]);
    const grant = refreshGrant(tokens.clientId, tokens.refresh_token!);
    const refreshesBefore = forge.requests.filter((r) => r.path === '/oauth/token' && (r.body as Record<string, string>).grant_type === 'refresh_token').length;
    const answers = await Promise.all([redeem(replicas[1].url, grant), redeem(replicas[2].url, grant)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [a, b] = (await Promise.all(answers.map((r) => r.json()))) as OwnTokens[];
    secrets.push(a.access_token, a.refresh_token!);
    expect(b.access_token).toBe(a.access_token);
    expect(b.refresh_token).toBe(a.refresh_token);
    expect(forge.requests.filter((r) => r.path === '/oauth/token' && (r.body as Record<string, string>).grant_type === 'refresh_token').length).toBe(
      refreshesBefore + 1,
    );
  });

  test('MAX_REQUESTS_PER_MINUTE is global: over it across the three replicas → 429', async () => {
    const tokens = await tokensFrom(replicas[0]);
    await roomInThisMinute();
    const first = await toolCall(tokens.access_token, '198.51.100.7');
    const answer = (await first.json()) as { result: { isError?: boolean; structuredContent: { iid: number } } };
    expect(answer.result.isError).toBeUndefined();
    expect(answer.result.structuredContent.iid).toBe(1);
    const statuses: number[] = [first.status];
    for (let i = 1; i < LIMIT + 3; i++) statuses.push((await toolCall(tokens.access_token, '198.51.100.7')).status);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429]);
  });

  test('store killed: sign-ins answer 503, tool calls go on without limits, logged; store back: all recovers, no restart', async () => {
    const tokens = await tokensFrom(replicas[1]);
    await redis.kill();

    // Sign-ins fail closed: the code cannot be checked for single use.
    const s = await signIn(base);
    secrets.push(s.landing.code!);
    const refused = await redeem(replicas[2].url, codeGrant(s));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(await json(refused)).toMatchObject({ error: 'temporarily_unavailable' });
    const refreshRefused = await redeem(replicas[0].url, refreshGrant(tokens.clientId, tokens.refresh_token!));
    expect(refreshRefused.status).toBe(503);

    // Tool calls go on, with no limit applied (fail open).
    await roomInThisMinute();
    for (let i = 0; i < LIMIT + 5; i++) expect((await toolCall(tokens.access_token, '198.51.100.8')).status).toBe(200);

    // Liveness stays; readiness says the store is down; the log says so and what it means.
    for (const r of replicas) {
      expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
      const ready = await readyz(r);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'unavailable', store: 'redis' });
      expect(r.stderr()).toContain('"event":"store_unavailable"');
    }
    const metrics = await json(await fetch(`${replicas[0].url}/metrics.json`));
    expect((metrics.store as { up: number }).up).toBe(0);

    // The store returns (empty): every replica reconnects by itself.
    await redis.restart();
    for (const r of replicas) await eventually('readiness', async () => (await readyz(r)).status === 200);
    const again = await signIn(base);
    secrets.push(again.landing.code!);
    const redeemed = await redeem(replicas[2].url, codeGrant(again));
    expect(redeemed.status).toBe(200);
    const fresh = (await redeemed.json()) as OwnTokens;
    secrets.push(fresh.access_token, fresh.refresh_token!);
    expect((await redeem(replicas[0].url, codeGrant(again))).status).toBe(400);
    await roomInThisMinute();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await toolCall(fresh.access_token, '198.51.100.9')).status);
    expect(statuses.at(-1)).toBe(429);
    expect(replicas.some((r) => r.stderr().includes('"event":"store_available"'))).toBe(true);
  });

  test("an attack on the store's contents: no code or token in clear, a TTL on every key", async () => {
    const raw = await redis.client();
    // Some keys from after the restart, and fill it once more so every kind of key is there.
    const tokens = await tokensFrom(replicas[0]);
    const refreshed = await redeem(replicas[1].url, refreshGrant(tokens.clientId, tokens.refresh_token!));
    const next = (await refreshed.json()) as OwnTokens;
    secrets.push(next.access_token, next.refresh_token!);
    await toolCall(tokens.access_token, '198.51.100.10');
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [nextCursor, batch] = (await raw.send('SCAN', [cursor, 'COUNT', '1000'])) as [string, string[]];
      cursor = nextCursor;
      keys.push(...batch);
    } while (cursor !== '0');
    expect(keys.length).toBeGreaterThan(5);
    const kinds = new Set(keys.map((k) => k.split(':')[1]));
    expect(kinds.has('code')).toBe(true);
    expect(kinds.has('refresh')).toBe(true);
    // The pair of the refresh just made, sealed for its grace period (D23).
    expect(kinds.has('refresh-answer')).toBe(true);
    for (const key of keys) {
      expect(key.startsWith('forge-mcp:')).toBe(true);
      expect(Number(await raw.send('PTTL', [key]))).toBeGreaterThan(0);
      const value = String(await raw.send('GET', [key]));
      for (const secret of secrets) {
        // Not the value, nor any long piece of it (the sealed part after its v1.xx. prefix).
        const piece = secret.slice(6, 30);
        expect(key.includes(piece)).toBe(false);
        expect(value.includes(piece)).toBe(false);
      }
    }
  });
});
