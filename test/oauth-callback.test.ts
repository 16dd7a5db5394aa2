// GET /callback (docs/spec.md Errors, D22): an unknown or expired state is a 400 page with docs/spec.md's
// text; with a valid state, a forge error goes back to the client's redirect URI (RFC 6749 §4.1.2.1,
// RFC 9207) with its state and `iss`; otherwise the forge code is exchanged with this server's
// verifier and the browser goes to the client with its state and a proxy code.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { TinyBrowser, parseConsentForm } from './support/fake-oauth-client';
import { FORGE_APP_ID, FORGE_APP_SECRET, registerForgeApp, serveOAuth, type ServedOAuth, resetForge, stopAll } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, pkce, registerClient, signIn } from './support/fake-oauth-steps';

let forge: FakeForge;
let served: ServedOAuth;
let stateless: ServedOAuth;
let confidential: ServedOAuth;
let clock = 0;
const now = () => Date.now() + clock;

beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge, { now });
  stateless = await serveOAuth(forge, { now, env: { OAUTH_STATELESS_MODE: 'true' } });
  confidential = await serveOAuth(forge, { confidential: true });
});
beforeEach(() => {
  clock = 0;
  resetForge(forge, served, stateless);
});
afterAll(() => stopAll(forge, served, stateless, confidential));

/** Runs a sign-in up to the forge's redirect back to /callback, which is returned unfollowed. */
async function upToCallback(base: string): Promise<{ browser: TinyBrowser; callback: string; forgeChallenge: string }> {
  const id = await registerClient(base);
  const browser = new TinyBrowser();
  const start = authorizeUrl(base, { client_id: id, code_challenge: pkce().challenge, state: 'st-cb' });
  const form = parseConsentForm(await (await browser.request(start)).text(), start)!;
  const toForge = (await browser.submitConsent(form, 'approve')).headers.get('location')!;
  const forgeChallenge = new URL(toForge).searchParams.get('code_challenge')!;
  const back = (await browser.request(toForge)).headers.get('location')!;
  expect(back).toStartWith(`${base}/callback?`);
  return { browser, callback: back, forgeChallenge };
}

/** The same, for an authorization request without a state. */
async function upToCallbackWithoutState(base: string): Promise<{ browser: TinyBrowser; callback: string }> {
  const id = await registerClient(base);
  const browser = new TinyBrowser();
  const start = authorizeUrl(base, { client_id: id, code_challenge: pkce().challenge });
  const form = parseConsentForm(await (await browser.request(start)).text(), start)!;
  const toForge = (await browser.submitConsent(form, 'approve')).headers.get('location')!;
  return { browser, callback: (await browser.request(toForge)).headers.get('location')! };
}

async function expectUnknownState(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('location')).toBeNull();
  expect(await response.text()).toContain('Unknown or expired state parameter');
}

const tokenRequests = () => forge.requests.filter((r) => r.path === '/oauth/token');

describe('state', () => {
  test.each([
    ['no state', ''],
    ['an unknown state', '&state=made-up-state'],
  ])('%s → 400 "Unknown or expired state parameter"', async (_, state) => {
    for (const s of [served, stateless]) await expectUnknownState(await fetch(`${s.url}/callback?code=abc${state}`, { redirect: 'manual' }));
    expect(tokenRequests()).toEqual([]);
  });

  test.each(['memory', 'stateless'])('an expired state (older than 600 s) → 400, the forge code is not exchanged (%s)', async (mode) => {
    const base = mode === 'memory' ? served.url : stateless.url;
    const { browser, callback } = await upToCallback(base);
    clock = 601_000;
    await expectUnknownState(await browser.request(callback));
    expect(tokenRequests()).toEqual([]);
  });

  test('a tampered sealed state → 400', async () => {
    const { browser, callback } = await upToCallback(stateless.url);
    const url = new URL(callback);
    const state = url.searchParams.get('state')!;
    url.searchParams.set('state', `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`);
    await expectUnknownState(await browser.request(url.href));
  });

  test('the forge\'s return in a browser other than the one that approved → 400, no exchange', async () => {
    // Someone approves their own client and sends the forge link on to a victim.
    const { callback } = await upToCallback(served.url);
    const victim = new TinyBrowser();
    const response = await victim.request(callback);
    await expectUnknownState(response);
    expect(tokenRequests()).toEqual([]);
  });

  test.each(['memory', 'stateless'])('a forge error with an unknown or expired state → 400 "Unknown or expired state parameter", no redirect (%s)', async (mode) => {
    const base = mode === 'memory' ? served.url : stateless.url;
    await expectUnknownState(await fetch(`${base}/callback?error=access_denied&state=made-up-state`, { redirect: 'manual' }));
    await expectUnknownState(await fetch(`${base}/callback?error=access_denied`, { redirect: 'manual' }));
    const { browser, callback } = await upToCallback(base);
    const url = new URL(callback);
    url.searchParams.delete('code');
    url.searchParams.set('error', 'access_denied');
    clock = 601_000;
    await expectUnknownState(await browser.request(url.href));
  });

  test('a state is used once (memory mode)', async () => {
    const { browser, callback } = await upToCallback(served.url);
    expect((await browser.request(callback)).status).toBe(302);
    expect((await browser.request(callback)).status).toBe(400);
  });
});

describe('forge answers', () => {
  test.each(['memory', 'stateless'])('the user denies access at the forge → access_denied, the client\'s state and iss at its redirect URI (%s)', async (mode) => {
    const base = mode === 'memory' ? served.url : stateless.url;
    forge.oauth.denyNext = true;
    const id = await registerClient(base);
    const browser = new TinyBrowser();
    const landing = await browser.signIn(authorizeUrl(base, { client_id: id, code_challenge: pkce().challenge, state: 'st-deny' }), REDIRECT);
    expect(`${landing.url.origin}${landing.url.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(landing.url.searchParams)).toEqual({ error: 'access_denied', error_description: 'The forge did not authorize access: access_denied', state: 'st-deny', iss: base });
    // The forge's own description is not passed on.
    expect(landing.url.href).not.toContain('resource owner');
    // The consent cookie is cleared, and nothing was exchanged at the forge.
    expect([...(browser.cookies.get('127.0.0.1') ?? new Map()).keys()]).toEqual([]);
    expect(tokenRequests()).toEqual([]);
  });

  test('a client that sent no state gets the error without one', async () => {
    const { browser, callback } = await upToCallbackWithoutState(served.url);
    const url = new URL(callback);
    url.searchParams.delete('code');
    url.searchParams.set('error', 'access_denied');
    const response = await browser.request(url.href);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', error_description: 'The forge did not authorize access: access_denied', iss: served.url });
  });

  test.each(['invalid_request', 'unauthorized_client', 'unsupported_response_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'])('the forge\'s RFC 6749 error %s is passed on to the client', async (code) => {
    const { browser, callback } = await upToCallback(served.url);
    const url = new URL(callback);
    url.searchParams.delete('code');
    url.searchParams.set('error', code);
    const response = await browser.request(url.href);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe(code);
    expect(location.searchParams.get('state')).toBe('st-cb');
    expect(location.searchParams.get('iss')).toBe(served.url);
    // The state is spent.
    expect((await browser.request(url.href)).status).toBe(400);
  });

  test('the forge refuses the code exchange → 400 page', async () => {
    const { browser, callback } = await upToCallback(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status: 400, body: { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' } });
    const response = await browser.request(callback);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_grant');
  });

  test.each([
    ['shorter than any forge code', 'abc'],
    ['5,000 characters', 'a'.repeat(5000)],
    ['spaces', 'a code with spaces in it'],
    ['control characters', `${'a'.repeat(20)}\u0000\r\n`],
    ['non-ASCII characters', `${'a'.repeat(20)}é\u202E`],
  ])('a code with %s is never relayed to the forge: 400 page', async (_, junk) => {
    const { browser, callback } = await upToCallback(served.url);
    const url = new URL(callback);
    url.searchParams.set('code', junk);
    const response = await browser.request(url.href);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Malformed authorization code');
    expect(tokenRequests()).toEqual([]);
  });

  test('an error code that is not RFC 6749\'s reaches the client as server_error; no text from the address is passed on', async () => {
    const { browser, callback } = await upToCallback(served.url);
    const url = new URL(callback);
    url.searchParams.delete('code');
    url.searchParams.set('error', 'access_denied\u202E<b>');
    url.searchParams.set('error_description', `Denied\u200B\u202Eyb ${'x'.repeat(10_000)}`);
    url.searchParams.set('error_uri', 'https://evil.example/explain');
    const response = await browser.request(url.href);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'server_error', error_description: 'The forge did not authorize access', state: 'st-cb', iss: served.url });
    expect(tokenRequests()).toEqual([]);
  });

  test('a forge token answer over 64 KB is not read: 502 page', async () => {
    const { browser, callback } = await upToCallback(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status: 200, body: { access_token: 'forge-token', token_type: 'Bearer', padding: 'x'.repeat(100 * 1024) } });
    const response = await browser.request(callback);
    expect(response.status).toBe(502);
  });

  test('the forge fails (500) → 502 page', async () => {
    const { browser, callback } = await upToCallback(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status: 500 });
    expect((await browser.request(callback)).status).toBe(502);
  });
});

describe('success', () => {
  test('the client gets its state and a proxy code; the forge code was exchanged with this server\'s verifier', async () => {
    const { browser, callback, forgeChallenge } = await upToCallback(served.url);
    const response = await browser.request(callback);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-cb');
    expect(location.searchParams.get('iss')).toBe(served.url);
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers.getSetCookie()[0]).toContain('Max-Age=0');
    const [exchange] = tokenRequests();
    const body = exchange.body as Record<string, string>;
    expect(body).toMatchObject({ grant_type: 'authorization_code', client_id: FORGE_APP_ID, redirect_uri: `${served.url}/callback` });
    expect(body.client_secret).toBeUndefined();
    expect(createHash('sha256').update(body.code_verifier).digest('base64url')).toBe(forgeChallenge);
    // The forge's tokens are not in the URL the client receives.
    for (const token of forge.oauth.accessTokens) expect(location.href).not.toContain(token);
  });

  test('stateless mode hands out a sealed v1.pc. proxy code', async () => {
    const { landing } = await signIn(stateless.url);
    expect(landing.code).toStartWith('v1.pc.');
    expect(landing.state).toBe('client-state-1');
    const [token] = forge.oauth.accessTokens;
    expect(landing.code).not.toContain(token);
  });

  test('a confidential forge application sends its secret in the exchange', async () => {
    forge.reset();
    registerForgeApp(forge, confidential.url, true);
    const { landing } = await signIn(confidential.url);
    expect(landing.code).toBeTruthy();
    expect((tokenRequests()[0].body as Record<string, string>).client_secret).toBe(FORGE_APP_SECRET);
  });
});
