// POST /token (D22, D23; docs/spec.md stateless rule 5): proxy codes are redeemed once per
// replica by their client with the right verifier, a failed check releases the code for a retry,
// refresh goes to the forge, and the tokens are the forge's own.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { silentLogger } from '../src/logging/logger';
import { MemoryClients } from '../src/oauth/clients';
import { ReplayGuard } from '../src/oauth/replay-guard';
import { tokenHandler } from '../src/oauth/token';
import { MemoryVault } from '../src/oauth/vault';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { ACCESS_TOKEN_LIFETIME } from './support/fake-oauth';
import { FORGE_APP_ID, serveOAuth, type ServedOAuth, resetForge, stopAll } from './support/fake-oauth-harness';
import { REDIRECT, codeGrant, pkce, redeem, registerClient, signIn } from './support/fake-oauth-steps';

let forge: FakeForge;
let served: ServedOAuth;
let replicas: ServedOAuth;
let clock = 0;
const now = () => Date.now() + clock;

beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge, { now });
  replicas = await serveOAuth(forge, { replicas: 2, now, env: { OAUTH_STATELESS_MODE: 'true' } });
});
beforeEach(() => {
  clock = 0;
  resetForge(forge, served, replicas);
  replicas.route = () => 0;
});
afterAll(() => stopAll(forge, served, replicas));

interface TokenBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}
interface ErrorBody {
  error: string;
  error_description: string;
}

async function expectError(response: Response, status: number, error: string, description?: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as ErrorBody;
  expect(body.error).toBe(error);
  if (description) expect(body.error_description).toContain(description);
}

describe('authorization_code', () => {
  test('hands out the forge\'s own tokens (form-encoded request)', async () => {
    const s = await signIn(served.url);
    const response = await redeem(served.url, codeGrant(s));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = (await response.json()) as TokenBody;
    expect(forge.oauth.accessTokens).toEqual([tokens.access_token]);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'api', expires_in: ACCESS_TOKEN_LIFETIME });
    expect(tokens.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    // The forge accepts it as the signed-in user.
    const me = await fetch(`${forge.apiUrl}/user`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(((await me.json()) as { username: string }).username).toBe('maria');
  });

  test('accepts a JSON request too', async () => {
    const s = await signIn(served.url);
    expect((await redeem(served.url, codeGrant(s), true)).status).toBe(200);
  });

  test('a replayed code is refused', async () => {
    const s = await signIn(served.url);
    expect((await redeem(served.url, codeGrant(s))).status).toBe(200);
    // In memory the redeemed code is forgotten at once; sealed codes are refused as used (below).
    await expectError(await redeem(served.url, codeGrant(s)), 400, 'invalid_grant');
  });

  test('a wrong verifier is refused, and the right one then still works', async () => {
    const s = await signIn(served.url);
    await expectError(await redeem(served.url, codeGrant(s, { code_verifier: pkce().verifier })), 400, 'invalid_grant', 'code_verifier does not match');
    await expectError(await redeem(served.url, codeGrant(s, { code_verifier: 'not-a-verifier' })), 400, 'invalid_grant', 'code_verifier does not match');
    expect((await redeem(served.url, codeGrant(s))).status).toBe(200);
  });

  test('another registered client cannot redeem the code; the rightful one then can', async () => {
    const s = await signIn(served.url);
    const other = await registerClient(served.url);
    await expectError(await redeem(served.url, codeGrant(s, { client_id: other })), 400, 'invalid_grant', 'issued to another client');
    expect((await redeem(served.url, codeGrant(s))).status).toBe(200);
  });

  test('redirect_uri must repeat the one of the authorization request', async () => {
    const s = await signIn(served.url);
    await expectError(await redeem(served.url, codeGrant(s, { redirect_uri: 'http://127.0.0.1:1/other' })), 400, 'invalid_grant', 'redirect_uri does not match');
    const { redirect_uri: _, ...without } = codeGrant(s);
    await expectError(await redeem(served.url, without), 400, 'invalid_grant', 'redirect_uri does not match');
    expect((await redeem(served.url, codeGrant(s))).status).toBe(200);
  });

  test('a code older than 120 s has expired', async () => {
    const s = await signIn(served.url);
    clock = 121_000;
    await expectError(await redeem(served.url, codeGrant(s)), 400, 'invalid_grant', 'invalid or expired');
  });

  test('expires_in counts down from the forge\'s answer while the code waited', async () => {
    const s = await signIn(served.url);
    clock = 60_000;
    const tokens = (await (await redeem(served.url, codeGrant(s))).json()) as TokenBody;
    expect(tokens.expires_in).toBeLessThanOrEqual(ACCESS_TOKEN_LIFETIME - 59);
    expect(tokens.expires_in).toBeGreaterThan(ACCESS_TOKEN_LIFETIME - 65);
  });

  test('stateless: a v1.pc. code from one replica is redeemed on another, once there', async () => {
    const s = await signIn(replicas.url);
    replicas.route = () => 1;
    expect((await redeem(replicas.url, codeGrant(s))).status).toBe(200);
    await expectError(await redeem(replicas.url, codeGrant(s)), 400, 'invalid_grant', 'already used');
  });

  test('stateless: a wrong verifier then the right one', async () => {
    const s = await signIn(replicas.url);
    await expectError(await redeem(replicas.url, codeGrant(s, { code_verifier: pkce().verifier })), 400, 'invalid_grant');
    expect((await redeem(replicas.url, codeGrant(s))).status).toBe(200);
  });
});

describe('request errors', () => {
  test.each([
    ['no grant_type', { client_id: 'x' }, 400, 'invalid_request', 'grant_type is required'],
    ['an unsupported grant', { grant_type: 'password' }, 400, 'unsupported_grant_type', 'authorization_code or refresh_token'],
    ['an unknown client', { grant_type: 'authorization_code', client_id: 'nobody', code: 'c', code_verifier: 'v' }, 401, 'invalid_client', 'register again'],
    ['no client at all', { grant_type: 'refresh_token', refresh_token: 'r' }, 401, 'invalid_client', 'register again'],
  ])('%s', async (_, params, status, error, description) => {
    await expectError(await redeem(served.url, params as Record<string, string>), status, error, description);
  });

  test('missing code or code_verifier', async () => {
    const id = await registerClient(served.url);
    await expectError(await redeem(served.url, { grant_type: 'authorization_code', client_id: id, code_verifier: pkce().verifier, redirect_uri: REDIRECT }), 400, 'invalid_request', 'code is required');
    await expectError(await redeem(served.url, { grant_type: 'authorization_code', client_id: id, code: 'abc', redirect_uri: REDIRECT }), 400, 'invalid_request', 'code_verifier is required');
  });

  test('client_id may come in HTTP Basic', async () => {
    const s = await signIn(served.url);
    const { client_id, ...params } = codeGrant(s);
    const response = await fetch(`${served.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:`).toString('base64')}` },
      body: new URLSearchParams(params).toString(),
    });
    expect(response.status).toBe(200);
  });

  test.each([
    ['a percent-encoding cut short', Buffer.from('%E0%A4%A:secret').toString('base64')],
    ['a percent sign without hex digits', Buffer.from('%zz:').toString('base64')],
    ['an invalid UTF-8 sequence', Buffer.from('%C0%AF:').toString('base64')],
    ['text that is not base64', '!!!not-base64!!!'],
    ['padding in the middle of the base64', `${Buffer.from('a:').toString('base64')}${Buffer.from('x').toString('base64')}`],
  ])('a malformed HTTP Basic client id (%s) → 400 invalid_client, not a server error', async (_, basic) => {
    const response = await fetch(`${served.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c', code_verifier: pkce().verifier }).toString(),
    });
    await expectError(response, 400, 'invalid_client', 'not valid HTTP Basic');
  });

  test('an unsupported body type and malformed JSON', async () => {
    await expectError(await fetch(`${served.url}/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 415, 'invalid_request');
    await expectError(await fetch(`${served.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }), 400, 'invalid_request');
  });
});

describe('refresh_token', () => {
  test('is forwarded to the forge with this server\'s application; the forge rotates the pair', async () => {
    const s = await signIn(served.url);
    const first = (await (await redeem(served.url, codeGrant(s))).json()) as TokenBody;
    const response = await redeem(served.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: s.clientId });
    expect(response.status).toBe(200);
    const second = (await response.json()) as TokenBody;
    expect(second.access_token).not.toBe(first.access_token);
    expect(forge.oauth.accessTokens).toEqual([second.access_token]);
    const sent = forge.requests.filter((r) => r.path === '/oauth/token').at(-1)!.body as Record<string, string>;
    expect(sent).toMatchObject({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: FORGE_APP_ID });
    // The old refresh token was rotated away at the forge.
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: s.clientId }), 400, 'invalid_grant');
  });

  test('a forge that cannot answer gives 502 temporarily_unavailable', async () => {
    const s = await signIn(served.url);
    const first = (await (await redeem(served.url, codeGrant(s))).json()) as TokenBody;
    forge.failNext({ pathIncludes: '/oauth/token', status: 503 });
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: s.clientId }), 502, 'temporarily_unavailable');
  });

  test.each([
    ['shorter than a forge token', 'abc123'],
    ['5,000 characters', 'a'.repeat(5000)],
    ['spaces', 'valid-looking token with spaces'],
    ['control characters', `${'a'.repeat(20)}\u0000\u0007\r\n`],
    ['non-ASCII characters', `${'a'.repeat(20)}é€`],
    ['quotes and angle brackets', `${'a'.repeat(20)}"<script>'`],
    ['a percent-encoded payload', `${'a'.repeat(20)}%0d%0a`],
  ])('a refresh token with %s is refused here: invalid_grant, nothing sent to the forge', async (_, junk) => {
    const id = await registerClient(served.url);
    forge.requests.length = 0;
    for (const asJson of [false, true]) {
      await expectError(await redeem(served.url, { grant_type: 'refresh_token', client_id: id, refresh_token: junk }, asJson), 400, 'invalid_grant', 'malformed');
    }
    expect(forge.requests.filter((r) => r.path === '/oauth/token')).toEqual([]);
  });

  test('an empty or 100 KB refresh token never reaches the forge either', async () => {
    const id = await registerClient(served.url);
    forge.requests.length = 0;
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', client_id: id, refresh_token: '' }), 400, 'invalid_request', 'refresh_token is required');
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', client_id: id, refresh_token: 'a'.repeat(100 * 1024) }), 413, 'invalid_request');
    expect(forge.requests.filter((r) => r.path === '/oauth/token')).toEqual([]);
  });

  test('a forge answer larger than a token answer can be is not read: 502, nothing passed on', async () => {
    const s = await signIn(served.url);
    const first = (await (await redeem(served.url, codeGrant(s))).json()) as TokenBody;
    forge.failNext({ pathIncludes: '/oauth/token', status: 200, body: { access_token: 'padded-forge-token', token_type: 'Bearer', padding: 'x'.repeat(200 * 1024) } });
    const response = await redeem(served.url, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: s.clientId });
    await expectError(response, 502, 'temporarily_unavailable');
  });

  test('refresh_token is required', async () => {
    const id = await registerClient(served.url);
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', client_id: id }), 400, 'invalid_request', 'refresh_token is required');
  });
});

describe('the replay cache (SPEC stateless rule 5)', () => {
  test('keeps every entry until its code expires; full, it refuses new redemptions (fail closed)', () => {
    let t = 1_000_000;
    const guard = new ReplayGuard(() => t, 2);
    expect(guard.reserve('a', t + 120_000)).toBe('reserved');
    expect(guard.reserve('a', t + 120_000)).toBe('pending');
    guard.consume('a');
    expect(guard.reserve('a', t + 120_000)).toBe('consumed');
    expect(guard.reserve('b', t + 120_000)).toBe('reserved');
    guard.release('b');
    expect(guard.reserve('b', t + 120_000)).toBe('reserved');
    expect(guard.reserve('c', t + 120_000)).toBe('full');
    t += 120_001;
    expect(guard.reserve('c', t + 120_000)).toBe('reserved');
    // A consumed entry is never released.
    guard.consume('c');
    guard.release('c');
    expect(guard.reserve('c', t + 120_000)).toBe('consumed');
  });

  test('/token answers 503 temporarily_unavailable when the cache is full, and the code still works later', async () => {
    let t = Date.now();
    const clients = new MemoryClients(86400, () => t);
    const vault = new MemoryVault({ consent: 600, state: 600, code: 120 }, () => t);
    const guard = new ReplayGuard(() => t, 1);
    const handle = tokenHandler({ clients, vault, guard, forge: { refresh: async () => ({ ok: false, status: 0, error: 'x', description: 'x' }) }, logger: silentLogger, now: () => t });
    const client = await clients.register([REDIRECT], 'c', '10.0.0.1');
    const p = pkce();
    const put = () => vault.put('code', { c: client.clientId, r: REDIRECT, rp: true, cc: p.challenge, t: { access_token: 'forge-token', token_type: 'Bearer' }, at: 0 }, '10.0.0.1');
    const first = await put();
    const second = await put();
    const request = (code: string) =>
      handle(new Request('http://x/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', client_id: client.clientId, code, code_verifier: p.verifier, redirect_uri: REDIRECT }) }));
    expect((await request(first)).status).toBe(200);
    await expectError(await request(second), 503, 'temporarily_unavailable', 'try again');
    t += 121_000;
    const third = await put();
    expect((await request(third)).status).toBe(200);
  });
});
