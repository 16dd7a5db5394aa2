// OAuth mode on the modern lane (D23, D27, D29): each 2026-07-28 request carries this server's own
// bearer token, opened locally with no forge call and no session to fall back on (a sealed id is no
// credential here); a forge rejection of the inner token is an HTTP 401 with the request id, and a
// read_api token sees only read tools (cacheScope private) and gets the step-up 403. Twin of
// oauth-bearer.test.ts.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { SEED, type FakeForge } from './support/fake-forge';
import { resetForge, serveOAuth, type ServedOAuth, useOAuthServers } from './support/fake-oauth-harness';
import { ownTokens, redeem, refreshGrant } from './support/fake-oauth-steps';
import { INITIALIZE, MODERN_VERSION, connect, modernHeaders, modernMessage, structured } from './support/mcp-client';

let forge: FakeForge;
let served: ServedOAuth;
let stateless: ServedOAuth;
let clock = 0;
const now = () => Date.now() + clock;

const oauth = useOAuthServers({ served: { now }, stateless: { now, env: { OAUTH_STATELESS_MODE: 'true' } } });
beforeAll(() => {
  ({ forge, served, stateless } = oauth);
});
beforeEach(() => {
  clock = 0;
});

async function accessToken(base = served.url, scope?: string): Promise<string> {
  const tokens = await ownTokens(base, { scope });
  forge.requests.length = 0;
  return tokens.access_token;
}

const getMain = { name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } };
const createBranch = { name: 'create_branch', arguments: { project_id: String(SEED.project), branch: 'feature-x', ref: 'main' } };

function modern(
  base: string,
  headers: Record<string, string>,
  id: number | string = 1,
  method = 'tools/call',
  params: Record<string, unknown> = getMain,
): Promise<Response> {
  const message = modernMessage(id, method, params);
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modernHeaders(message), ...headers },
    body: JSON.stringify(message),
  });
}

const prm = (response: Response) => `${new URL(response.url).origin}/.well-known/oauth-protected-resource/mcp`;

async function expect401(response: Response, id: unknown, message: string, error?: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(`Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${prm(response)}", scope="api"`);
  const body = (await response.json()) as { id: unknown; error: { message: string } };
  expect(body.id).toEqual(id);
  expect(body.error.message).toBe(message);
}

const INVALID_TOKEN = 'Authentication required: the access token is invalid or expired; refresh it or sign in again';

describe('bearer tokens on the modern lane', () => {
  test("this server's token is opened locally: no forge check, each request acts with the forge token inside", async () => {
    const token = await accessToken();
    for (let i = 0; i < 3; i++) {
      const response = await modern(served.url, { Authorization: `Bearer ${token}` }, i);
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
    }
    expect(forge.requests.map((r) => r.path)).toEqual(Array(3).fill(`/api/v4/projects/${SEED.project}/repository/branches/main`));
    expect(forge.requests.map((r) => r.headers.get('authorization'))).toEqual(Array(3).fill(`Bearer ${forge.oauth.accessTokens[0]}`));
  });

  test('a bearer that is not ours, or expired → 401 invalid_token with the request id, no forge call', async () => {
    await expect401(await modern(served.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }, 'x1'), 'x1', INVALID_TOKEN, 'invalid_token');
    const token = await accessToken();
    await expect401(await modern(served.url, { Authorization: `Bearer ${forge.oauth.accessTokens[0]}` }, 'up'), 'up', INVALID_TOKEN, 'invalid_token');
    clock = 3600_000;
    await expect401(await modern(served.url, { Authorization: `Bearer ${token}` }, 7), 7, INVALID_TOKEN, 'invalid_token');
    expect(forge.requests).toEqual([]);
  });

  test('the forge revokes the inner token: HTTP 401 invalid_token with the id (not a tool error); a refreshed token carries on', async () => {
    const tokens = await ownTokens(served.url);
    expect((await modern(served.url, { Authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    forge.oauth.expire(forge.oauth.accessTokens[0]);
    await expect401(await modern(served.url, { Authorization: `Bearer ${tokens.access_token}` }, 'r'), 'r', INVALID_TOKEN, 'invalid_token');
    const refreshed = (await (await redeem(served.url, refreshGrant(tokens.clientId, tokens.refresh_token!))).json()) as { access_token: string };
    const response = await modern(served.url, { Authorization: `Bearer ${refreshed.access_token}` }, 's');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  });

  test("a 401 GitLab gives a token it still takes (approving twice) stays the tool's permission error with the id", async () => {
    const everyTool = await serveOAuth(forge, { now, env: { FORGE_TOOLSETS: 'all' } });
    try {
      resetForge(forge, everyTool);
      const token = await accessToken(everyTool.url);
      const approve = { name: 'approve_merge_request', arguments: { project_id: String(SEED.project), merge_request_iid: 1 } };
      const headers = { Authorization: `Bearer ${token}` };
      expect((await modern(everyTool.url, headers, 1, 'tools/call', approve)).status).toBe(200);
      const again = await modern(everyTool.url, headers, 'twice', 'tools/call', approve);
      expect(again.status).toBe(200);
      const body = (await again.json()) as { id: unknown; result: { isError?: boolean; structuredContent: { error: { kind: string; status: number } } } };
      expect(body.id).toBe('twice');
      expect(body.result.isError).toBe(true);
      expect(body.result.structuredContent.error).toMatchObject({ kind: 'permission', status: 401 });
      forge.oauth.revoke(forge.oauth.accessTokens.at(-1)!);
      await expect401(await modern(everyTool.url, headers, 'r', 'tools/call', approve), 'r', INVALID_TOKEN, 'invalid_token');
    } finally {
      await everyTool.stop();
    }
  });

  test('a read_api token lists only read tools, privately cached; a write tool gets the step-up 403 with the id (D29)', async () => {
    const readToken = await accessToken(served.url, 'read_api');
    const listed = (await (await modern(served.url, { Authorization: `Bearer ${readToken}` }, 'l', 'tools/list', {})).json()) as {
      result: { tools: { name: string }[]; cacheScope: string; ttlMs: number };
    };
    const names = listed.result.tools.map((t) => t.name);
    expect(names).toContain('get_branch');
    expect(names).not.toContain('create_branch');
    expect(listed.result.cacheScope).toBe('private');
    const refused = await modern(served.url, { Authorization: `Bearer ${readToken}` }, 'w', 'tools/call', createBranch);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="api", resource_metadata="${prm(refused)}"`);
    expect(((await refused.json()) as { id: unknown }).id).toBe('w');
    expect(forge.requests).toEqual([]);
    const apiToken = await accessToken(served.url, 'api');
    const full = (await (await modern(served.url, { Authorization: `Bearer ${apiToken}` }, 'l', 'tools/list', {})).json()) as {
      result: { tools: { name: string }[]; cacheScope: string };
    };
    expect(full.result.tools.map((t) => t.name)).toContain('create_branch');
    expect(full.result.cacheScope).toBe('private');
  });

  test('no credential → 401 with the challenge and the id; stateless mode says "Authentication required"', async () => {
    await expect401(await modern(served.url, {}, 'n'), 'n', 'Missing Authorization or Private-Token header');
    await expect401(await modern(stateless.url, {}, 'n'), 'n', 'Authentication required');
  });

  test('stateless: a sealed session id is no credential on the modern lane', async () => {
    const token = await accessToken(stateless.url);
    const init = await fetch(`${stateless.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
      body: JSON.stringify(INITIALIZE),
    });
    const sid = init.headers.get('mcp-session-id')!;
    expect(sid).toStartWith('v1.sid.');
    await expect401(await modern(stateless.url, { 'mcp-session-id': sid }, 3), 3, 'Authentication required');
    expect((await modern(stateless.url, { Authorization: `Bearer ${token}` }, 4)).status).toBe(200);
  });

  test.each(['GET', 'DELETE'])('%s naming 2026-07-28: the bearer check first (401), then 405', async (method) => {
    const token = await accessToken(stateless.url);
    const send = (headers: Record<string, string>) =>
      fetch(`${stateless.url}/mcp`, { method, headers: { 'mcp-protocol-version': MODERN_VERSION, accept: 'text/event-stream', ...headers } });
    await expect401(await send({}), null, 'Authentication required');
    await expect401(await send({ Authorization: 'Bearer not-a-forge-token-0000000000' }), null, INVALID_TOKEN, 'invalid_token');
    const allowed = await send({ Authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(405);
    expect(allowed.headers.get('allow')).toBe('POST');
  });

  test('the v2 client pinned to 2026-07-28 calls a tool with the bearer in its headers', async () => {
    const token = await accessToken();
    const client = await connect({ handle: (r) => fetch(r) }, { Authorization: `Bearer ${token}` }, `${served.url}/mcp`, { lane: 'modern' });
    expect(client.client.getNegotiatedProtocolVersion()).toBe(MODERN_VERSION);
    expect(structured<{ name: string }>(await client.call('get_branch', getMain.arguments)).name).toBe('main');
    await client.close();
  });
});
