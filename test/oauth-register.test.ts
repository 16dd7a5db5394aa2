// POST /register (RFC 7591, D22): which redirect URIs are accepted, the answer, the signed
// `v1.cid.` client id of stateless mode, and the per-IP limit.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Sealer } from '../src/sealing/sealer';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { SECRET, serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { authorizeUrl, pkce, postJson } from './support/fake-oauth-steps';

let forge: FakeForge;
let served: ServedOAuth;
let stateless: ServedOAuth;
beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge);
  stateless = await serveOAuth(forge, { env: { OAUTH_STATELESS_MODE: 'true' } });
});
afterAll(async () => {
  await Promise.all([served.stop(), stateless.stop()]);
  await forge.stop();
});

const register = (base: string, body: unknown) => postJson(`${base}/register`, body);

describe('accepted redirect URIs', () => {
  test.each([
    ['https', 'https://app.example.com/oauth/callback'],
    ['loopback http (localhost)', 'http://localhost:8787/callback'],
    ['loopback http (127.0.0.1)', 'http://127.0.0.1:33418/callback'],
    ['loopback http ([::1])', 'http://[::1]:33418/callback'],
    ["Cursor's private-use scheme", 'cursor://anysphere.cursor-mcp/oauth/callback'],
    ["VS Code's private-use scheme", 'vscode://vscode.github-authentication/did-authenticate'],
    ['a reverse-domain scheme', 'com.example.app:/oauth2redirect'],
  ])('%s', async (_, uri) => {
    const response = await register(served.url, { client_name: 'Editor', redirect_uris: [uri] });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_name: 'Editor',
      redirect_uris: [uri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    expect(typeof body.client_id).toBe('string');
    expect(body.client_id as string).not.toStartWith('v1.');
    expect(typeof body.client_id_issued_at).toBe('number');
    expect(body.client_secret).toBeUndefined();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('refused registrations', () => {
  test.each([
    ['plain http to a public host', 'http://app.example.com/callback', 'http is allowed only for loopback'],
    ['javascript:', 'javascript:alert(1)', 'the javascript: scheme is not allowed'],
    ['data:', 'data:text/html,hi', 'the data: scheme is not allowed'],
    ['file:', 'file:///etc/passwd', 'the file: scheme is not allowed'],
    ['a fragment', 'https://app.example.com/cb#frag', 'must not contain a fragment'],
    ['credentials in the URI', 'https://user:pw@app.example.com/cb', 'must not contain credentials'],
    ['a relative URI', '/callback', 'must be an absolute URI'],
    ['angle brackets', 'https://app.example.com/cb?x=<script>', 'must not contain spaces, quotes, angle brackets'],
    ['a non-string', 42, 'must be a non-empty string'],
    ['a right-to-left override', 'https://app.example.com/cb/\u202Egpj.exe', 'must not contain control, invisible or bidirectional characters'],
    ['a zero-width space', 'https://app.example.com/c\u200Bb', 'must not contain control, invisible or bidirectional characters'],
    ['a tag character', 'cursor://anysphere.cursor-mcp/cb\u{E0041}', 'must not contain control, invisible or bidirectional characters'],
    ['a NUL byte', 'https://app.example.com/cb\u0000', 'must not contain control, invisible or bidirectional characters'],
    ['a DEL character', 'myapp:/cb\u007f', 'must not contain control, invisible or bidirectional characters'],
  ])('%s → 400 invalid_redirect_uri', async (_, uri, problem) => {
    const response = await register(served.url, { redirect_uris: ['https://ok.example.com/cb', uri] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_redirect_uri');
    expect(body.error_description).toStartWith('redirect_uris[1]: ');
    expect(body.error_description).toContain(problem);
  });

  test.each([
    ['no redirect_uris', { client_name: 'x' }],
    ['an empty list', { redirect_uris: [] }],
    ['a string instead of a list', { redirect_uris: 'https://app.example.com/cb' }],
    ['eleven URIs', { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example.com/cb${i}`) }],
  ])('%s → 400 invalid_redirect_uri', async (_, body) => {
    const response = await register(served.url, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_redirect_uri');
  });

  test.each([
    ['a body that is not JSON', 'not json'],
    ['a JSON array', '[]'],
    ['a non-string client_name', JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 7 })],
    ['an overlong client_name', JSON.stringify({ redirect_uris: ['https://a.example/cb'], client_name: 'n'.repeat(201) })],
  ])('%s → 400 invalid_client_metadata', async (_, body) => {
    const response = await fetch(`${served.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });
});

describe('client_name', () => {
  test('invisible and bidirectional characters (D36) are removed from the name kept and answered', async () => {
    const hidden =
      '\u200B\u200C\u200D\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\uFEFF\u{E0001}\u{E0041}\u{E007F}';
    for (const base of [served.url, stateless.url]) {
      const response = await register(base, { client_name: `Cur${hidden}sor\u202Eedoc`, redirect_uris: ['https://app.example.com/cb'] });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { client_name: string };
      expect(body.client_name).toBe('Cursoredoc');
    }
  });

  test('a name of nothing but invisible characters counts as no name', async () => {
    const response = await register(served.url, { client_name: '\u202E\u200B\uFEFF', redirect_uris: ['https://app.example.com/cb'] });
    expect(response.status).toBe(201);
    expect(((await response.json()) as Record<string, unknown>).client_name).toBeUndefined();
  });
});

describe('stateless mode', () => {
  test('two identical registrations in the same second get client ids of their own', async () => {
    const body = { client_name: 'Twin', redirect_uris: ['https://app.example.com/cb'] };
    const [a, b] = await Promise.all([register(stateless.url, body), register(stateless.url, body)]);
    const first = (await a.json()) as { client_id: string; client_id_issued_at: number };
    const second = (await b.json()) as { client_id: string; client_id_issued_at: number };
    expect(first.client_id_issued_at).toBe(second.client_id_issued_at);
    expect(first.client_id).not.toBe(second.client_id);
    for (const id of [first.client_id, second.client_id]) {
      const page = await fetch(authorizeUrl(stateless.url, { client_id: id, redirect_uri: 'https://app.example.com/cb', code_challenge: pkce().challenge }));
      expect(page.status).toBe(200);
    }
  });

  test('a client id issued before ids carried a nonce still works', async () => {
    const sealer = await Sealer.create({ secret: SECRET, ttlSeconds: { cid: 86400, ps: 600, pc: 120, sid: 3600, dl: 900 } });
    const old = await sealer.seal('cid', { r: ['https://old.example/cb'], n: 'Old Editor' });
    const page = await fetch(authorizeUrl(stateless.url, { client_id: old, redirect_uri: 'https://old.example/cb', code_challenge: pkce().challenge }));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<strong>Old Editor</strong>');
  });

  test('a name sealed into a client id before names were cleaned is shown without invisible characters', async () => {
    const sealer = await Sealer.create({ secret: SECRET, ttlSeconds: { cid: 86400, ps: 600, pc: 120, sid: 3600, dl: 900 } });
    const old = await sealer.seal('cid', { r: ['https://old.example/cb'], n: 'Tr\u200Busted \u202Eedit\u2069\u{E0020}' });
    const html = await (
      await fetch(authorizeUrl(stateless.url, { client_id: old, redirect_uri: 'https://old.example/cb', code_challenge: pkce().challenge }))
    ).text();
    expect(html).toContain('<strong>Trusted edit</strong>');
    expect(html).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u);
  });

  test('a registration too large for a client id that would open is refused, not handed out dead', async () => {
    const uris = Array.from({ length: 10 }, (_, i) => `https://app.example.com/${i}/${'p'.repeat(1900)}`);
    const response = await register(stateless.url, { client_name: 'Big', redirect_uris: uris });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_client_metadata');
    expect(body.error_description).toContain('fewer or shorter redirect URIs');
    // The same registration is fine where nothing has to fit in the id.
    expect((await register(served.url, { client_name: 'Big', redirect_uris: uris })).status).toBe(201);
  });

  test('the client id is a signed v1.cid. value any replica can read: it works at /authorize', async () => {
    const response = await register(stateless.url, { client_name: 'Cursor', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] });
    expect(response.status).toBe(201);
    const { client_id } = (await response.json()) as { client_id: string };
    expect(client_id).toStartWith('v1.cid.');
    const payload = JSON.parse(Buffer.from(client_id.split('.')[2], 'base64url').toString());
    expect(payload).toMatchObject({ r: ['cursor://anysphere.cursor-mcp/oauth/callback'], n: 'Cursor' });
    const page = await fetch(
      authorizeUrl(stateless.url, { client_id, redirect_uri: 'cursor://anysphere.cursor-mcp/oauth/callback', code_challenge: pkce().challenge }),
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<strong>Cursor</strong>');
  });

  test('a client id with a changed payload is unknown: 400 Unregistered redirect_uri', async () => {
    const { client_id } = (await (await register(stateless.url, { redirect_uris: ['https://good.example/cb'] })).json()) as { client_id: string };
    const [v, kind, , mac] = client_id.split('.');
    const forged = `${v}.${kind}.${Buffer.from(JSON.stringify({ r: ['https://evil.example/cb'], iat: Math.floor(Date.now() / 1000) })).toString('base64url')}.${mac}`;
    const response = await fetch(
      authorizeUrl(stateless.url, { client_id: forged, redirect_uri: 'https://evil.example/cb', code_challenge: pkce().challenge }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
  });
});

describe('rate limit', () => {
  test('registrations are limited per client IP: 429 with Retry-After beyond MAX_REQUESTS_PER_MINUTE', async () => {
    const limited = await serveOAuth(forge, { env: { MAX_REQUESTS_PER_MINUTE: '2' } });
    try {
      const body = { redirect_uris: ['https://app.example.com/cb'] };
      expect((await register(limited.url, body)).status).toBe(201);
      expect((await register(limited.url, body)).status).toBe(201);
      const refused = await register(limited.url, body);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Rate limit exceeded' });
      // Another address (behind a trusted proxy it would be the forwarded one) is not affected.
      const other = await limited.apps[0].handle(
        new Request(`${limited.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        '10.0.0.9',
      );
      expect(other.status).toBe(201);
    } finally {
      await limited.stop();
    }
  });

  test('stateless mode runs no in-app limiter (SPEC stateless rule 7)', async () => {
    const free = await serveOAuth(forge, { env: { MAX_REQUESTS_PER_MINUTE: '1', OAUTH_STATELESS_MODE: 'true' } });
    try {
      for (let i = 0; i < 3; i++) expect((await register(free.url, { redirect_uris: ['https://app.example.com/cb'] })).status).toBe(201);
    } finally {
      await free.stop();
    }
  });
});
