// The consent page in a real browser (D24): headless Chromium from the system's packages
// (never a downloaded one) driven by playwright-core. Approve and Deny are clicked; a form posted
// from another site and a page framing the consent page are refused.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { registerForgeApp, serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { authorizeUrl, pkce, redeem, registerClient, type Pkce } from './support/fake-oauth-steps';

setDefaultTimeout(60_000);

let forge: FakeForge;
let served: ServedOAuth;
let context: BrowserContext;
let profile: string;
/** The MCP client's loopback redirect target, and a page on another site for the attacks. */
let client: ReturnType<typeof Bun.serve>;
const landings: URL[] = [];
let evilHtml = '';

beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge);
  client = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === '/callback') {
        landings.push(url);
        return new Response('<h1>Signed in</h1>', { headers: { 'content-type': 'text/html' } });
      }
      return new Response(evilHtml, { headers: { 'content-type': 'text/html' } });
    },
  });
  ({ context, profile } = await launchChromium('forge-mcp-chromium-'));
});
beforeEach(() => {
  forge.reset();
  registerForgeApp(forge, served.url);
  landings.length = 0;
});
afterAll(async () => {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
  await client.stop(true);
  await served.stop();
  await forge.stop();
});

const redirectUri = () => `http://127.0.0.1:${client.port}/callback`;

async function consentPage(name = 'Cursor'): Promise<{ page: Page; clientId: string; p: Pkce }> {
  const clientId = await registerClient(served.url, [redirectUri()], name);
  const p = pkce();
  const page = await context.newPage();
  const response = await page.goto(
    authorizeUrl(served.url, { client_id: clientId, redirect_uri: redirectUri(), code_challenge: p.challenge, state: 'browser-state' }),
  );
  expect(response?.status()).toBe(200);
  return { page, clientId, p };
}

describe('consent in Chromium', () => {
  test('the page names the client, the redirect host and the forge; Approve completes the sign-in', async () => {
    const { page, clientId, p } = await consentPage('Cursor');
    const forgeHost = new URL(forge.apiUrl).host;
    expect(await page.title()).toBe(`Allow access to ${forgeHost}?`);
    const text = await page.locator('body').innerText();
    expect(text).toContain('Cursor wants to use');
    expect(text).toContain(`127.0.0.1:${client.port}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.pathname === '/callback' && url.port === String(client.port));
    expect(await page.locator('h1').innerText()).toBe('Signed in');
    const [landing] = landings;
    expect(landing.searchParams.get('state')).toBe('browser-state');
    const response = await redeem(served.url, {
      grant_type: 'authorization_code',
      code: landing.searchParams.get('code')!,
      client_id: clientId,
      redirect_uri: redirectUri(),
      code_verifier: p.verifier,
    });
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    // This server's own token (D23), around the one forge token issued.
    expect(access_token).toStartWith('v1.at.');
    expect(forge.oauth.accessTokens).toHaveLength(1);
    expect(forge.oauth.accessTokens).not.toContain(access_token);
    await page.close();
  });

  test('a name registered with a right-to-left override and zero-width characters renders without them', async () => {
    const { page } = await consentPage('Cur\u200Bsor \u202Eexe.cod\u202C\u2066\uFEFF\u{E0041}');
    const text = await page.locator('body').innerText();
    expect(text).toContain('Cursor exe.cod wants to use');
    expect(text).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u);
    await page.close();
  });

  test('Deny sends access_denied to the client and never reaches the forge', async () => {
    const { page } = await consentPage();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.pathname === '/callback' && url.port === String(client.port));
    const [landing] = landings;
    expect(landing.searchParams.get('error')).toBe('access_denied');
    expect(landing.searchParams.get('state')).toBe('browser-state');
    expect(landing.searchParams.get('code')).toBeNull();
    expect(forge.requests.filter((r) => r.path.startsWith('/oauth/'))).toEqual([]);
    await page.close();
  });

  test('a consent form auto-posted from another site is refused', async () => {
    // The attacker fetches a consent page for their own client and has the victim's browser post it.
    const clientId = await registerClient(served.url, ['https://attacker.example/cb'], 'Trusted Editor');
    const html = await (
      await fetch(authorizeUrl(served.url, { client_id: clientId, redirect_uri: 'https://attacker.example/cb', code_challenge: pkce().challenge }))
    ).text();
    const consent = /name="consent" value="([^"]+)"/.exec(html)![1];
    evilHtml = `<form id="f" method="post" action="${served.url}/consent"><input type="hidden" name="consent" value="${consent}"><input type="hidden" name="decision" value="approve"></form><script>document.getElementById('f').submit()</script>`;
    const page = await context.newPage();
    const refused = page.waitForResponse((r) => r.url() === `${served.url}/consent`);
    await page.goto(`http://localhost:${client.port}/evil`);
    expect((await refused).status()).toBe(403);
    expect(forge.requests).toEqual([]);
    await page.close();
  });

  test('the consent page does not render inside a frame of another site', async () => {
    const clientId = await registerClient(served.url, [redirectUri()], 'Framed');
    const url = authorizeUrl(served.url, { client_id: clientId, redirect_uri: redirectUri(), code_challenge: pkce().challenge });
    evilHtml = `<iframe src="${url.replaceAll('&', '&amp;')}" width="600" height="400"></iframe>`;
    const page = await context.newPage();
    const framed = page.waitForResponse((r) => r.url().startsWith(`${served.url}/authorize`));
    await page.goto(`http://localhost:${client.port}/framer`);
    expect((await framed).status()).toBe(200);
    await page.waitForTimeout(300);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.locator('button').count()).toBe(0);
    await page.close();
  });
});
