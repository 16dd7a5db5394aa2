// GET /authorize (D22, D24): nothing is ever redirected to an unregistered URI; PKCE S256
// is required; then the consent page, or with MCP_OAUTH_CONSENT=false straight to the forge with
// this server's own client id, PKCE pair, callback and state.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { FORGE_APP_ID, registerForgeApp, serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, pkce, registerClient } from './support/fake-oauth-steps';

let forge: FakeForge;
let served: ServedOAuth;
let direct: ServedOAuth;
let stateless: ServedOAuth;
beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge);
  direct = await serveOAuth(forge, { env: { MCP_OAUTH_CONSENT: 'false' } });
  stateless = await serveOAuth(forge, { env: { MCP_OAUTH_CONSENT: 'false', OAUTH_STATELESS_MODE: 'true' } });
});
beforeEach(() => {
  forge.reset();
  for (const s of [served, direct, stateless]) registerForgeApp(forge, s.url);
});
afterAll(async () => {
  await Promise.all([served.stop(), direct.stop(), stateless.stop()]);
  await forge.stop();
});

const get = (url: string) => fetch(url, { redirect: 'manual' });
/** D36's characters. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

async function expectUnregistered(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
}

describe('client and redirect URI', () => {
  test.each([
    ['an unknown client_id', (id: string) => ({ client_id: `${id}x` })],
    ['no client_id', () => ({ client_id: undefined })],
    ['a redirect_uri the client did not register', () => ({ redirect_uri: 'https://evil.example/callback' })],
    ['a registered URI with a trailing slash', () => ({ redirect_uri: `${REDIRECT}/` })],
    ['a registered loopback URI on another host spelling', () => ({ redirect_uri: REDIRECT.replace('127.0.0.1', 'localhost') })],
    ['a registered loopback URI with another path on another port', () => ({ redirect_uri: 'http://127.0.0.1:33419/callback2' })],
    // Matching on any port (D28) still needs a port: one past 65535 names no URI to redirect to.
    ['a registered loopback URI on a port past 65535', () => ({ redirect_uri: 'http://127.0.0.1:65536/callback' })],
    ['a registered loopback URI on port 99999', () => ({ redirect_uri: 'http://127.0.0.1:99999/callback' })],
  ])('%s → 400 "Unregistered redirect_uri", no redirect, nothing sent to the forge', async (_, params) => {
    for (const s of [served, stateless]) {
      const id = await registerClient(s.url);
      await expectUnregistered(await get(authorizeUrl(s.url, { client_id: id, code_challenge: pkce().challenge, ...params(id) })));
    }
    expect(forge.requests).toEqual([]);
  });

  // D28 (RFC 8252 §7.3): a loopback redirect URI matches on any port, for registrations too.
  test('a registered loopback URI on another port is accepted in every mode; the consent page names that URI', async () => {
    const otherPort = 'http://127.0.0.1:33419/callback';
    expect(otherPort).not.toBe(REDIRECT);
    const id = await registerClient(served.url);
    const page = await get(authorizeUrl(served.url, { client_id: id, redirect_uri: otherPort, code_challenge: pkce().challenge }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<code>${otherPort}</code>`);
    for (const s of [direct, stateless]) {
      const response = await get(authorizeUrl(s.url, { client_id: await registerClient(s.url), redirect_uri: otherPort, code_challenge: pkce().challenge }));
      expect(response.status).toBe(302);
      expect(response.headers.get('location')!.startsWith(`${new URL(forge.apiUrl).origin}/oauth/authorize?`)).toBe(true);
    }
  });

  test('a non-loopback registered URI on another port is refused', async () => {
    for (const s of [served, stateless]) {
      const id = await registerClient(s.url, ['https://app.example.com/cb']);
      await expectUnregistered(
        await get(authorizeUrl(s.url, { client_id: id, redirect_uri: 'https://app.example.com:8443/cb', code_challenge: pkce().challenge })),
      );
    }
    expect(forge.requests).toEqual([]);
  });

  test('without redirect_uri, the only registered one is used', async () => {
    const id = await registerClient(served.url);
    const response = await get(authorizeUrl(served.url, { client_id: id, redirect_uri: undefined, code_challenge: pkce().challenge }));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`<code>${REDIRECT}</code>`);
  });

  test('without redirect_uri, a client with two registered URIs gets 400', async () => {
    const id = await registerClient(served.url, [REDIRECT, 'https://app.example.com/cb']);
    await expectUnregistered(await get(authorizeUrl(served.url, { client_id: id, redirect_uri: undefined, code_challenge: pkce().challenge })));
  });
});

describe('request errors go back to the registered redirect URI (RFC 6749 §4.1.2.1)', () => {
  test.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request', 'PKCE is required'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request', 'PKCE is required'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request', 'PKCE is required'],
    ['a malformed code_challenge', { code_challenge: 'short' }, 'invalid_request', 'code_challenge must be'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type', 'response_type must be code'],
    ['another resource', { resource: 'https://other.example/mcp' }, 'invalid_target', 'resource must be'],
    ['an overlong state', { state: 's'.repeat(1025) }, 'invalid_request', 'state must be at most'],
  ] as [string, Record<string, string | undefined>, string, string][])('%s', async (_, params, error, description) => {
    const id = await registerClient(served.url);
    const response = await get(authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-1', ...params }));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toContain(description);
    expect(location.searchParams.get('state')).toBe(params.state ?? 'st-1');
    expect(location.searchParams.get('iss')).toBe(served.url);
    expect(forge.requests).toEqual([]);
  });

  test("resource naming this server's /mcp is accepted in any spelling of its scheme and host", async () => {
    const id = await registerClient(served.url);
    for (const resource of [`${served.url}/mcp`, `${served.url.replace('http://', 'HTTP://')}/mcp`]) {
      const response = await get(authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge, resource }));
      expect(response.status).toBe(200);
    }
  });

  // D29: the resource is `{MCP_SERVER_URL}/mcp` itself, not the server's base URL or a variant of it.
  test.each([
    ['the base URL', ''],
    ['the base URL with a trailing slash', '/'],
    ['/mcp with a trailing slash', '/mcp/'],
    ['/mcp with a query', '/mcp?tenant=1'],
    ['/mcp with an empty query', '/mcp?'],
    ['/mcp with a fragment', '/mcp#top'],
    ['another path', '/mcp/x'],
  ])('resource naming %s → invalid_target back to the client', async (_, suffix) => {
    const id = await registerClient(served.url);
    const response = await get(
      authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-r', resource: `${served.url}${suffix}` }),
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('invalid_target');
    expect(location.searchParams.get('error_description')).toBe(`resource must be ${served.url}/mcp`);
    expect(location.searchParams.get('state')).toBe('st-r');
    expect(forge.requests).toEqual([]);
  });
});

/** `url` with `name` added once more (the helpers set each parameter once). */
function withAgain(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.append(name, value);
  return u.href;
}

describe('a parameter sent more than once (RFC 6749 §3.1)', () => {
  test.each(['client_id', 'redirect_uri'])(
    '%s twice, even with the same value → 400 invalid_request naming it, no redirect, nothing sent to the forge',
    async (name) => {
      for (const s of [served, stateless]) {
        const id = await registerClient(s.url);
        const url = authorizeUrl(s.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-2' });
        const response = await get(withAgain(url, name, new URL(url).searchParams.get(name)!));
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(await response.json()).toEqual({ error: 'invalid_request', error_description: `${name} must not be included more than once` });
      }
      expect(forge.requests).toEqual([]);
    },
  );

  test.each([
    ['response_type', 'code'],
    ['code_challenge_method', 'S256'],
    ['code_challenge', pkce().challenge],
    ['scope', 'read_api'],
    ['state', 'st-other'],
  ])('%s twice → invalid_request naming it, back to the client', async (name, value) => {
    for (const s of [served, stateless]) {
      const id = await registerClient(s.url);
      const response = await get(withAgain(authorizeUrl(s.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-2', scope: 'api' }), name, value));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toBe(`${name} must not be included more than once`);
      expect(location.searchParams.get('state')).toBe('st-2');
      expect(location.searchParams.get('iss')).toBe(s.url);
    }
    expect(forge.requests).toEqual([]);
  });

  test('resource may come more than once (RFC 8707), but each must name this server (D29)', async () => {
    const id = await registerClient(served.url);
    const url = authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-3', resource: `${served.url}/mcp` });
    expect((await get(withAgain(url, 'resource', `${served.url}/mcp`))).status).toBe(200);
    const response = await get(withAgain(url, 'resource', 'https://other.example/mcp'));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_target');
    expect(location.searchParams.get('state')).toBe('st-3');
  });

  test('a parameter this endpoint does not read may repeat: it is ignored (RFC 6749 §3.1)', async () => {
    const id = await registerClient(served.url);
    const url = withAgain(withAgain(authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge }), 'prompt', 'consent'), 'prompt', 'login');
    expect((await get(url)).status).toBe(200);
  });
});

describe('the consent page (D24)', () => {
  test('names the client, its redirect host, the forge and the scope, with Approve and Deny', async () => {
    const id = await registerClient(served.url, [REDIRECT], 'Claude Code');
    const response = await get(authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge }));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<strong>Claude Code</strong>');
    expect(html).toContain('<strong>127.0.0.1:33418</strong>');
    expect(html).toContain(`<code>${REDIRECT}</code>`);
    expect(html).toContain(`Allow access to ${new URL(forge.apiUrl).host}?`);
    expect(html).toContain('<code>api</code>');
    expect(html).toContain('value="approve">Approve</button>');
    expect(html).toContain('value="deny">Deny</button>');
    expect(html).toContain(`action="${served.url}/consent"`);
    expect(forge.requests).toEqual([]);
  });

  test('cannot be framed, cached or run scripts; sets an HttpOnly SameSite=Lax cookie binding the browser', async () => {
    const id = await registerClient(served.url);
    const response = await get(authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge }));
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const cookie = response.headers.getSetCookie();
    expect(cookie).toHaveLength(1);
    expect(cookie[0]).toMatch(/^forge-mcp-auth-[A-Za-z0-9_-]+=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax$/);
  });

  test('an https server uses a __Host- cookie with Secure', async () => {
    const secure = await serveOAuth(forge, { env: { MCP_SERVER_URL: 'https://mcp.example.com' } });
    try {
      const id = await registerClient(secure.url);
      const response = await get(authorizeUrl(secure.url, { client_id: id, code_challenge: pkce().challenge }));
      expect(response.headers.getSetCookie()[0]).toMatch(/^__Host-forge-mcp-auth-[^;]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
      expect(await response.text()).toContain('action="https://mcp.example.com/consent"');
    } finally {
      await secure.stop();
    }
  });

  test('the client name and redirect URI are escaped', async () => {
    const uri = 'https://app.example.com/cb?a=1&b=2';
    const id = await registerClient(served.url, [uri], '<img src=x onerror=alert(1)>');
    const html = await (await get(authorizeUrl(served.url, { client_id: id, redirect_uri: uri, code_challenge: pkce().challenge }))).text();
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(html).toContain('<code>https://app.example.com/cb?a=1&#38;b=2</code>');
  });

  test('the page shows the client name without invisible or bidirectional characters (D36)', async () => {
    // "Cursor" followed by a right-to-left override that would make "exe.cod" read "doc.exe".
    const id = await registerClient(served.url, [REDIRECT], 'Cur\u200Bsor \u202Eexe.cod\u202C\u2066\uFEFF\u{E0041}');
    const html = await (await get(authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge }))).text();
    expect(html).toContain('<strong>Cursor exe.cod</strong>');
    expect(html).not.toMatch(INVISIBLE);
  });

  test('an unnamed client is shown as such', async () => {
    const response = await fetch(`${served.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    const { client_id } = (await response.json()) as { client_id: string };
    const html = await (await get(authorizeUrl(served.url, { client_id, code_challenge: pkce().challenge }))).text();
    expect(html).toContain('An unnamed application');
  });
});

describe('MCP_OAUTH_CONSENT=false', () => {
  test("redirects straight to the forge with this server's client id, own PKCE pair, callback and state", async () => {
    const id = await registerClient(direct.url);
    const client = pkce();
    const response = await get(authorizeUrl(direct.url, { client_id: id, code_challenge: client.challenge, state: 'st-9' }));
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie()).toEqual([]);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${new URL(forge.apiUrl).origin}/oauth/authorize`);
    const q = Object.fromEntries(location.searchParams);
    expect(q).toMatchObject({
      client_id: FORGE_APP_ID,
      redirect_uri: `${direct.url}/callback`,
      response_type: 'code',
      scope: 'api',
      code_challenge_method: 'S256',
    });
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.code_challenge).not.toBe(client.challenge);
    expect(q.state).not.toContain('st-9');
    expect(q.state).not.toStartWith('v1.');
  });

  test('stateless mode seals the state as v1.ps.', async () => {
    const id = await registerClient(stateless.url);
    const response = await get(authorizeUrl(stateless.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-9' }));
    const state = new URL(response.headers.get('location')!).searchParams.get('state')!;
    expect(state).toStartWith('v1.ps.');
    // Sealed, not merely signed: the client's state and the verifier are not readable in it.
    expect(Buffer.from(state.slice('v1.ps.'.length), 'base64url').toString('latin1')).not.toContain('st-9');
  });
});
