// /mcp in OAuth mode on the legacy lane (D23, D29, D9): the bearer is this server's own `v1.at.`
// token, checked locally (seal, kind, expiry, audience) with no forge call per request; the forge
// sees only the forge token sealed inside. A bearer that is not ours is refused with
// error="invalid_token" unless REMOTE_AUTHORIZATION=true; a forge rejection of the inner token is an
// HTTP 401, a read_api token sees only read tools and gets the step-up 403 for a write tool.
// Private-Token and JOB-TOKEN are live credentials; a session id alone is not a credential,
// except sealed in stateless mode. The modern lane's twin is modern-oauth.test.ts.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { Sealer } from '../src/sealing/sealer';
import { SEED, TOKENS, type FakeForge } from './support/fake-forge';
import { SECRET, resetForge, serveOAuth, type ServedOAuth, useOAuthServers } from './support/fake-oauth-harness';
import { ownTokens, redeem, refreshGrant } from './support/fake-oauth-steps';
import { INITIALIZE } from './support/mcp-client';

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

function mcp(base: string, headers: Record<string, string>, body: unknown = INITIALIZE, method = 'POST'): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
}

const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name, arguments: args } });
const getMain = call('get_branch', { project_id: String(SEED.project), branch_name: 'main' });
const createBranch = call('create_branch', { project_id: String(SEED.project), branch: 'feature-x', ref: 'main' });
const userChecks = () => forge.requests.filter((r) => r.path === '/api/v4/user');
const prm = (response: Response) => `${new URL(response.url).origin}/.well-known/oauth-protected-resource/mcp`;

async function expect401(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${prm(response)}", scope="api"`);
}

/** D23: a bearer refused as a token is answered with error="invalid_token", resource_metadata and scope. */
async function expectInvalidToken(response: Response) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${prm(response)}", scope="api"`);
  expect(((await response.json()) as { error: { message: string } }).error.message).toStartWith('Authentication required');
}

async function openSession(base: string, token: string): Promise<string> {
  const response = await mcp(base, { Authorization: `Bearer ${token}` });
  expect(response.status).toBe(200);
  return response.headers.get('mcp-session-id')!;
}

describe("this server's own access tokens (D23)", () => {
  test('open a session without asking the forge; tool calls go out with the forge token inside, never ours', async () => {
    const token = await accessToken();
    expect(token).toStartWith('v1.at.');
    const session = await openSession(served.url, token);
    expect(userChecks()).toHaveLength(0);
    for (let i = 0; i < 3; i++) expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, getMain)).status).toBe(200);
    const sent = forge.requests.map((r) => r.headers.get('authorization'));
    expect(sent).toEqual(Array(3).fill(`Bearer ${forge.oauth.accessTokens[0]}`));
    expect(forge.requests.every((r) => r.path.endsWith('/repository/branches/main'))).toBe(true);
  });

  test('a token for another audience is refused (a deployment sharing the secret at another URL)', async () => {
    const sealer = await Sealer.create({ secret: SECRET, ttlSeconds: { cid: 86400, ps: 600, pc: 120, sid: 3600, dl: 900 } });
    await accessToken();
    const forgeToken = forge.oauth.accessTokens[0];
    const fields = { f: forgeToken, u: forge.apiUrl, s: 'api', c: 'some-client', e: Math.floor(Date.now() / 1000) + 600 };
    const foreign = await sealer.seal('at', { ...fields, a: 'https://other.example/mcp' });
    const stateful = await sealer.seal('at', { ...fields, a: `${stateless.url}/mcp` });
    await expectInvalidToken(await mcp(stateless.url, { Authorization: `Bearer ${foreign}` }));
    // The same value with this server's audience opens (the stateless replica shares SECRET): the audience alone decided.
    expect((await mcp(stateless.url, { Authorization: `Bearer ${stateful}` })).status).toBe(200);
    expect(forge.requests).toEqual([]);
  });

  test('an expired access token is refused locally', async () => {
    const tokens = await ownTokens(served.url);
    expect(tokens.expires_in).toBe(3600);
    clock = 3600_000;
    await expectInvalidToken(await mcp(served.url, { Authorization: `Bearer ${tokens.access_token}` }));
    expect(forge.requests.filter((r) => r.path.startsWith('/api/'))).toEqual([]);
  });

  test.each([
    ['a refresh token used as an access token', async () => (await ownTokens(served.url)).refresh_token!],
    [
      'a tampered access token',
      async () => {
        const t = await accessToken();
        return `${t.slice(0, -4)}${t.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      },
    ],
    ['a long access token', async () => `v1.at.${'A'.repeat(12_000)}`],
    ['a malformed access token', async () => 'v1.at.not*base64url*at*all'],
    [
      'a sealed session id',
      async () => (await mcp(stateless.url, { Authorization: `Bearer ${await accessToken(stateless.url)}` })).headers.get('mcp-session-id')!,
    ],
  ])('%s → 401 invalid_token, nothing sent to the forge', async (_, make) => {
    const value = await make();
    forge.requests.length = 0;
    await expectInvalidToken(await mcp(served.url, { Authorization: `Bearer ${value}` }));
    expect(forge.requests).toEqual([]);
  });

  test('upgrade path: a forge token from the old behaviour gets the 401 challenge, without a forge call', async () => {
    await accessToken();
    const oldForgeToken = forge.oauth.accessTokens[0];
    await expectInvalidToken(await mcp(served.url, { Authorization: `Bearer ${oldForgeToken}` }));
    await expectInvalidToken(await mcp(served.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }));
    expect(forge.requests).toEqual([]);
  });

  test('with REMOTE_AUTHORIZATION=true a bearer that is not ours is a forge token, checked with the forge before a session opens (D7)', async () => {
    const remote = await serveOAuth(forge, { env: { REMOTE_AUTHORIZATION: 'true' } });
    try {
      resetForge(forge, remote);
      expect((await mcp(remote.url, { Authorization: `Bearer ${TOKENS.maintainer}` })).status).toBe(200);
      expect(userChecks().map((r) => r.headers.get('authorization'))).toEqual([`Bearer ${TOKENS.maintainer}`]);
      expect((await mcp(remote.url, { Authorization: 'Bearer not-a-forge-token-0000000000' })).status).toBe(401);
      // Our own sealed values are never taken as forge tokens, even here.
      const ours = await ownTokens(remote.url);
      forge.requests.length = 0;
      expect((await mcp(remote.url, { Authorization: `Bearer ${ours.refresh_token}` })).status).toBe(401);
      expect(forge.requests).toEqual([]);
    } finally {
      await remote.stop();
    }
  });

  test('a sealed token is never sent to another forge: X-Forge-API-URL naming another allowed forge → 400 (D23, D8)', async () => {
    const dynamic = await serveOAuth(forge, {
      env: { REMOTE_AUTHORIZATION: 'true', ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: 'other-forge.example' },
    });
    try {
      resetForge(forge, dynamic);
      const token = (await ownTokens(dynamic.url)).access_token;
      forge.requests.length = 0;
      const elsewhere = { Authorization: `Bearer ${token}`, 'X-Forge-API-URL': 'https://other-forge.example/api/v4' };
      for (const body of [INITIALIZE, getMain]) {
        const response = await mcp(dynamic.url, elsewhere, body);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
          'Invalid custom API URL provided: token sealed for another forge',
        );
      }
      // Its own forge, named explicitly, is fine.
      expect((await mcp(dynamic.url, { Authorization: `Bearer ${token}`, 'X-Forge-API-URL': forge.apiUrl })).status).toBe(200);
      // A session opened with the token cannot be pointed elsewhere either.
      const session = await openSession(dynamic.url, token);
      expect((await mcp(dynamic.url, { ...elsewhere, 'mcp-session-id': session }, getMain)).status).toBe(400);
      expect(forge.requests.filter((r) => r.path.startsWith('/api/'))).toEqual([]);
    } finally {
      await dynamic.stop();
    }
  });

  test('the forge revokes the inner token mid-session: HTTP 401 invalid_token (not a tool error); a refreshed token carries on', async () => {
    const tokens = await ownTokens(served.url);
    const session = await openSession(served.url, tokens.access_token);
    forge.oauth.expire(forge.oauth.accessTokens[0]);
    await expectInvalidToken(await mcp(served.url, { Authorization: `Bearer ${tokens.access_token}`, 'mcp-session-id': session }, getMain));
    const refreshed = (await (await redeem(served.url, refreshGrant(tokens.clientId, tokens.refresh_token!))).json()) as { access_token: string };
    const response = await mcp(served.url, { Authorization: `Bearer ${refreshed.access_token}`, 'mcp-session-id': session }, getMain);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  });

  test("a 401 GitLab gives a token it still takes (approving twice) stays the tool's permission error, not a 401 challenge", async () => {
    const everyTool = await serveOAuth(forge, { now, env: { FORGE_TOOLSETS: 'all' } });
    try {
      resetForge(forge, everyTool);
      const token = await accessToken(everyTool.url);
      const session = await openSession(everyTool.url, token);
      const approve = call('approve_merge_request', { project_id: String(SEED.project), merge_request_iid: 1 });
      const headers = { Authorization: `Bearer ${token}`, 'mcp-session-id': session };
      expect((await mcp(everyTool.url, headers, approve)).status).toBe(200);
      forge.requests.length = 0;
      const again = await mcp(everyTool.url, headers, approve);
      expect(again.status).toBe(200);
      const result = ((await again.json()) as { result: { isError?: boolean; structuredContent: { error: { kind: string; status: number } } } }).result;
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ kind: 'permission', status: 401 });
      // The tool read the approval state to say why; the forge was asked afresh whether it still takes the token, and it does.
      const mr1 = `/api/v4/projects/${SEED.project}/merge_requests/1`;
      expect(forge.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${mr1}/approve`, `GET ${mr1}/approvals`, 'GET /api/v4/user']);
      // The same 401 once the forge no longer takes the token is the challenge.
      forge.oauth.revoke(forge.oauth.accessTokens.at(-1)!);
      await expectInvalidToken(await mcp(everyTool.url, headers, approve));
    } finally {
      await everyTool.stop();
    }
  });

  // ee/app/services/ee/merge_requests/approval_service.rb: without `approval_password` the approval is refused, 401.
  test("a project that requires the approver's password: its 401 is the tool's permission error naming the password, not a token challenge", async () => {
    const everyTool = await serveOAuth(forge, { now, env: { FORGE_TOOLSETS: 'all' } });
    try {
      resetForge(forge, everyTool);
      forge.model.reviews.settingsOf(SEED.project).require_password_to_approve = true;
      const token = await accessToken(everyTool.url);
      const session = await openSession(everyTool.url, token);
      const approve = call('approve_merge_request', { project_id: String(SEED.project), merge_request_iid: 1 });
      const response = await mcp(everyTool.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, approve);
      expect(response.status).toBe(200);
      const result = (
        (await response.json()) as { result: { isError?: boolean; structuredContent: { error: { kind: string; status: number; message: string } } } }
      ).result;
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error).toMatchObject({ kind: 'permission', status: 401 });
      expect(result.structuredContent.error.message).toContain('requires approvers to confirm with their GitLab password');
      expect(result.structuredContent.error.message).not.toMatch(/token|OAuth/i);
    } finally {
      await everyTool.stop();
    }
  });

  test('stateless: the forge rejecting the inner token is a 401 too, and no new session id is issued', async () => {
    const token = await accessToken(stateless.url);
    forge.oauth.revoke(forge.oauth.accessTokens[0]);
    const response = await mcp(stateless.url, { Authorization: `Bearer ${token}` }, getMain);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    await expectInvalidToken(response);
  });

  test('tokens survive a restart when OAUTH_STATELESS_SECRET is set (stateful mode, two app instances)', async () => {
    const pair = await serveOAuth(forge, { replicas: 2, env: { OAUTH_STATELESS_SECRET: SECRET } });
    try {
      resetForge(forge, pair);
      const tokens = await ownTokens(pair.url);
      pair.route = () => 1; // the "restarted" instance: never saw the sign-in
      const before = pair.hits[1];
      expect((await mcp(pair.url, { Authorization: `Bearer ${tokens.access_token}` }, INITIALIZE)).status).toBe(200);
      expect(pair.hits[1]).toBe(before + 1);
    } finally {
      await pair.stop();
    }
  });

  test('without OAUTH_STATELESS_SECRET another instance cannot open the token (per-process key)', async () => {
    const pair = await serveOAuth(forge, { replicas: 2 });
    try {
      resetForge(forge, pair);
      const tokens = await ownTokens(pair.url);
      pair.route = () => 1;
      await expectInvalidToken(await mcp(pair.url, { Authorization: `Bearer ${tokens.access_token}` }));
    } finally {
      await pair.stop();
    }
  });
});

describe('scopes (D29)', () => {
  const toolNames = async (response: Response) => ((await response.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);

  test('a read_api token lists only read tools; an api token lists all', async () => {
    const readToken = await accessToken(served.url, 'read_api');
    const readSession = await openSession(served.url, readToken);
    const readNames = await toolNames(await mcp(served.url, { Authorization: `Bearer ${readToken}`, 'mcp-session-id': readSession }, list));
    const apiToken = await accessToken(served.url, 'read_api api');
    const apiSession = await openSession(served.url, apiToken);
    const allNames = await toolNames(await mcp(served.url, { Authorization: `Bearer ${apiToken}`, 'mcp-session-id': apiSession }, list));
    expect(readNames).toContain('get_branch');
    expect(readNames).not.toContain('create_branch');
    expect(allNames).toContain('create_branch');
    expect(allNames.length).toBeGreaterThan(readNames.length);
  });

  test('a write tool called with a read_api token → HTTP 403 insufficient_scope with the step-up challenge; nothing sent', async () => {
    const token = await accessToken(served.url, 'read_api');
    const session = await openSession(served.url, token);
    forge.requests.length = 0;
    const response = await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, createBranch);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="api", resource_metadata="${prm(response)}"`);
    expect(forge.requests).toEqual([]);
    // A batch hiding the write call behind a read is refused whole.
    const batch = await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, [getMain, { ...createBranch, id: 9 }]);
    expect(batch.status).toBe(403);
    expect(forge.requests).toEqual([]);
  });

  test('an access token a refresh narrowed to read_api (RFC 6749 §6) sees read tools only and gets the step-up 403', async () => {
    const tokens = await ownTokens(served.url);
    const refreshed = await redeem(served.url, refreshGrant(tokens.clientId, tokens.refresh_token!, { scope: 'read_api' }));
    const { access_token: token } = (await refreshed.json()) as { access_token: string };
    const session = await openSession(served.url, token);
    const names = await toolNames(await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, list));
    expect(names).toContain('get_branch');
    expect(names).not.toContain('create_branch');
    forge.requests.length = 0;
    const response = await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, createBranch);
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="api", resource_metadata="${prm(response)}"`);
    expect(forge.requests).toEqual([]);
  });

  test('stateless: the scope travels in the sealed session id', async () => {
    const token = await accessToken(stateless.url, 'read_api');
    const sid = (await mcp(stateless.url, { Authorization: `Bearer ${token}` })).headers.get('mcp-session-id')!;
    const names = await toolNames(await mcp(stateless.url, { 'mcp-session-id': sid }, list));
    expect(names).not.toContain('create_branch');
    expect((await mcp(stateless.url, { 'mcp-session-id': sid }, createBranch)).status).toBe(403);
  });
});

describe('other credentials', () => {
  test.each([
    ['Private-Token', TOKENS.maintainer, '/api/v4/user'],
    ['JOB-TOKEN', TOKENS.job, '/api/v4/job'],
  ])('%s is a live credential, checked with the forge once before a session opens for it (D7)', async (header, token, check) => {
    expect((await mcp(served.url, { [header]: token })).status).toBe(200);
    expect((await mcp(served.url, { [header]: token })).status).toBe(200);
    // A token the forge took is then asked what it may do (D38); a job token has no self-description.
    expect(forge.requests.map((r) => r.path)).toEqual(check.endsWith('/job') ? [check] : [check, '/api/v4/personal_access_tokens/self']);
  });

  test("this server's own access token or session id sent as Private-Token or JOB-TOKEN is refused, never sent to the forge (D23)", async () => {
    const token = await accessToken();
    await expectInvalidToken(await mcp(served.url, { 'Private-Token': token }));
    await expectInvalidToken(await mcp(served.url, { 'JOB-TOKEN': token }));
    const sessionId = (await mcp(stateless.url, { Authorization: `Bearer ${await accessToken(stateless.url)}` })).headers.get('mcp-session-id')!;
    expect(sessionId).toStartWith('v1.sid.');
    forge.requests.length = 0;
    await expectInvalidToken(await mcp(stateless.url, { 'Private-Token': sessionId }));
    expect(forge.requests).toEqual([]);
  });

  test('a Private-Token or bearer under 20 characters is refused without asking the forge', async () => {
    await expect401(await mcp(served.url, { 'Private-Token': 'short' }));
    await expect401(await mcp(served.url, { Authorization: 'Bearer short' }));
    expect(forge.requests).toEqual([]);
  });
});

describe('session ids', () => {
  test('stateful: a session id alone is not a credential, for POST and DELETE; DELETE with the token ends the session', async () => {
    const token = await accessToken();
    const session = await openSession(served.url, token);
    await expect401(await mcp(served.url, { 'mcp-session-id': session }, ping));
    await expect401(await mcp(served.url, { 'mcp-session-id': session }, undefined, 'DELETE'));
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping)).status).toBe(200);
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, undefined, 'DELETE')).status).toBe(200);
    expect((await mcp(served.url, { Authorization: `Bearer ${token}`, 'mcp-session-id': session }, ping)).status).toBe(404);
  });

  test('stateless: a sealed session id alone authenticates (SPEC stateless rule 3)', async () => {
    const token = await accessToken(stateless.url);
    const first = await mcp(stateless.url, { Authorization: `Bearer ${token}` });
    const session = first.headers.get('mcp-session-id')!;
    expect(session).toStartWith('v1.sid.');
    expect((await mcp(stateless.url, { 'mcp-session-id': session }, ping)).status).toBe(200);
  });

  test('stateless: DELETE passes the bearer check first (401 for a refused token), then answers 405', async () => {
    const token = await accessToken(stateless.url);
    await expectInvalidToken(await mcp(stateless.url, { Authorization: 'Bearer not-a-forge-token-0000000000' }, undefined, 'DELETE'));
    expect((await mcp(stateless.url, { Authorization: `Bearer ${token}` }, undefined, 'DELETE')).status).toBe(405);
  });

  test('stateless: neither a session id nor a credential → 401 "Authentication required" with the challenge', async () => {
    const response = await mcp(stateless.url, {});
    await expect401(response);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Authentication required');
  });
});
