// GET /callback (docs/spec.md Errors, D22): an unknown or expired state is a 400 page with docs/spec.md's
// text; with a valid state, a forge error goes back to the client's redirect URI (RFC 6749 §4.1.2.1,
// RFC 9207) with its state and `iss`, and so does every later failure (no or a malformed code, the
// forge refusing the exchange: server_error; the forge unreachable, not answering or failing:
// temporarily_unavailable), never with the forge's text; otherwise the forge code is exchanged with
// this server's verifier and the browser goes to the client with its state and a proxy code.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { TinyBrowser, parseConsentForm } from './support/fake-oauth-client';
import { FORGE_APP_ID, FORGE_APP_SECRET, registerForgeApp, serveOAuth, type ServedOAuth, resetForge, stopAll } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, pkce, registerClient, signIn } from './support/fake-oauth-steps';
import { capturingLogger } from './support/log-capture';

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

/** A sign-in up to the browser's redirect to the forge, which is not followed: the forge's authorize URL. */
async function upToForge(base: string): Promise<{ browser: TinyBrowser; toForge: URL }> {
  const id = await registerClient(base);
  const browser = new TinyBrowser();
  const start = authorizeUrl(base, { client_id: id, code_challenge: pkce().challenge, state: 'st-cb' });
  const form = parseConsentForm(await (await browser.request(start)).text(), start)!;
  return { browser, toForge: new URL((await browser.submitConsent(form, 'approve')).headers.get('location')!) };
}

/**
 * A failure after a valid state: the browser goes to the client's redirect URI with `error`, our own
 * description (never the forge's), the client's state and iss (RFC 6749 §4.1.2.1, RFC 9207), and the
 * consent cookie is cleared.
 */
async function expectClientError(response: Response, base: string, error: string, description: string) {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(Object.fromEntries(location.searchParams)).toEqual({ error, error_description: description, state: 'st-cb', iss: base });
  expect(response.headers.getSetCookie()[0]).toContain('Max-Age=0');
  return location;
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

  test("the forge's return in a browser other than the one that approved → 400, no exchange", async () => {
    // Someone approves their own client and sends the forge link on to a victim.
    const { callback } = await upToCallback(served.url);
    const victim = new TinyBrowser();
    const response = await victim.request(callback);
    await expectUnknownState(response);
    expect(tokenRequests()).toEqual([]);
  });

  test.each(['memory', 'stateless'])(
    'a forge error with an unknown or expired state → 400 "Unknown or expired state parameter", no redirect (%s)',
    async (mode) => {
      const base = mode === 'memory' ? served.url : stateless.url;
      await expectUnknownState(await fetch(`${base}/callback?error=access_denied&state=made-up-state`, { redirect: 'manual' }));
      await expectUnknownState(await fetch(`${base}/callback?error=access_denied`, { redirect: 'manual' }));
      const { browser, callback } = await upToCallback(base);
      const url = new URL(callback);
      url.searchParams.delete('code');
      url.searchParams.set('error', 'access_denied');
      clock = 601_000;
      await expectUnknownState(await browser.request(url.href));
    },
  );

  test('a state is used once (memory mode)', async () => {
    const { browser, callback } = await upToCallback(served.url);
    expect((await browser.request(callback)).status).toBe(302);
    expect((await browser.request(callback)).status).toBe(400);
  });
});

describe('forge answers', () => {
  test.each(['memory', 'stateless'])(
    "the user denies access at the forge → access_denied, the client's state and iss at its redirect URI (%s)",
    async (mode) => {
      const base = mode === 'memory' ? served.url : stateless.url;
      forge.oauth.denyNext = true;
      const id = await registerClient(base);
      const browser = new TinyBrowser();
      const landing = await browser.signIn(authorizeUrl(base, { client_id: id, code_challenge: pkce().challenge, state: 'st-deny' }), REDIRECT);
      expect(`${landing.url.origin}${landing.url.pathname}`).toBe(REDIRECT);
      expect(Object.fromEntries(landing.url.searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'The forge did not authorize access: access_denied',
        state: 'st-deny',
        iss: base,
      });
      // The forge's own description is not passed on.
      expect(landing.url.href).not.toContain('resource owner');
      // The consent cookie is cleared, and nothing was exchanged at the forge.
      expect([...(browser.cookies.get('127.0.0.1') ?? new Map()).keys()]).toEqual([]);
      expect(tokenRequests()).toEqual([]);
    },
  );

  test('a client that sent no state gets the error without one', async () => {
    const { browser, callback } = await upToCallbackWithoutState(served.url);
    const url = new URL(callback);
    url.searchParams.delete('code');
    url.searchParams.set('error', 'access_denied');
    const response = await browser.request(url.href);
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The forge did not authorize access: access_denied',
      iss: served.url,
    });
  });

  test.each(['invalid_request', 'unauthorized_client', 'unsupported_response_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'])(
    "the forge's RFC 6749 error %s is passed on to the client",
    async (code) => {
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
    },
  );

  test.each(['memory', 'stateless'])(
    "the forge refuses the code exchange → server_error at the client's redirect URI, without the forge's text (%s)",
    async (mode) => {
      const base = mode === 'memory' ? served.url : stateless.url;
      const { browser, callback } = await upToCallback(base);
      forge.failNext({
        pathIncludes: '/oauth/token',
        status: 400,
        body: { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid <b>forge text</b>' },
      });
      const location = await expectClientError(await browser.request(callback), base, 'server_error', 'The forge refused the authorization code');
      expect(location.href).not.toContain('invalid_grant');
      expect(location.href).not.toContain('forge%20text');
      // This sign-in is over (state spent, consent cookie cleared): the client starts a new one.
      await expectUnknownState(await browser.request(callback));
    },
  );

  test.each(['memory', 'stateless'])(
    "a redirect from the forge with neither code nor error → server_error at the client's redirect URI, nothing exchanged (%s)",
    async (mode) => {
      const base = mode === 'memory' ? served.url : stateless.url;
      for (const code of [undefined, '']) {
        const { browser, callback } = await upToCallback(base);
        const url = new URL(callback);
        url.searchParams.delete('code');
        if (code !== undefined) url.searchParams.set('code', code);
        await expectClientError(await browser.request(url.href), base, 'server_error', 'The forge sent no authorization code');
      }
      expect(tokenRequests()).toEqual([]);
    },
  );

  test.each([
    ['shorter than any forge code', 'abc'],
    ['5,000 characters', 'a'.repeat(5000)],
    ['spaces', 'a code with spaces in it'],
    ['control characters', `${'a'.repeat(20)}\u0000\r\n`],
    ['non-ASCII characters', `${'a'.repeat(20)}é\u202E`],
  ])("a code with %s is never relayed to the forge: server_error at the client's redirect URI", async (_, junk) => {
    const { browser, callback } = await upToCallback(served.url);
    const url = new URL(callback);
    url.searchParams.set('code', junk);
    await expectClientError(await browser.request(url.href), served.url, 'server_error', 'The forge sent a malformed authorization code');
    expect(tokenRequests()).toEqual([]);
  });

  test("an error code that is not RFC 6749's reaches the client as server_error; no text from the address is passed on", async () => {
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
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'server_error',
      error_description: 'The forge did not authorize access',
      state: 'st-cb',
      iss: served.url,
    });
    expect(tokenRequests()).toEqual([]);
  });

  test("a forge token answer over 64 KB is not read: temporarily_unavailable at the client's redirect URI, no code", async () => {
    const { browser, callback } = await upToCallback(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status: 200, body: { access_token: 'forge-token', token_type: 'Bearer', padding: 'x'.repeat(100 * 1024) } });
    const location = await expectClientError(
      await browser.request(callback),
      served.url,
      'temporarily_unavailable',
      'The forge could not be reached to complete the sign-in; try again',
    );
    expect(location.href).not.toContain('forge-token');
  });

  test("a forge token answer without an access token → server_error at the client's redirect URI", async () => {
    const { browser, callback } = await upToCallback(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status: 200, body: { token_type: 'Bearer' } });
    await expectClientError(await browser.request(callback), served.url, 'server_error', 'The forge refused the authorization code');
  });

  test.each([500, 502, 503, 504])("the forge fails (%i) → temporarily_unavailable at the client's redirect URI", async (status) => {
    const { browser, callback } = await upToCallback(served.url);
    forge.failNext({ pathIncludes: '/oauth/token', status, body: { error: 'server_error', error_description: 'forge text' } });
    const location = await expectClientError(
      await browser.request(callback),
      served.url,
      'temporarily_unavailable',
      'The forge could not be reached to complete the sign-in; try again',
    );
    expect(location.href).not.toContain('forge%20text');
  });
});

describe('a forge that cannot be reached or does not answer', () => {
  /** A TCP port that accepts connections and never answers, or (closed) refuses them. */
  async function listener(): Promise<{ port: number; close: () => Promise<void> }> {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    return {
      port,
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    };
  }

  test.each(['unreachable', 'not answering in time'])(
    "%s → temporarily_unavailable at the client's redirect URI, a warning naming the reason, no code or state in the log",
    async (kind) => {
      const silent = await listener();
      if (kind === 'unreachable') await silent.close();
      const { logger, lines, entries } = capturingLogger();
      const app = await serveOAuth(forge, { logger, apiUrl: `http://127.0.0.1:${silent.port}/api/v4`, env: { FORGE_REQUEST_TIMEOUT_MS: '300' } });
      try {
        const { browser, toForge } = await upToForge(app.url);
        expect(toForge.port).toBe(String(silent.port));
        // What the forge would have sent back, had it answered: a well-formed code and our state.
        const code = 'f'.repeat(64);
        const state = toForge.searchParams.get('state')!;
        const callback = `${app.url}/callback?${new URLSearchParams({ code, state })}`;
        await expectClientError(
          await browser.request(callback),
          app.url,
          'temporarily_unavailable',
          'The forge could not be reached to complete the sign-in; try again',
        );
        const warning = entries().find((e) => e.event === 'oauth_forge_token_failed')!;
        expect(warning).toMatchObject({ level: 'warn', grant: 'authorization_code', status: 0, error: 'unreachable', reason: 'forge unavailable' });
        const log = lines.join('');
        expect(log).not.toContain(code);
        expect(log).not.toContain(state);
      } finally {
        await app.stop();
        if (kind !== 'unreachable') await silent.close();
      }
    },
  );
});

describe('warnings', () => {
  test('each failure after a valid state logs a warning naming its reason, never the code', async () => {
    const { logger, lines, entries } = capturingLogger();
    const app = await serveOAuth(forge, { logger });
    try {
      registerForgeApp(forge, app.url);
      const cases: [string, (callback: URL) => void, Record<string, unknown>][] = [
        ['no code', (url) => url.searchParams.delete('code'), { event: 'oauth_callback_refused', reason: 'no code' }],
        ['malformed code', (url) => url.searchParams.set('code', 'short'), { event: 'oauth_callback_refused', reason: 'malformed code' }],
        [
          'forge refused',
          () => forge.failNext({ pathIncludes: '/oauth/token', status: 400, body: { error: 'invalid_grant' } }),
          { event: 'oauth_forge_token_failed', status: 400, error: 'invalid_grant', reason: 'forge refused the code' },
        ],
        [
          'forge failed',
          () => forge.failNext({ pathIncludes: '/oauth/token', status: 503 }),
          { event: 'oauth_forge_token_failed', status: 503, reason: 'forge unavailable' },
        ],
      ];
      const codes: string[] = [];
      for (const [, change, expected] of cases) {
        const { browser, callback } = await upToCallback(app.url);
        const url = new URL(callback);
        codes.push(url.searchParams.get('code')!);
        change(url);
        lines.length = 0;
        expect((await browser.request(url.href)).status).toBe(302);
        expect(entries()).toEqual([expect.objectContaining({ level: 'warn', ...expected })]);
        expect(lines.join('')).not.toContain(codes.at(-1)!);
      }
    } finally {
      await app.stop();
    }
  });
});

describe('success', () => {
  test("the client gets its state and a proxy code; the forge code was exchanged with this server's verifier", async () => {
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
