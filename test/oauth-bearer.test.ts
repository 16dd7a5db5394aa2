// /mcp in OAuth mode (docs/spec.md "OAuth mode", D9, D23): a bearer token is checked against the
// forge and the answer cached for a minute per replica; Private-Token and JOB-TOKEN are live
// credentials; a session id alone is not a credential, except sealed in stateless mode.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { serveOAuth, type ServedOAuth, resetForge, stopAll } from './support/fake-oauth-harness';
import { codeGrant, redeem, signIn } from './support/fake-oauth-steps';
import { INITIALIZE } from './support/mcp-client';

let forge: FakeForge;
let served: ServedOAuth;
let stateless: ServedOAuth;
let clock = 0;
const now = () => Date.now() + clock;

beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge, { now });
  stateless = await serveOAuth(forge, { now, env: { OAUTH_STATELESS_MODE: 'true' } });
});
beforeEach(() => {
  clock = 0;
  resetForge(forge, served, stateless);
});
afterAll(() => stopAll(forge, served, stateless));

async function forgeToken(base = served.url): Promise<string> {
  const s = await signIn(base);
  const tokens = (await (await redeem(base, codeGrant(s))).json()) as { access_token: string };
  forge.requests.length = 0;
  return tokens.access_token;
}

function mcp(base: string, headers: Record<string, string>, body: unknown = INITIALIZE, method = 'POST'): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
}

const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
const userChecks = () => forge.requests.filter((r) => r.path === '/api/v4/user');

async function expect401(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${new URL(response.url).origin}/.well-known/oauth-protected-resource/mcp"`);
}

describe('bearer tokens', () => {
  test('the forge\'s access token opens a session; it was checked with GET /api/v4/user', async () => {
    const token = await forgeToken();
    const response = await mcp(served.url, { Authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    const [check] = userChecks();
    expect(check.headers.get('authorization')).toBe(`Bearer ${token}`);
  });

  test('the answer is cached for a minute: more requests, one check', async () => {
    const token = await forgeToken();
    const opened = await mcp(served.url, { Authorization: `Bearer ${token}` });
    const session = opened.headers.get('mcp-session-id')!;
    for (let i = 0; i < 3; i++) expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping)).status).toBe(200);
    expect(userChecks()).toHaveLength(1);
  });

  test('a revoked token is refused once the cached answer runs out (≤ 60 s)', async () => {
    const token = await forgeToken();
    const session = (await mcp(served.url, { Authorization: `Bearer ${token}` })).headers.get('mcp-session-id')!;
    forge.oauth.revoke(token);
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping)).status).toBe(200);
    clock = 61_000;
    await expect401(await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping));
    expect(userChecks()).toHaveLength(2);
  });

  test('an unknown token gets 401 with the challenge; the refusal is cached too', async () => {
    await expect401(await mcp(served.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }));
    await expect401(await mcp(served.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }));
    expect(userChecks()).toHaveLength(1);
  });

  test('a token under 20 characters is refused without asking the forge', async () => {
    await expect401(await mcp(served.url, { Authorization: 'Bearer short' }));
    expect(forge.requests).toEqual([]);
  });

  test('when the forge cannot answer the check, the request goes on and nothing is cached', async () => {
    const token = await forgeToken();
    forge.failNext({ pathIncludes: '/api/v4/user', status: 503, times: 3 });
    expect((await mcp(served.url, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await mcp(served.url, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect(userChecks()).toHaveLength(2);
  });
});

describe('other credentials', () => {
  test.each([
    ['Private-Token', TOKENS.maintainer, '/api/v4/user'],
    ['JOB-TOKEN', TOKENS.job, '/api/v4/job'],
  ])('%s is a live credential, checked with the forge once before a session opens for it (D7)', async (header, token, check) => {
    expect((await mcp(served.url, { [header]: token })).status).toBe(200);
    expect((await mcp(served.url, { [header]: token })).status).toBe(200);
    expect(forge.requests.map((r) => r.path)).toEqual([check]);
  });

  test('a Private-Token under 20 characters is refused', async () => {
    await expect401(await mcp(served.url, { 'Private-Token': 'short' }));
  });
});

describe('session ids', () => {
  test('stateful: a session id alone is not a credential, for POST and DELETE; DELETE with the token ends the session', async () => {
    const token = await forgeToken();
    const session = (await mcp(served.url, { Authorization: `Bearer ${token}` })).headers.get('mcp-session-id')!;
    await expect401(await mcp(served.url, { 'mcp-session-id': session }, ping));
    await expect401(await mcp(served.url, { 'mcp-session-id': session }, undefined, 'DELETE'));
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping)).status).toBe(200);
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, undefined, 'DELETE')).status).toBe(200);
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping)).status).toBe(404);
  });

  test('stateless: a sealed session id alone authenticates (SPEC stateless rule 3)', async () => {
    const token = await forgeToken(stateless.url);
    const first = await mcp(stateless.url, { Authorization: `Bearer ${token}` });
    const session = first.headers.get('mcp-session-id')!;
    expect(session).toStartWith('v1.sid.');
    expect((await mcp(stateless.url, { 'mcp-session-id': session }, ping)).status).toBe(200);
  });

  test('stateless: DELETE passes the bearer check first (401 for a refused token), then answers 405', async () => {
    const token = await forgeToken(stateless.url);
    await expect401(await mcp(stateless.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }, undefined, 'DELETE'));
    expect((await mcp(stateless.url, { Authorization: `Bearer ${token}` }, undefined, 'DELETE')).status).toBe(405);
  });

  test('stateless: neither a session id nor a credential → 401 "Authentication required" with the challenge', async () => {
    const response = await mcp(stateless.url, {});
    await expect401(response);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Authentication required');
  });
});
