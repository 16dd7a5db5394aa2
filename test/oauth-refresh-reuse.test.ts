// The reuse interval of refresh-token rotation (D23). An MCP client whose access token ran out
// meets 401 on its POST /mcp and on its notification stream (GET /mcp) at once, and refreshes
// twice with the same refresh token. The second refresh gets the answer of the first: while the
// first is in flight it waits for it (the same pair, or the same refusal), and within
// REFRESH_REUSE_GRACE_MS after it succeeded it gets the same pair again; only for the same client,
// scope and resource. After the grace period a reused refresh token is refused as before, and the
// grace never outlives the token nor widens its scope. With a shared store (REDIS_URL, D37) a repeat
// on another replica is answered too, from an answer the store keeps sealed. No token is logged.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult } from '@modelcontextprotocol/client';
import { REFRESH_REUSE_GRACE_MS, RefreshReuse, type Answered } from '../src/oauth/refresh-reuse';
import { Sealer } from '../src/sealing/sealer';
import { MemoryStore } from '../src/store/memory-store';
import { storeKey } from '../src/store/store';
import { SEED, startFakeForge, type FakeForge } from './support/fake-forge';
import { startForgeGate, type ForgeGate } from './support/forge-gate';
import { TestOAuthProvider } from './support/fake-oauth-client';
import { serveOAuth, resetForge, type ServedOAuth, type ServeOptions } from './support/fake-oauth-harness';
import { expectError, type OwnTokens, ownTokens, redeem, refreshGrant, registerClient, type TokenBody } from './support/fake-oauth-steps';
import { capturingLogger } from './support/log-capture';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(20_000);
let forge: FakeForge;
let gate: ForgeGate;
let redis: RealRedis;
let stateful: ServedOAuth;
let stateless: ServedOAuth;
let shared: ServedOAuth;
const extra: ServedOAuth[] = [];
let clock = 0;
const now = () => Date.now() + clock;
const log = capturingLogger();
/** Every token and code seen in this file: none may appear in a log line (checked last). */
const secrets = new Set<string>();

const HOUR = 3_600_000;

/** OAuth mode against the forge through the gate, logging into `log`. */
async function serve(options: ServeOptions = {}): Promise<ServedOAuth> {
  // Sessions outlive the hour of an access token, so the legacy session is still there when it runs out.
  return serveOAuth(forge, { now, logger: log.logger, apiUrl: gate.apiUrl, ...options, env: { SESSION_TIMEOUT_SECONDS: '7200', ...options.env } });
}

beforeAll(async () => {
  [forge, redis] = await Promise.all([startFakeForge(), startRedis()]);
  gate = startForgeGate(forge);
  stateful = await serve();
  stateless = await serve({ replicas: 2, env: { OAUTH_STATELESS_MODE: 'true' } });
  shared = await serve({ replicas: 2, env: { OAUTH_STATELESS_MODE: 'true', REDIS_URL: redis.url } });
});
beforeEach(() => {
  clock = 0;
  resetForge(forge, stateful, stateless, shared, ...extra);
  stateless.route = () => 0;
  shared.route = (request) => Number(request.headers.get('x-replica') ?? 0);
});
afterEach(() => {
  for (const r of forge.requests)
    for (const v of Object.values((r.body as Record<string, unknown>) ?? {})) if (typeof v === 'string' && v.length >= 20) secrets.add(v);
});
afterAll(async () => {
  await Promise.all([stateful, stateless, shared, ...extra].map((s) => s?.stop()));
  await gate?.stop();
  await Promise.all([forge?.stop(), redis?.stop()]);
});

/**
 * Two refreshes with one grant, the second sent while the forge holds the first's exchange (to the
 * replicas named, for a store-sharing deployment): both answers, once the forge has answered.
 */
async function secondWhileFirstInFlight(
  at: ServedOAuth,
  grant: Record<string, string>,
  replicas: [number, number] | [] = [],
  pauseMs = 50,
): Promise<[Response, Response]> {
  const held = gate.holdNextRefresh();
  const a = token(at, grant, replicas[0]);
  await held.arrived;
  const b = token(at, grant, replicas[1]);
  await Bun.sleep(pauseMs);
  held.release();
  return [await a, await b];
}

function keep<T extends Partial<TokenBody>>(body: T): T {
  for (const v of [body.access_token, body.refresh_token]) if (v) secrets.add(v);
  return body;
}

async function signedIn(served: ServedOAuth, options: { scope?: string } = {}): Promise<OwnTokens & { clientId: string }> {
  return keep(await ownTokens(served.url, options));
}

/** POST /token, to replica `replica` of a store-sharing deployment when given. */
function token(served: ServedOAuth, params: Record<string, string>, replica?: number): Promise<Response> {
  if (replica === undefined) return redeem(served.url, params);
  return fetch(`${served.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-replica': String(replica) },
    body: new URLSearchParams(params).toString(),
  });
}

async function pair(response: Response): Promise<TokenBody> {
  expect(response.status).toBe(200);
  return keep((await response.json()) as TokenBody);
}

const forgeRefreshes = () =>
  forge.requests.filter((r) => r.path === '/oauth/token' && (r.body as Record<string, string>).grant_type === 'refresh_token').length;
const events = (name: string) => log.entries().filter((e) => e.event === name);

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await Bun.sleep(10);
  }
  throw new Error(`${what} did not happen`);
}

describe('the SDK client (v2, legacy lane) whose access token ran out', () => {
  const getMain = { name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } };

  /**
   * The SDK's own transport and OAuth flow, its fetch going straight into the app (Bun.serve sends
   * a stream's headers only with its first event, and the notification stream has none yet). The
   * test can cut the notification stream (as a network would) and decides when the SDK reconnects
   * it; every /token answer is kept.
   */
  function sdk(served: ServedOAuth, provider: TestOAuthProvider) {
    const streams: (() => void)[] = [];
    const tokenAnswers: { status: number; body: Partial<TokenBody> & { error?: string; error_description?: string } }[] = [];
    let tokenRequests = 0;
    /** "METHOD /path status" of every answer, in order. */
    const answered: string[] = [];
    const scheduled: (() => void)[] = [];
    const fetchInApp = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request ? new Request(input, init) : new Request(String(input), init);
      const path = new URL(request.url).pathname;
      if (path === '/token') tokenRequests++;
      const response = await served.apps[0].handle(request, '127.0.0.1');
      answered.push(`${request.method} ${path} ${response.status}`);
      if (path === '/token') {
        const body = (await response.clone().json()) as Partial<TokenBody>;
        tokenAnswers.push({ status: response.status, body: keep(body) });
      }
      if (request.method === 'GET' && path === '/mcp' && response.ok && response.body) {
        // The notification stream, through a pipe the test can cut.
        const upstream = response.body.getReader();
        let cut = () => {};
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            cut = () => {
              upstream.cancel().catch(() => {});
              controller.close();
            };
            void (async () => {
              for (;;) {
                const { done, value } = await upstream.read().catch(() => ({ done: true, value: undefined }));
                if (done) return;
                controller.enqueue(value);
              }
            })();
          },
        });
        streams.push(() => cut());
        return new Response(body, { status: response.status, headers: response.headers });
      }
      return response;
    };
    const transport = () =>
      new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), {
        authProvider: provider,
        fetch: fetchInApp,
        reconnectionScheduler: (reconnect) => {
          scheduled.push(reconnect);
        },
      });
    return {
      streams,
      answered,
      tokenAnswers,
      tokenRequests: () => tokenRequests,
      scheduled,
      /** The SDK's sign-in: connect → 401 → the browser part → finishAuth; then a connected client. */
      async signIn() {
        await expect(new Client({ name: 'reuse', version: '1' }).connect(transport())).rejects.toThrow(UnauthorizedError);
        const landing = await provider.completeSignIn();
        const first = transport();
        await first.finishAuth(landing.url.searchParams);
        const client = new Client({ name: 'reuse', version: '1' });
        await client.connect(transport());
        keep(provider.tokens()!);
        return client;
      },
    };
  }

  test('stateful, its notification stream open: the stream and a tool call meet the expired token together, both refresh with the same token, both get the same pair; no new sign-in', async () => {
    const provider = new TestOAuthProvider();
    const s = sdk(stateful, provider);
    const client = await s.signIn();
    await until('the notification stream', () => s.streams.length === 1);
    const signInUrl = provider.authorizationUrl;
    const clientId = provider.clientInformation()!.client_id;
    const before = provider.tokens()!;
    const answersBefore = s.tokenAnswers.length;

    // An hour on, the access token has run out; the stream drops and the SDK reconnects it just as
    // a tool call goes out. The forge holds its answer to the first refresh until both are sent.
    clock = HOUR + 60_000;
    const held = gate.holdNextRefresh();
    s.streams[0]();
    await until('the SDK to schedule a reconnection', () => s.scheduled.length === 1);
    const call = client.callTool(getMain) as Promise<CallToolResult>;
    s.scheduled[0]();
    await held.arrived;
    await until('the second refresh', () => s.tokenRequests() === answersBefore + 2);
    await Bun.sleep(20);
    held.release();

    const result = await call;
    expect(result.isError).toBeUndefined();
    expect((result.structuredContent as { name: string }).name).toBe('main');
    await until('the stream to reopen', () => s.streams.length === 2);

    const refreshes = s.tokenAnswers.slice(answersBefore);
    expect(refreshes.map((a) => a.status)).toEqual([200, 200]);
    expect(refreshes[1].body.access_token).toBe(refreshes[0].body.access_token!);
    expect(refreshes[1].body.refresh_token).toBe(refreshes[0].body.refresh_token!);
    expect(refreshes[0].body.refresh_token).not.toBe(before.refresh_token);
    expect(provider.tokens()!.refresh_token).toBe(refreshes[0].body.refresh_token!);
    expect(forgeRefreshes()).toBe(1);
    // No new registration, no new sign-in.
    expect(provider.clientInformation()!.client_id).toBe(clientId);
    expect(provider.authorizationUrl).toBe(signInUrl);
    expect(events('oauth_refresh_repeated').at(-1)).toMatchObject({ within: 'exchange' });
    await client.close();
  });

  test('stateless: two tool calls meet the expired token together, both refresh with the same token, both get the same pair; no new sign-in', async () => {
    const provider = new TestOAuthProvider();
    const s = sdk(stateless, provider);
    const client = await s.signIn();
    // The SDK opens the notification stream after connecting; stateless mode has none (405).
    await until('the notification stream refused', () => s.answered.includes('GET /mcp 405'));
    const signInUrl = provider.authorizationUrl;
    const answersBefore = s.tokenAnswers.length;
    clock = HOUR + 60_000;
    const held = gate.holdNextRefresh();
    const calls = [client.callTool(getMain), client.callTool(getMain)] as Promise<CallToolResult>[];
    await held.arrived;
    await until('the second refresh', () => s.tokenRequests() === answersBefore + 2);
    await Bun.sleep(20);
    held.release();
    for (const result of await Promise.all(calls)) expect((result.structuredContent as { name: string }).name).toBe('main');
    const refreshes = s.tokenAnswers.slice(answersBefore);
    expect(refreshes.map((a) => a.status)).toEqual([200, 200]);
    expect(refreshes[1].body).toEqual(refreshes[0].body);
    expect(forgeRefreshes()).toBe(1);
    expect(provider.authorizationUrl).toBe(signInUrl);
    await client.close();
  });
});

describe.each(['stateful', 'stateless'])('%s: the same refresh token sent twice', (mode) => {
  const served = () => (mode === 'stateful' ? stateful : stateless);

  test('at once: both get the same pair, from one forge refresh', async () => {
    const first = await signedIn(served());
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const [a, b] = await Promise.all([token(served(), grant), token(served(), grant)]);
    const [one, two] = [await pair(a), await pair(b)];
    expect(two.access_token).toBe(one.access_token);
    expect(two.refresh_token).toBe(one.refresh_token);
    expect(one.refresh_token).not.toBe(first.refresh_token);
    expect(forgeRefreshes()).toBe(1);
  });

  test('while the first is in flight: the repeat waits for it and gets the same pair; the new refresh token works, once', async () => {
    const first = await signedIn(served());
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const [a, b] = await secondWhileFirstInFlight(served(), grant);
    const [one, two] = [await pair(a), await pair(b)];
    expect(two).toEqual(one);
    expect(forgeRefreshes()).toBe(1);
    await pair(await token(served(), refreshGrant(first.clientId, one.refresh_token)));
    clock += REFRESH_REUSE_GRACE_MS + 1;
    await expectError(await token(served(), refreshGrant(first.clientId, one.refresh_token)), 400, 'invalid_grant', 'already used');
  });

  test('while the first is in flight and the forge refuses it: the repeat gets the same refusal', async () => {
    const first = await signedIn(served());
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    forge.failNext({
      pathIncludes: '/oauth/token',
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' },
    });
    const [a, b] = await secondWhileFirstInFlight(served(), grant);
    const [one, two] = [a, b];
    expect([one.status, two.status]).toEqual([400, 400]);
    const body = await one.json();
    expect(await two.json()).toEqual(body);
    expect(body).toMatchObject({ error: 'invalid_grant' });
    expect(forgeRefreshes()).toBe(1);
  });

  test('while the first is in flight and the forge cannot answer: the repeat gets the same 502, and the token works afterwards', async () => {
    const first = await signedIn(served());
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    forge.failNext({ pathIncludes: '/oauth/token', status: 503 });
    const [a, b] = await secondWhileFirstInFlight(served(), grant);
    await expectError(a, 502, 'temporarily_unavailable');
    await expectError(b, 502, 'temporarily_unavailable');
    await pair(await token(served(), grant));
  });

  test('while the first is in flight, a repeat with another scope or resource, or from another client: invalid_grant at once; the first gets its pair', async () => {
    const first = await signedIn(served());
    const other = await registerClient(served().url);
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const held = gate.holdNextRefresh();
    const a = token(served(), grant);
    await held.arrived;
    await expectError(await token(served(), { ...grant, scope: 'read_api' }), 400, 'invalid_grant', 'being used by another request');
    await expectError(await token(served(), { ...grant, resource: `${served().url}/mcp` }), 400, 'invalid_grant', 'being used by another request');
    await expectError(await token(served(), { ...grant, client_id: other }), 400, 'invalid_grant', 'issued to another client');
    held.release();
    await pair(await a);
    expect(forgeRefreshes()).toBe(1);
  });

  test('within the grace period: the same pair again, its expires_in counting down; after it, invalid_grant and nothing sent to the forge', async () => {
    const first = await signedIn(served());
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const one = await pair(await token(served(), grant));
    clock += 4_000;
    const two = await pair(await token(served(), grant));
    expect(two).toEqual({ ...one, expires_in: one.expires_in - 4 });
    // Just before its end (the clock also runs on by itself), then just after.
    clock += REFRESH_REUSE_GRACE_MS - 4_000 - 500;
    expect((await pair(await token(served(), grant))).refresh_token).toBe(one.refresh_token);
    expect(forgeRefreshes()).toBe(1);
    clock += 501;
    forge.requests.length = 0;
    await expectError(await token(served(), grant), 400, 'invalid_grant', 'already used');
    await expectError(await token(served(), grant), 400, 'invalid_grant', 'already used');
    expect(forge.requests).toEqual([]);
  });

  test('within the grace period, a repeat with another scope or resource, or from another client: invalid_grant; the same request still gets the pair', async () => {
    const first = await signedIn(served());
    const other = await registerClient(served().url);
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const one = await pair(await token(served(), grant));
    await expectError(await token(served(), { ...grant, scope: 'read_api' }), 400, 'invalid_grant', 'already used');
    await expectError(await token(served(), { ...grant, scope: 'api' }), 400, 'invalid_grant', 'already used');
    await expectError(await token(served(), { ...grant, resource: `${served().url}/mcp` }), 400, 'invalid_grant', 'already used');
    await expectError(await token(served(), { ...grant, client_id: other }), 400, 'invalid_grant', 'issued to another client');
    expect((await pair(await token(served(), grant))).access_token).toBe(one.access_token);
    expect(forgeRefreshes()).toBe(1);
  });

  test('the grace never widens the scope: a read_api refresh repeated without scope, or for api, is refused', async () => {
    const first = await signedIn(served());
    const grant = refreshGrant(first.clientId, first.refresh_token!, { scope: 'read_api' });
    const narrowed = await pair(await token(served(), grant));
    expect(narrowed.scope).toBe('read_api');
    await expectError(await token(served(), refreshGrant(first.clientId, first.refresh_token!)), 400, 'invalid_grant', 'already used');
    await expectError(await token(served(), { ...grant, scope: 'api' }), 400, 'invalid_grant', 'already used');
    expect((await pair(await token(served(), grant))).scope).toBe('read_api');
  });

  test('the grace never outlives the refresh token: a repeat after the token expired is refused', async () => {
    const short = await serve({ env: { OAUTH_REFRESH_TOKEN_TTL_SECONDS: '60', ...(mode === 'stateless' ? { OAUTH_STATELESS_MODE: 'true' } : {}) } });
    extra.push(short);
    resetForge(forge, short);
    const first = await signedIn(short);
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    clock = 55_000;
    await pair(await token(short, grant));
    clock = 61_000; // within the grace period of the refresh, past the token's own 60 s
    await expectError(await token(short, grant), 400, 'invalid_grant', 'expired');
  });
});

describe('replicas sharing a store (REDIS_URL, D37)', () => {
  test('a repeat on the other replica within the grace period gets the same pair; another scope or client is refused; after it, both replicas refuse', async () => {
    const first = await signedIn(shared);
    const other = await registerClient(shared.url);
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const one = await pair(await token(shared, grant, 0));
    clock += 3_000;
    expect(await pair(await token(shared, grant, 1))).toEqual({ ...one, expires_in: one.expires_in - 3 });
    await expectError(await token(shared, { ...grant, scope: 'read_api' }, 1), 400, 'invalid_grant', 'already used');
    await expectError(await token(shared, { ...grant, client_id: other }, 1), 400, 'invalid_grant', 'issued to another client');
    expect(forgeRefreshes()).toBe(1);
    clock += REFRESH_REUSE_GRACE_MS;
    for (const replica of [0, 1]) await expectError(await token(shared, grant, replica), 400, 'invalid_grant', 'already used');
  });

  test('the same token at both replicas, the first held at the forge: the other replica waits for its answer and gets the same pair', async () => {
    const first = await signedIn(shared);
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    const [a, b] = await secondWhileFirstInFlight(shared, grant, [0, 1], 100);
    const [one, two] = [await pair(a), await pair(b)];
    expect(two).toEqual(one);
    expect(forgeRefreshes()).toBe(1);
    expect(events('oauth_refresh_repeated').at(-1)).toMatchObject({ within: 'exchange' });
  });

  test("while one replica exchanges it and the forge refuses: the other replica's repeat is refused too", async () => {
    const first = await signedIn(shared);
    const grant = refreshGrant(first.clientId, first.refresh_token!);
    forge.failNext({ pathIncludes: '/oauth/token', status: 400, body: { error: 'invalid_grant', error_description: 'revoked' } });
    const [a, b] = await secondWhileFirstInFlight(shared, grant, [0, 1], 100);
    await expectError(a, 400, 'invalid_grant', 'the forge refused the refresh');
    await expectError(b, 400, 'invalid_grant', 'already used');
  });

  test("the store keeps the answer sealed under the token's hash, for the grace period only", async () => {
    const first = await signedIn(shared);
    const one = await pair(await token(shared, refreshGrant(first.clientId, first.refresh_token!), 0));
    const raw = await redis.client();
    const key = `forge-mcp:${storeKey('refresh-answer', first.refresh_token!)}`;
    const ttl = Number(await raw.send('PTTL', [key]));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(REFRESH_REUSE_GRACE_MS);
    const value = String(await raw.send('GET', [key]));
    expect(value).toStartWith('v1.ra.');
    for (const t of [first.refresh_token!, one.access_token, one.refresh_token]) expect(value).not.toContain(t.slice(6, 30));
    const keys = (await raw.send('KEYS', ['forge-mcp:refresh-answer:*'])) as string[];
    for (const k of keys) for (const t of [...secrets]) expect(k).not.toContain(t.slice(6, 30));
  });
});

describe('what is remembered', () => {
  const sealer = Sealer.create({ secret: Buffer.alloc(32, 4).toString('base64url'), ttlSeconds: { cid: 1, ps: 1, pc: 1, sid: 1, dl: 1 } });
  const answer = (n: number, issuedAt: number): Answered => ({
    request: { clientId: `client-${n}`, scope: undefined, resources: [] },
    body: {
      access_token: `v1.at.access-token-${n}-${'x'.repeat(40)}`,
      refresh_token: `v1.rt.refresh-token-${n}-${'y'.repeat(40)}`,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'api',
    },
    issuedAt,
  });

  test('is bounded: when full, the oldest answer goes first, and a repeat of it is then refused as used', async () => {
    let t = 1_000_000;
    const reuse = new RefreshReuse<unknown>(sealer, () => t, { maxAnswers: 2 });
    const keys = ['rt-1', 'rt-2', 'rt-3'].map((v) => reuse.keyOf(v));
    for (let i = 0; i < 3; i++) await reuse.remember(keys[i], answer(i, t), t + HOUR);
    expect(await reuse.recall(keys[0])).toBeUndefined();
    expect((await reuse.recall(keys[1]))?.request.clientId).toBe('client-1');
    expect((await reuse.recall(keys[2]))?.body).toEqual(answer(2, t).body);
    t += REFRESH_REUSE_GRACE_MS;
    expect(await reuse.recall(keys[2])).toBeUndefined();
  });

  test("is sealed and keyed by the token's hash: the store holds no token, and an answer moved to another key does not open there", async () => {
    const t = 1_000_000;
    const store = new MemoryStore({ maxEntries: 10, now: () => t });
    const reuse = new RefreshReuse<unknown>(sealer, () => t, { store });
    const refreshToken = `v1.rt.${'z'.repeat(60)}`;
    const key = reuse.keyOf(refreshToken);
    expect(key).not.toContain('zzzz');
    await reuse.remember(key, answer(1, t), t + HOUR);
    const [stored] = store.keys();
    expect(stored).toBe(key);
    const sealed = (await store.get(key))!;
    expect(sealed).toStartWith('v1.ra.');
    expect(sealed).not.toContain('access-token');
    expect(sealed).not.toContain('refresh-token');
    const elsewhere = reuse.keyOf('another refresh token');
    await store.set(elsewhere, sealed, 5_000);
    expect(await reuse.recall(elsewhere)).toBeUndefined();
    expect(await reuse.recall(key)).toEqual(answer(1, t));
  });

  test('lives no longer than the refresh token it answers', async () => {
    let t = 1_000_000;
    const reuse = new RefreshReuse<unknown>(sealer, () => t);
    const key = reuse.keyOf('rt');
    await reuse.remember(key, answer(1, t), t + 3_000);
    t += 2_999;
    expect(await reuse.recall(key)).toBeDefined();
    t += 1;
    expect(await reuse.recall(key)).toBeUndefined();
  });
});

// Last: everything this file did, logged into one logger.
test('no token value in any log line', () => {
  expect(events('oauth_refresh_repeated').length).toBeGreaterThan(5);
  expect(events('oauth_refresh_replayed').length).toBeGreaterThan(5);
  expect(secrets.size).toBeGreaterThan(20);
  const text = log.lines.join('\n');
  for (const secret of secrets) expect(text).not.toContain(secret);
  // Nor the hash a remembered answer is kept under.
  for (const secret of secrets) if (secret.startsWith('v1.rt.')) expect(text).not.toContain(storeKey('refresh-answer', secret).split(':')[1]);
});
