// POST /consent (D24): Approve goes on to the forge, Deny returns access_denied to the
// client. The decision counts only from this server's page in the browser it was shown in, and
// on any replica in stateless mode.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { FakeForge } from './support/fake-forge';
import { TinyBrowser, parseConsentForm, type ConsentForm } from './support/fake-oauth-client';
import { type ServedOAuth, useOAuthServers } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, pkce, registerClient } from './support/fake-oauth-steps';

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

/** A browser showing the consent page of a fresh client. */
async function consentShown(base = served.url, state = 'st-c'): Promise<{ browser: TinyBrowser; form: ConsentForm }> {
  const id = await registerClient(base);
  const browser = new TinyBrowser();
  const url = authorizeUrl(base, { client_id: id, code_challenge: pkce().challenge, state });
  const page = await browser.request(url);
  expect(page.status).toBe(200);
  return { browser, form: parseConsentForm(await page.text(), url)! };
}

const forgeAuthorize = () => `${new URL(forge.apiUrl).origin}/oauth/authorize`;

describe('the scope asked for (D29)', () => {
  test.each([
    ['read_api', 'read_api', 'read access'],
    ['read_api api', 'api', 'read and write access'],
    [undefined, 'api', 'read and write access'],
  ])('scope %p: the page shows %s, and Approve asks the forge for it', async (asked, shown, meaning) => {
    const id = await registerClient(served.url);
    const browser = new TinyBrowser();
    const url = authorizeUrl(served.url, { client_id: id, code_challenge: pkce().challenge, state: 'st-s', scope: asked });
    const page = await browser.request(url);
    const html = await page.text();
    expect(html).toContain(`Access asked for: <code>${shown}</code> — ${meaning}`);
    const response = await browser.submitConsent(parseConsentForm(html, url)!, 'approve');
    expect(new URL(response.headers.get('location')!).searchParams.get('scope')).toBe(shown);
  });
});

describe('decisions', () => {
  test('Approve redirects to the forge and keeps the binding cookie for the return', async () => {
    const { browser, form } = await consentShown();
    const response = await browser.submitConsent(form, 'approve');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(forgeAuthorize());
    expect(response.headers.getSetCookie()[0]).toMatch(/^forge-mcp-auth-[^=]+=[^;]+; Path=\/; Max-Age=600/);
  });

  test("Deny sends access_denied with the client's state to its redirect URI, nothing to the forge", async () => {
    const { browser, form } = await consentShown();
    const response = await browser.submitConsent(form, 'deny');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The user denied access',
      state: 'st-c',
      iss: served.url,
    });
    expect(response.headers.getSetCookie()[0]).toContain('Max-Age=0');
    expect(forge.requests).toEqual([]);
  });

  test('a consent answered once cannot be answered again', async () => {
    const { browser, form } = await consentShown();
    expect((await browser.submitConsent(form, 'deny')).status).toBe(302);
    const again = await browser.submitConsent(form, 'approve');
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('no longer valid');
  });

  test('a consent older than the pending lifetime (600 s) has expired', async () => {
    const { browser, form } = await consentShown();
    clock = 601_000;
    const response = await browser.submitConsent(form, 'approve');
    expect(response.status).toBe(400);
    expect(forge.requests).toEqual([]);
  });

  test('an unknown decision is refused', async () => {
    const { browser, form } = await consentShown();
    const response = await browser.request(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: form.origin },
      body: `consent=${encodeURIComponent(form.consent)}&decision=maybe`,
    });
    expect(response.status).toBe(400);
  });
});

describe('cross-site request forgery', () => {
  test('a decision posted from another origin is refused with 403', async () => {
    const { browser, form } = await consentShown();
    const response = await browser.submitConsent({ ...form, origin: 'https://evil.example' }, 'approve');
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
  });

  test('a consent value taken from the page into another browser does not count there', async () => {
    // Someone opens the page for their own client and has a victim's browser submit its form.
    const { form } = await consentShown();
    const victim = new TinyBrowser();
    const response = await victim.submitConsent(form, 'approve');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('not opened in this browser');
    expect(response.headers.get('location')).toBeNull();
  });

  test('a browser holding the cookie of one consent cannot answer another with it', async () => {
    const first = await consentShown();
    const second = await consentShown();
    const response = await first.browser.submitConsent(second.form, 'approve');
    expect(response.status).toBe(400);
  });

  test('a forged consent value is refused', async () => {
    const { browser, form } = await consentShown();
    const response = await browser.submitConsent({ ...form, consent: `${form.consent}x` }, 'approve');
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });
});

describe('stateless mode', () => {
  test('the page shown by one replica is answered on another', async () => {
    const { browser, form } = await consentShown(replicas.url);
    expect(form.consent).toStartWith('v1.ps.');
    replicas.route = () => 1;
    const response = await browser.submitConsent(form, 'approve');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toStartWith(forgeAuthorize());
    expect(replicas.hits[0]).toBeGreaterThan(0);
    expect(replicas.hits[1]).toBe(1);
  });

  test('a consent value does not open as a state at /callback', async () => {
    const { browser, form } = await consentShown(replicas.url);
    const response = await browser.request(`${replicas.url}/callback?code=abc&state=${encodeURIComponent(form.consent)}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Unknown or expired state parameter');
  });
});
