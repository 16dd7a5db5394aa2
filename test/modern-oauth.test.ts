// OAuth mode on the modern lane (D23, D27): each 2026-07-28 request carries the forge's bearer
// token, checked against the forge as on the legacy lane (cached for a minute), and there is no
// session to fall back on: a sealed id is no credential here. Twin of oauth-bearer.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { SEED, startFakeForge, type FakeForge } from './support/fake-forge';
import { serveOAuth, type ServedOAuth, resetForge, stopAll } from './support/fake-oauth-harness';
import { codeGrant, redeem, signIn } from './support/fake-oauth-steps';
import { INITIALIZE, MODERN_VERSION, connect, modernHeaders, modernMessage, structured } from './support/mcp-client';

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

const getMain = { name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } };

function modern(base: string, headers: Record<string, string>, id: number | string = 1, method = 'tools/call', params: Record<string, unknown> = getMain): Promise<Response> {
  const message = modernMessage(id, method, params);
  return fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modernHeaders(message), ...headers }, body: JSON.stringify(message) });
}

const userChecks = () => forge.requests.filter((r) => r.path === '/api/v4/user');

async function expect401(response: Response, id: unknown, message: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${new URL(response.url).origin}/.well-known/oauth-protected-resource/mcp"`);
  const body = (await response.json()) as { id: unknown; error: { message: string } };
  expect(body.id).toEqual(id);
  expect(body.error.message).toBe(message);
}

describe('bearer tokens on the modern lane', () => {
  test('the forge\'s access token is checked once and then each request acts with it', async () => {
    const token = await forgeToken();
    for (let i = 0; i < 3; i++) {
      const response = await modern(served.url, { Authorization: `Bearer ${token}` }, i);
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    }
    expect(userChecks()).toHaveLength(1);
    const calls = forge.requests.filter((r) => r.path.endsWith('/branches/main'));
    expect(calls.map((r) => r.headers.get('authorization'))).toEqual(Array(3).fill(`Bearer ${token}`));
  });

  test('an unknown or revoked token → 401 with the challenge and the request id', async () => {
    await expect401(await modern(served.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }, 'x1'), 'x1', 'Missing Authorization or Private-Token header');
    const token = await forgeToken();
    expect((await modern(served.url, { Authorization: `Bearer ${token}` })).status).toBe(200);
    forge.oauth.revoke(token);
    clock = 61_000;
    await expect401(await modern(served.url, { Authorization: `Bearer ${token}` }, 7), 7, 'Missing Authorization or Private-Token header');
  });

  test('no credential → 401 with the challenge and the id; stateless mode says "Authentication required"', async () => {
    await expect401(await modern(served.url, {}, 'n'), 'n', 'Missing Authorization or Private-Token header');
    await expect401(await modern(stateless.url, {}, 'n'), 'n', 'Authentication required');
  });

  test('stateless: a sealed session id is no credential on the modern lane', async () => {
    const token = await forgeToken(stateless.url);
    const init = await fetch(`${stateless.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` }, body: JSON.stringify(INITIALIZE) });
    const sid = init.headers.get('mcp-session-id')!;
    expect(sid).toStartWith('v1.sid.');
    await expect401(await modern(stateless.url, { 'mcp-session-id': sid }, 3), 3, 'Authentication required');
    expect((await modern(stateless.url, { Authorization: `Bearer ${token}` }, 4)).status).toBe(200);
  });

  test.each(['GET', 'DELETE'])('%s naming 2026-07-28: the bearer check first (401), then 405', async (method) => {
    const token = await forgeToken(stateless.url);
    const send = (headers: Record<string, string>) => fetch(`${stateless.url}/mcp`, { method, headers: { 'mcp-protocol-version': MODERN_VERSION, accept: 'text/event-stream', ...headers } });
    await expect401(await send({}), null, 'Authentication required');
    await expect401(await send({ Authorization: 'Bearer not-a-forge-token-0000000000' }), null, 'Missing Authorization or Private-Token header');
    const allowed = await send({ Authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(405);
    expect(allowed.headers.get('allow')).toBe('POST');
  });

  test('the v2 client pinned to 2026-07-28 calls a tool with the bearer in its headers', async () => {
    const token = await forgeToken();
    const client = await connect({ handle: (r) => fetch(r) }, { Authorization: `Bearer ${token}` }, `${served.url}/mcp`, { lane: 'modern' });
    expect(client.client.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
    expect(structured<{ name: string }>(await client.call('get_branch', getMain.arguments)).name).toBe('main');
    await client.close();
  });
});
