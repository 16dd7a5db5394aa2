// POST /token (D22, D23, D29; docs/spec.md stateless rule 5): proxy codes are redeemed once per
// replica by their client with the right verifier, a failed check releases the code for a retry;
// the tokens are this server's own (v1.at./v1.rt.), never the forge's; a refresh token is used once,
// by its own client, and refreshes the forge token server-side; `resource` must name this server.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { silentLogger } from '../src/logging/logger';
import { MemoryClients } from '../src/oauth/clients';
import { OwnTokens } from '../src/oauth/own-tokens';
import { Sealer } from '../src/sealing/sealer';
import { REFRESH_REUSE_GRACE_MS, RefreshReuse } from '../src/oauth/refresh-reuse';
import { ReplayGuard } from '../src/oauth/replay-guard';
import { tokenHandler } from '../src/oauth/token';
import { MemoryVault, SealedVault } from '../src/oauth/vault';
import { createLogger } from '../src/logging/logger';
import type { FakeForge } from './support/fake-forge';
import { ACCESS_TOKEN_LIFETIME } from './support/fake-oauth';
import { FORGE_APP_ID, resetForge, serveOAuth, type ServedOAuth, useOAuthServers } from './support/fake-oauth-harness';
import { codeGrant, ownTokens, pkce, redeem, REDIRECT, refreshGrant, registerClient, signIn, type TokenBody } from './support/fake-oauth-steps';

let forge: FakeForge;
let served: ServedOAuth;
let replicas: ServedOAuth;
let clock = 0;
const now = () => Date.now() + clock;

const oauth = useOAuthServers({ served: { now }, replicas: { replicas: 2, now, env: { OAUTH_STATELESS_MODE: 'true' } } });
beforeAll(() => {
  ({ forge, served, replicas } = oauth);
});
beforeEach(() => {
  clock = 0;
});

interface ErrorBody {
  error: string;
  error_description: string;
}

async function expectError(response: Response, status: number, error: string, description?: string) {
  expect(response.status).toBe(status);
  // RFC 6749 §5.1/§5.2: token answers, errors included, are never cached.
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  const body = (await response.json()) as ErrorBody;
  expect(body.error).toBe(error);
  if (description) expect(body.error_description).toContain(description);
}

describe('authorization_code', () => {
  test("hands out this server's own tokens, never the forge's (D23; form-encoded request)", async () => {
    const s = await signIn(served.url);
    const response = await redeem(served.url, codeGrant(s));
    expect(response.status).toBe(200);
    // RFC 6749 §5.1.
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const tokens = (await response.json()) as TokenBody;
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(tokens.access_token).toStartWith('v1.at.');
    expect(tokens.refresh_token).toStartWith('v1.rt.');
    // OAUTH_ACCESS_TOKEN_TTL_SECONDS (3600) is shorter than the forge token's 7200 s.
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'api', expires_in: 3600 });
    const [forgeToken] = forge.oauth.accessTokens;
    expect(JSON.stringify(tokens)).not.toContain(forgeToken);
    // The forge does not take ours.
    expect((await fetch(`${forge.apiUrl}/user`, { headers: { Authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
  });

  test('the scope asked for at /authorize is the scope granted, and the forge was asked for it (D29)', async () => {
    for (const [asked, granted] of [
      ['read_api', 'read_api'],
      ['read_api api', 'api'],
      ['openid', 'api'],
      [undefined, 'api'],
    ] as const) {
      forge.requests.length = 0;
      const tokens = await ownTokens(served.url, { scope: asked });
      expect(tokens.scope).toBe(granted);
    }
    const readOnly = await serveOAuth(forge, { env: { FORGE_READ_ONLY_MODE: 'true' } });
    try {
      resetForge(forge, readOnly);
      expect((await ownTokens(readOnly.url, { scope: 'api' })).scope).toBe('read_api');
      expect((await ownTokens(readOnly.url)).scope).toBe('read_api');
    } finally {
      await readOnly.stop();
    }
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
    await expectError(
      await redeem(served.url, codeGrant(s, { redirect_uri: 'http://127.0.0.1:1/other' })),
      400,
      'invalid_grant',
      'redirect_uri does not match',
    );
    const { redirect_uri: _, ...without } = codeGrant(s);
    await expectError(await redeem(served.url, without), 400, 'invalid_grant', 'redirect_uri does not match');
    expect((await redeem(served.url, codeGrant(s))).status).toBe(200);
  });

  test('a code older than 120 s has expired', async () => {
    const s = await signIn(served.url);
    clock = 121_000;
    await expectError(await redeem(served.url, codeGrant(s)), 400, 'invalid_grant', 'invalid or expired');
  });

  test("the access token never outlives the forge token: expires_in counts down from the forge's answer while the code waited", async () => {
    const long = await serveOAuth(forge, { now, env: { OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400' } });
    try {
      resetForge(forge, long);
      const s = await signIn(long.url);
      clock = 60_000;
      const tokens = (await (await redeem(long.url, codeGrant(s))).json()) as TokenBody;
      expect(tokens.expires_in).toBeLessThanOrEqual(ACCESS_TOKEN_LIFETIME - 59);
      expect(tokens.expires_in).toBeGreaterThan(ACCESS_TOKEN_LIFETIME - 65);
    } finally {
      await long.stop();
    }
  });

  test('resource (RFC 8707) must name this server: invalid_target otherwise (D29)', async () => {
    const s = await signIn(served.url);
    await expectError(await redeem(served.url, codeGrant(s, { resource: 'https://other.example/mcp' })), 400, 'invalid_target', `${served.url}/mcp`);
    expect((await redeem(served.url, codeGrant(s, { resource: `${served.url}/mcp` }))).status).toBe(200);
  });

  test("resource naming the base URL or /mcp/ is not this server's resource either (D29): invalid_target, the code still works", async () => {
    const s = await signIn(served.url);
    for (const resource of [served.url, `${served.url}/`, `${served.url}/mcp/`, `${served.url}/mcp?x=1`]) {
      await expectError(await redeem(served.url, codeGrant(s, { resource })), 400, 'invalid_target', `resource must be ${served.url}/mcp`);
    }
    expect((await redeem(served.url, codeGrant(s, { resource: `${served.url}/mcp` }))).status).toBe(200);
  });

  test('stateless: a v1.pc. code from one replica is redeemed on another, once there', async () => {
    const s = await signIn(replicas.url);
    replicas.route = () => 1;
    expect((await redeem(replicas.url, codeGrant(s))).status).toBe(200);
    await expectError(await redeem(replicas.url, codeGrant(s)), 400, 'invalid_grant', 'already used');
  });

  test("stateless: a v1.pc. code respelled (its last character's unused bits changed) is no second code", async () => {
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let s = await signIn(replicas.url);
    let respelled: string[] = [];
    // A code whose base64url text ends in a character with unused bits (its length decides).
    for (let tries = 0; respelled.length === 0 && tries < 10; tries++) {
      if (tries > 0) s = await signIn(replicas.url);
      const code = s.landing.code!;
      const body = code.slice(code.lastIndexOf('.') + 1);
      const bytes = Buffer.from(body, 'base64url');
      respelled = [...ALPHABET]
        .map((c) => code.slice(0, -1) + c)
        .filter((v) => v !== code && Buffer.from(v.slice(v.lastIndexOf('.') + 1), 'base64url').equals(bytes));
    }
    expect(respelled.length).toBeGreaterThan(0);
    expect((await redeem(replicas.url, codeGrant(s))).status).toBe(200);
    for (const code of respelled) await expectError(await redeem(replicas.url, codeGrant(s, { code })), 400, 'invalid_grant');
    expect(forge.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(1);
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
    // RFC 6749 §5.2: invalid_client is a 400 unless the client used HTTP authentication (below).
    ['an unknown client', { grant_type: 'authorization_code', client_id: 'nobody', code: 'c', code_verifier: 'v' }, 400, 'invalid_client', 'register again'],
    ['no client at all', { grant_type: 'refresh_token', refresh_token: 'r' }, 400, 'invalid_client', 'register again'],
  ])('%s', async (_, params, status, error, description) => {
    await expectError(await redeem(served.url, params as Record<string, string>), status, error, description);
  });

  test('a client that named itself in the body and is refused as a client → 400 invalid_client without a challenge (RFC 6749 §5.2), form or JSON, either grant', async () => {
    const grants: Record<string, string>[] = [
      { grant_type: 'authorization_code', client_id: 'nobody', code: 'c', code_verifier: pkce().verifier },
      { grant_type: 'refresh_token', client_id: 'nobody', refresh_token: 'v1.rt.x' },
    ];
    for (const base of [served.url, replicas.url]) {
      for (const params of grants) {
        for (const asJson of [false, true]) {
          const response = await redeem(base, params, asJson);
          // RFC 7235: a 401 would need a challenge, and there is no scheme for a public client to answer.
          expect(response.headers.get('www-authenticate')).toBeNull();
          await expectError(response, 400, 'invalid_client', 'register again');
        }
      }
    }
  });

  test('missing code or code_verifier', async () => {
    const id = await registerClient(served.url);
    await expectError(
      await redeem(served.url, { grant_type: 'authorization_code', client_id: id, code_verifier: pkce().verifier, redirect_uri: REDIRECT }),
      400,
      'invalid_request',
      'code is required',
    );
    await expectError(
      await redeem(served.url, { grant_type: 'authorization_code', client_id: id, code: 'abc', redirect_uri: REDIRECT }),
      400,
      'invalid_request',
      'code_verifier is required',
    );
  });

  test('client_id may come in HTTP Basic', async () => {
    const s = await signIn(served.url);
    const { client_id, ...params } = codeGrant(s);
    const response = await fetch(`${served.url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:`).toString('base64')}`,
      },
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
  ])('a malformed HTTP Basic client id (%s) → 401 invalid_client with a Basic challenge (RFC 6749 §5.2), not a server error', async (_, basic) => {
    const response = await fetch(`${served.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c', code_verifier: pkce().verifier }).toString(),
    });
    expect(response.headers.get('www-authenticate')).toBe(`Basic realm="${served.url}"`);
    await expectError(response, 401, 'invalid_client', 'not valid HTTP Basic');
  });

  test('an unknown client in HTTP Basic → 401 invalid_client with WWW-Authenticate: Basic (RFC 6749 §5.2), for either grant', async () => {
    const basic = `Basic ${Buffer.from(`${encodeURIComponent('nobody')}:`).toString('base64')}`;
    const grants: Record<string, string>[] = [
      { grant_type: 'authorization_code', code: 'c', code_verifier: pkce().verifier },
      { grant_type: 'refresh_token', refresh_token: 'v1.rt.x' },
    ];
    for (const params of grants) {
      const response = await fetch(`${served.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: new URLSearchParams(params).toString(),
      });
      expect(response.headers.get('www-authenticate')).toBe(`Basic realm="${served.url}"`);
      // Browser-based clients may read it (CORS).
      expect(response.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
      await expectError(response, 401, 'invalid_client', 'register again');
    }
  });

  test('an unsupported body type and malformed JSON', async () => {
    await expectError(await fetch(`${served.url}/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 415, 'invalid_request');
    await expectError(
      await fetch(`${served.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      400,
      'invalid_request',
    );
  });
});

describe('a parameter sent more than once (RFC 6749 §3.2)', () => {
  const form = (pairs: [string, string][]) =>
    fetch(`${served.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(pairs).toString(),
    });
  /** A JSON object with members written in order, repeats included (JSON.stringify cannot). */
  const json = (pairs: [string, string][]) =>
    fetch(`${served.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`,
    });

  test.each(['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri'])(
    '%s twice in the code grant → 400 invalid_request naming it, form or JSON; the code still works',
    async (name) => {
      const s = await signIn(served.url);
      const pairs = Object.entries(codeGrant(s));
      const twice: [string, string][] = [...pairs, [name, pairs.find(([k]) => k === name)![1]]];
      for (const send of [form, json]) await expectError(await send(twice), 400, 'invalid_request', `${name} must not be included more than once`);
      expect(forge.requests.filter((r) => r.path === '/oauth/token').length).toBe(1); // the sign-in's own exchange
      expect((await form(pairs)).status).toBe(200);
    },
  );

  test.each(['refresh_token', 'scope'])('%s twice in the refresh grant → 400 invalid_request naming it; the refresh token still works', async (name) => {
    const first = await ownTokens(served.url);
    const pairs = Object.entries(refreshGrant(first.clientId, first.refresh_token!, { scope: 'api' }));
    const twice: [string, string][] = [...pairs, [name, pairs.find(([k]) => k === name)![1]]];
    forge.requests.length = 0;
    for (const send of [form, json]) await expectError(await send(twice), 400, 'invalid_request', `${name} must not be included more than once`);
    expect(forge.requests).toEqual([]);
    expect((await form(pairs)).status).toBe(200);
  });

  test('a repeated JSON member is seen whatever sits between (nested objects, escaped quotes)', async () => {
    const s = await signIn(served.url);
    const grant = codeGrant(s);
    const body = `{"grant_type":"authorization_code","extra":{"code":"x\\"}","list":[1,{"a":"]"}]},"code":${JSON.stringify(grant.code)},"client_id":${JSON.stringify(grant.client_id)},"code":"other","code_verifier":${JSON.stringify(grant.code_verifier)},"redirect_uri":${JSON.stringify(grant.redirect_uri)}}`;
    expect(() => JSON.parse(body)).not.toThrow();
    const response = await fetch(`${served.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await expectError(response, 400, 'invalid_request', 'code must not be included more than once');
    // The same body with the member once, nested look-alikes and all, is redeemed.
    const once = body.replace(',"code":"other"', '');
    expect((await fetch(`${served.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: once })).status).toBe(200);
  });

  test('resource may come more than once (RFC 8707), but each must name this server (D29)', async () => {
    const s = await signIn(served.url);
    const pairs = Object.entries(codeGrant(s));
    await expectError(
      await form([...pairs, ['resource', `${served.url}/mcp`], ['resource', 'https://other.example/mcp']]),
      400,
      'invalid_target',
      `resource must be ${served.url}/mcp`,
    );
    expect((await form([...pairs, ['resource', `${served.url}/mcp`], ['resource', `${served.url}/mcp`]])).status).toBe(200);
  });

  test('a parameter this endpoint does not read may repeat: it is ignored', async () => {
    const s = await signIn(served.url);
    expect((await form([...Object.entries(codeGrant(s)), ['client_secret', 'a'], ['client_secret', 'b']])).status).toBe(200);
  });
});

describe('a JSON parameter that is not a string (RFC 6749 parameters are strings)', () => {
  const tokenRequests = () => forge.requests.filter((r) => r.path === '/oauth/token').length;

  test('resource as an array naming another server → 400 invalid_request naming resource, not a token for the other server (D29); the code still works', async () => {
    const s = await signIn(served.url);
    const before = tokenRequests();
    await expectError(
      await redeem(served.url, { ...codeGrant(s), resource: ['https://evil.example/mcp'] } as unknown as Record<string, string>, true),
      400,
      'invalid_request',
      'resource must be a string, not an array',
    );
    expect(tokenRequests()).toBe(before);
    expect((await redeem(served.url, codeGrant(s), true)).status).toBe(200);
  });

  test('scope as a number in a refresh → 400 invalid_request naming scope; nothing sent to the forge, the refresh token still works', async () => {
    const first = await ownTokens(served.url, { scope: 'read_api' });
    forge.requests.length = 0;
    await expectError(
      await redeem(served.url, { ...refreshGrant(first.clientId, first.refresh_token!), scope: 5 } as unknown as Record<string, string>, true),
      400,
      'invalid_request',
      'scope must be a string, not a number',
    );
    expect(forge.requests).toEqual([]);
    const again = await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!), true);
    expect(again.status).toBe(200);
    expect(((await again.json()) as TokenBody).scope).toBe('read_api');
  });

  test.each(['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri', 'resource'])(
    '%s as a number, boolean, null, array or object → 400 invalid_request naming it, in both modes; the code still works',
    async (name) => {
      for (const base of [served.url, replicas.url]) {
        const s = await signIn(base);
        const grant = codeGrant(s) as Record<string, unknown>;
        for (const [value, type] of [
          [42, 'a number'],
          [true, 'a boolean'],
          [null, 'null'],
          [[grant[name] ?? `${base}/mcp`], 'an array'],
          [{ value: grant[name] ?? `${base}/mcp` }, 'an object'],
        ] as const) {
          await expectError(
            await redeem(base, { ...grant, [name]: value } as unknown as Record<string, string>, true),
            400,
            'invalid_request',
            `${name} must be a string, not ${type}`,
          );
        }
        expect((await redeem(base, codeGrant(s), true)).status).toBe(200);
      }
    },
  );

  test.each(['refresh_token', 'scope'])('%s as an array in a refresh → 400 invalid_request naming it; the refresh token still works', async (name) => {
    const first = await ownTokens(served.url);
    const grant = refreshGrant(first.clientId, first.refresh_token!, { scope: 'api' }) as Record<string, unknown>;
    await expectError(
      await redeem(served.url, { ...grant, [name]: [grant[name]] } as unknown as Record<string, string>, true),
      400,
      'invalid_request',
      `${name} must be a string, not an array`,
    );
    expect((await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!), true)).status).toBe(200);
  });

  test('members /token does not read may have any type: they are ignored (D22)', async () => {
    const s = await signIn(served.url);
    const body = { ...codeGrant(s), client_secret: null, expires_in: 3600, extra: [1, { code: 'x' }], flag: true };
    expect((await redeem(served.url, body as unknown as Record<string, string>, true)).status).toBe(200);
  });
});

describe('refresh_token', () => {
  test("refreshes the forge token server-side with this server's application and issues a new pair; the used one is refused (replay)", async () => {
    const first = await ownTokens(served.url);
    const forgeBefore = forge.oauth.accessTokens[0];
    const response = await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const second = (await response.json()) as TokenBody;
    expect(second.access_token).toStartWith('v1.at.');
    expect(second.refresh_token).toStartWith('v1.rt.');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second).toMatchObject({ token_type: 'Bearer', scope: 'api', expires_in: 3600 });
    const sent = forge.requests.filter((r) => r.path === '/oauth/token').at(-1)!.body as Record<string, string>;
    expect(sent).toMatchObject({ grant_type: 'refresh_token', client_id: FORGE_APP_ID });
    expect(sent.refresh_token).toMatch(/^[0-9a-f]{64}$/);
    // The forge rotated its pair; the client never saw either.
    expect(forge.oauth.accessTokens).not.toContain(forgeBefore);
    expect(JSON.stringify(second)).not.toContain(forge.oauth.accessTokens[0]);
    forge.requests.length = 0;
    // Past the grace period of a repeat (D23), the used one is refused and nothing reaches the forge.
    clock += REFRESH_REUSE_GRACE_MS + 1;
    await expectError(await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!)), 400, 'invalid_grant', 'already used');
    expect(forge.requests).toEqual([]);
    // The new one works, once.
    expect((await redeem(served.url, refreshGrant(first.clientId, second.refresh_token))).status).toBe(200);
  });

  test.each([
    ['read_api', 'api'],
    ['read_api', 'read_api api'],
    ['read_api', 'read_api write_repository'],
    ['api', 'api openid'],
    ['api', 'sudo'],
  ])(
    'granted %s, a refresh asking for scope "%s" (more than granted) → 400 invalid_scope (RFC 6749 §6); nothing sent to the forge, the refresh token still works',
    async (granted, asked) => {
      const first = await ownTokens(served.url, { scope: granted });
      expect(first.scope).toBe(granted);
      forge.requests.length = 0;
      for (const asJson of [false, true]) {
        await expectError(
          await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!, { scope: asked }), asJson),
          400,
          'invalid_scope',
          'scope may only name what was granted',
        );
      }
      expect(forge.requests).toEqual([]);
      const again = await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!));
      expect(again.status).toBe(200);
      expect(((await again.json()) as TokenBody).scope).toBe(granted);
    },
  );

  test('a refresh may name the scope granted, or less: an api grant refreshed for read_api gets a read_api access token, and its new refresh token keeps api (RFC 6749 §6)', async () => {
    const first = await ownTokens(served.url);
    expect(first.scope).toBe('api');
    const same = (await (await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!, { scope: 'read_api api' }))).json()) as TokenBody;
    expect(same.scope).toBe('api');
    const narrowed = await redeem(served.url, refreshGrant(first.clientId, same.refresh_token, { scope: 'read_api' }));
    expect(narrowed.status).toBe(200);
    const read = (await narrowed.json()) as TokenBody;
    expect(read.scope).toBe('read_api');
    // The refresh token of a narrowed refresh still carries the original grant.
    const widened = (await (await redeem(served.url, refreshGrant(first.clientId, read.refresh_token))).json()) as TokenBody;
    expect(widened.scope).toBe('api');
  });

  test('a refresh token issued to another client → invalid_grant; the rightful client can still use it', async () => {
    const first = await ownTokens(served.url);
    const other = await registerClient(served.url);
    forge.requests.length = 0;
    await expectError(await redeem(served.url, refreshGrant(other, first.refresh_token!)), 400, 'invalid_grant', 'another client');
    expect(forge.requests).toEqual([]);
    expect((await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!))).status).toBe(200);
  });

  test('a v1.at. used as a refresh token, or one naming another resource: refused, nothing sent to the forge', async () => {
    const first = await ownTokens(served.url);
    forge.requests.length = 0;
    await expectError(await redeem(served.url, refreshGrant(first.clientId, first.access_token)), 400, 'invalid_grant', 'not issued by this server');
    await expectError(
      await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!, { resource: 'https://other.example' })),
      400,
      'invalid_target',
    );
    expect(forge.requests).toEqual([]);
  });

  test('a refresh token past OAUTH_REFRESH_TOKEN_TTL_SECONDS is refused', async () => {
    const short = await serveOAuth(forge, { now, env: { OAUTH_REFRESH_TOKEN_TTL_SECONDS: '60' } });
    try {
      resetForge(forge, short);
      const first = await ownTokens(short.url);
      clock = 61_000;
      forge.requests.length = 0;
      await expectError(await redeem(short.url, refreshGrant(first.clientId, first.refresh_token!)), 400, 'invalid_grant', 'expired');
      expect(forge.requests).toEqual([]);
    } finally {
      await short.stop();
    }
  });

  test("upgrade path: the forge's own refresh token from the old behaviour is refused here (sign in again)", async () => {
    const s = await signIn(served.url);
    await redeem(served.url, codeGrant(s));
    const forgeRefresh = 'a'.repeat(64);
    forge.requests.length = 0;
    await expectError(await redeem(served.url, refreshGrant(s.clientId, forgeRefresh)), 400, 'invalid_grant', 'sign in again');
    expect(forge.requests).toEqual([]);
  });

  test('stateless: a refresh token from one replica works on another, and only once there', async () => {
    const first = await ownTokens(replicas.url);
    replicas.route = () => 1;
    const second = await redeem(replicas.url, refreshGrant(first.clientId, first.refresh_token!));
    expect(second.status).toBe(200);
    clock += REFRESH_REUSE_GRACE_MS + 1;
    await expectError(await redeem(replicas.url, refreshGrant(first.clientId, first.refresh_token!)), 400, 'invalid_grant', 'already used');
  });

  test('a forge that cannot answer gives 502 temporarily_unavailable, and the same refresh token works afterwards', async () => {
    const first = await ownTokens(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status: 503 });
    await expectError(await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!)), 502, 'temporarily_unavailable');
    expect((await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!))).status).toBe(200);
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
      await expectError(
        await redeem(served.url, { grant_type: 'refresh_token', client_id: id, refresh_token: junk }, asJson),
        400,
        'invalid_grant',
        'not issued by this server',
      );
    }
    expect(forge.requests.filter((r) => r.path === '/oauth/token')).toEqual([]);
  });

  test('an empty or 100 KB refresh token never reaches the forge either', async () => {
    const id = await registerClient(served.url);
    forge.requests.length = 0;
    await expectError(
      await redeem(served.url, { grant_type: 'refresh_token', client_id: id, refresh_token: '' }),
      400,
      'invalid_request',
      'refresh_token is required',
    );
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', client_id: id, refresh_token: 'a'.repeat(100 * 1024) }), 413, 'invalid_request');
    expect(forge.requests.filter((r) => r.path === '/oauth/token')).toEqual([]);
  });

  test('a forge answer larger than a token answer can be is not read: 502, nothing passed on', async () => {
    const first = await ownTokens(served.url);
    forge.failNext({
      pathIncludes: '/oauth/token',
      status: 200,
      body: { access_token: 'padded-forge-token', token_type: 'Bearer', padding: 'x'.repeat(200 * 1024) },
    });
    const response = await redeem(served.url, refreshGrant(first.clientId, first.refresh_token!));
    await expectError(response, 502, 'temporarily_unavailable');
  });

  test('refresh_token is required', async () => {
    const id = await registerClient(served.url);
    await expectError(await redeem(served.url, { grant_type: 'refresh_token', client_id: id }), 400, 'invalid_request', 'refresh_token is required');
  });
});

describe('the replay cache (SPEC stateless rule 5)', () => {
  test('keeps every entry until its code expires; full, it refuses new redemptions (fail closed)', async () => {
    let t = 1_000_000;
    const guard = new ReplayGuard(() => t, 2);
    expect(await guard.reserve('a', t + 120_000)).toBe('reserved');
    expect(await guard.reserve('a', t + 120_000)).toBe('pending');
    await guard.consume('a');
    expect(await guard.reserve('a', t + 120_000)).toBe('consumed');
    expect(await guard.reserve('b', t + 120_000)).toBe('reserved');
    await guard.release('b');
    expect(await guard.reserve('b', t + 120_000)).toBe('reserved');
    expect(await guard.reserve('c', t + 120_000)).toBe('full');
    t += 120_001;
    expect(await guard.reserve('c', t + 120_000)).toBe('reserved');
    // A consumed entry is never released.
    await guard.consume('c');
    await guard.release('c');
    expect(await guard.reserve('c', t + 120_000)).toBe('consumed');
  });

  // A sealed value opens while its age in whole seconds is within its lifetime, so a v1.pc. code
  // still opens for up to a second past the 120 s (iat + 120 s). In that second it must be refused
  // as expired, as a stored code is then, not as "already used" with a replay warning in the log.
  test('a sealed code in the last second past its lifetime is refused as expired, never as a replay', async () => {
    let t = Math.floor(Date.now() / 1000) * 1000;
    const lines: string[] = [];
    const clients = new MemoryClients(86400, () => t);
    const sealer = Sealer.create({
      secret: Buffer.alloc(32, 5).toString('base64url'),
      ttlSeconds: { cid: 86400, ps: 600, pc: 120, sid: 1, dl: 1 },
      now: () => t,
    });
    const vault = new SealedVault(await sealer, { consent: 600, state: 600, code: 120 });
    const settings = { resource: 'http://x/mcp', serverUrl: 'http://x', forgeApiUrl: 'https://forge.example/api/v4' };
    const tokens = new OwnTokens(sealer, { resource: settings.resource, accessTtlSeconds: 3600, refreshTtlSeconds: 86400 }, () => t);
    const handle = tokenHandler({
      settings,
      clients,
      vault,
      guard: new ReplayGuard(() => t),
      refreshGuard: new ReplayGuard(() => t),
      reuse: new RefreshReuse(sealer, () => t),
      tokens,
      forge: { refresh: async () => ({ ok: false, status: 0, error: 'x', description: 'x' }) },
      logger: createLogger('debug', (line) => lines.push(line)),
      now: () => t,
    });
    const client = await clients.register([REDIRECT], 'c', '10.0.0.1');
    const p = pkce();
    const code = await vault.put('code', {
      c: client.clientId,
      r: REDIRECT,
      rp: true,
      cc: p.challenge,
      sc: 'api',
      t: { access_token: 'forge-token', token_type: 'Bearer' },
      at: 0,
    });
    t += 120_500;
    const response = await handle(
      new Request('http://x/token', {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'authorization_code', client_id: client.clientId, code, code_verifier: p.verifier, redirect_uri: REDIRECT }),
      }),
    );
    await expectError(response, 400, 'invalid_grant', 'the authorization code is invalid or expired');
    expect(lines.join('\n')).not.toContain('oauth_code_replayed');
  });

  test('/token answers 503 temporarily_unavailable when the cache is full, and the code still works later', async () => {
    let t = Date.now();
    const clients = new MemoryClients(86400, () => t);
    const vault = new MemoryVault({ consent: 600, state: 600, code: 120 }, () => t);
    const guard = new ReplayGuard(() => t, 1);
    const settings = { resource: 'http://x/mcp', serverUrl: 'http://x', forgeApiUrl: 'https://forge.example/api/v4' };
    const sealer = Sealer.create({ secret: Buffer.alloc(32, 5).toString('base64url'), ttlSeconds: { cid: 1, ps: 1, pc: 1, sid: 1, dl: 1 }, now: () => t });
    const tokens = new OwnTokens(sealer, { resource: settings.resource, accessTtlSeconds: 3600, refreshTtlSeconds: 86400 }, () => t);
    const refreshGuard = new ReplayGuard(() => t);
    const handle = tokenHandler({
      settings,
      clients,
      vault,
      guard,
      refreshGuard,
      reuse: new RefreshReuse(sealer, () => t),
      tokens,
      forge: { refresh: async () => ({ ok: false, status: 0, error: 'x', description: 'x' }) },
      logger: silentLogger,
      now: () => t,
    });
    const client = await clients.register([REDIRECT], 'c', '10.0.0.1');
    const p = pkce();
    const put = () =>
      vault.put(
        'code',
        { c: client.clientId, r: REDIRECT, rp: true, cc: p.challenge, sc: 'api', t: { access_token: 'forge-token', token_type: 'Bearer' }, at: 0 },
        '10.0.0.1',
      );
    const first = await put();
    const second = await put();
    const request = (code: string) =>
      handle(
        new Request('http://x/token', {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'authorization_code', client_id: client.clientId, code, code_verifier: p.verifier, redirect_uri: REDIRECT }),
        }),
      );
    expect((await request(first)).status).toBe(200);
    await expectError(await request(second), 503, 'temporarily_unavailable', 'try again');
    t += 121_000;
    const third = await put();
    expect((await request(third)).status).toBe(200);
  });
});
