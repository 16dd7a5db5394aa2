// Sign-in floods (D10): /register, /authorize, /consent, /callback and /token are limited
// per client IP (fixed one-minute window, 429), and what one address leaves behind — registrations,
// consent pages, states, proxy codes — is held under a per-address quota, so a flood from one
// address, however long it runs, never pushes out or locks out anyone else. Stateless mode runs no
// in-app limiter (docs/spec.md stateless rule 7).
import { beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { FakeForge } from './support/fake-forge';
import { parseConsentForm } from './support/fake-oauth-client';
import { type ServedOAuth, useOAuthServers } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, pkce } from './support/fake-oauth-steps';

setDefaultTimeout(60_000);

const FLOODER = '203.0.113.66';
const VICTIM = '198.51.100.7';
/** High enough that a flood can pass the old 10,000-entry stores within a few windows. */
const PER_MINUTE = 5000;

let forge: FakeForge;
let flooded: ServedOAuth;
let small: ServedOAuth;
let stateless: ServedOAuth;
let five: ServedOAuth;
// A clock that only moves when a test moves it, starting at a minute's beginning, so the fixed
// windows fall where the tests expect them.
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
let clock = 0;
const now = () => T0 + clock;

const oauth = useOAuthServers({
  flooded: { now, env: { MAX_REQUESTS_PER_MINUTE: String(PER_MINUTE) } },
  small: { now, env: { MAX_REQUESTS_PER_MINUTE: '2', MCP_OAUTH_CONSENT: 'false' } },
  stateless: { now, env: { MAX_REQUESTS_PER_MINUTE: '1', OAUTH_STATELESS_MODE: 'true' } },
  five: { now, env: { MAX_REQUESTS_PER_MINUTE: '5' } },
});
beforeAll(() => {
  ({ forge, flooded, small, stateless, five } = oauth);
});
beforeEach(() => {
  // A fresh window for every test: the windows are aligned to the clock minute.
  clock += 3_600_000;
});

/** One request to `served` as if from `ip` (the socket address; no proxy is trusted here). */
function from(served: ServedOAuth, ip: string, path: string, init: RequestInit = {}): Promise<Response> {
  return served.apps[0].handle(new Request(new URL(path, served.url).href, { redirect: 'manual', ...init }), ip);
}

const registration = (name: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }),
});

async function register(served: ServedOAuth, ip: string, name = 'Editor'): Promise<string> {
  const response = await from(served, ip, '/register', registration(name));
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

const authorizePath = (served: ServedOAuth, clientId: string) =>
  authorizeUrl(served.url, { client_id: clientId, code_challenge: pkce().challenge, state: 'st' });

describe('a flood from one address leaves everyone else alone', () => {
  test('/register flooded for several windows: a client registered earlier from another address still signs in', async () => {
    const victimId = await register(flooded, VICTIM, 'Victim Editor');
    const floodersFirst = await register(flooded, FLOODER, 'Flooder');
    let created = 1;
    let refused = 0;
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < PER_MINUTE + 10; i++) {
        const response = await from(flooded, FLOODER, '/register', registration('Flooder'));
        if (response.status === 201) created++;
        else {
          expect(response.status).toBe(429);
          refused++;
        }
      }
      clock += 60_000;
    }
    // More registrations than the whole store holds, and each window's excess refused.
    expect(created).toBeGreaterThan(10_000);
    expect(refused).toBeGreaterThanOrEqual(30);
    const page = await from(flooded, VICTIM, authorizePath(flooded, victimId));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<strong>Victim Editor</strong>');
    // The flooder only ever pushed out its own registrations, oldest first.
    const gone = await from(flooded, FLOODER, authorizePath(flooded, floodersFirst));
    expect(gone.status).toBe(400);
    expect(await gone.json()).toEqual({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
  });

  test('/authorize flooded for several windows: another address still gets the consent page and can answer it', async () => {
    const clientId = await register(flooded, FLOODER, 'Flooder');
    const victimId = await register(flooded, VICTIM, 'Victim Editor');
    const firstPage = await from(flooded, FLOODER, authorizePath(flooded, clientId));
    const firstForm = parseConsentForm(await firstPage.text(), flooded.url)!;
    const statuses = new Map<number, number>([[200, 1]]);
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < PER_MINUTE; i++) {
        const { status } = await from(flooded, FLOODER, authorizePath(flooded, clientId));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      clock += 60_000;
    }
    const page = await from(flooded, VICTIM, authorizePath(flooded, victimId));
    expect(page.status).toBe(200);
    // Well within the consent lifetime (600 s), more pages than the whole store holds were shown,
    // and the flooder was never told the server is full: only its own window's excess was refused.
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect(statuses.get(200)).toBeGreaterThan(10_000);
    const html = await page.text();
    expect(html).toContain('<strong>Victim Editor</strong>');
    // The victim's consent is held: approving it goes on to the forge.
    const form = parseConsentForm(html, flooded.url)!;
    const cookie = page.headers.getSetCookie()[0].split(';')[0];
    const approved = await from(flooded, VICTIM, '/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: form.origin, cookie },
      body: new URLSearchParams({ consent: form.consent, decision: 'approve' }).toString(),
    });
    expect(approved.status).toBe(302);
    expect(approved.headers.get('location')).toStartWith(`${new URL(forge.apiUrl).origin}/oauth/authorize`);
    // The flooder's own oldest page is the one that went.
    const firstCookie = firstPage.headers.getSetCookie()[0].split(';')[0];
    const stale = await from(flooded, FLOODER, '/consent', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: firstForm.origin, cookie: firstCookie },
      body: new URLSearchParams({ consent: firstForm.consent, decision: 'approve' }).toString(),
    });
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain('no longer valid');
  });
});

describe('429 per client IP on every sign-in endpoint', () => {
  test('/authorize: RFC 6749 body with Retry-After; another address is not affected', async () => {
    const clientId = await register(small, VICTIM);
    for (let i = 0; i < 2; i++) expect((await from(small, FLOODER, authorizePath(small, clientId))).status).toBe(302);
    const refused = await from(small, FLOODER, authorizePath(small, clientId));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Rate limit exceeded' });
    expect((await from(small, VICTIM, authorizePath(small, clientId))).status).toBe(302);
  });

  test('/token: RFC 6749 body with Retry-After and CORS, before the body is read', async () => {
    const grant = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=x&refresh_token=y',
    };
    // An unknown client named in the body: 400 invalid_client (RFC 6749 §5.2) while under the limit.
    for (let i = 0; i < 2; i++) expect((await from(small, FLOODER, '/token', grant)).status).toBe(400);
    const refused = await from(small, FLOODER, '/token', grant);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Rate limit exceeded' });
  });

  test('/callback and /consent: a page saying so, with Retry-After', async () => {
    for (const path of ['/callback?state=x&code=y', '/consent']) {
      const init =
        path === '/consent' ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'consent=x&decision=approve' } : {};
      for (let i = 0; i < 2; i++) expect((await from(small, FLOODER, path, init)).status).toBe(400);
      const refused = await from(small, FLOODER, path, init);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.text()).toContain('Rate limit exceeded');
    }
  });

  test('each endpoint has its own window, and the window resets after a minute', async () => {
    const clientId = await register(small, FLOODER);
    await register(small, FLOODER);
    expect((await from(small, FLOODER, '/register', registration('x'))).status).toBe(429);
    // /register's window is spent, /authorize's is not.
    expect((await from(small, FLOODER, authorizePath(small, clientId))).status).toBe(302);
    clock += 60_000;
    expect((await from(small, FLOODER, '/register', registration('x'))).status).toBe(201);
  });

  test('refusals are counted in the metrics', async () => {
    const before = small.apps[0].metrics.rejectedByRateLimit;
    for (let i = 0; i < 3; i++) await from(small, FLOODER, '/callback?state=x&code=y');
    expect(small.apps[0].metrics.rejectedByRateLimit).toBe(before + 1);
  });

  test('stateless mode runs no in-app limiter on any of them (SPEC stateless rule 7)', async () => {
    const clientId = await register(stateless, FLOODER);
    for (let i = 0; i < 3; i++) {
      expect((await from(stateless, FLOODER, '/register', registration('x'))).status).toBe(201);
      expect((await from(stateless, FLOODER, authorizePath(stateless, clientId))).status).toBe(200);
      expect((await from(stateless, FLOODER, '/callback?state=x&code=y')).status).toBe(400);
      expect((await from(stateless, FLOODER, '/token', { method: 'POST', body: 'grant_type=password' })).status).toBe(400);
    }
  });
});

describe('IPv6 clients count by their /64 (D10)', () => {
  /** The n-th address of one /64: a new interface id each time, spelled in turn in several ways. */
  const inFlooders64 = (n: number) =>
    [
      `2001:db8:f1:d::${n.toString(16)}`,
      `2001:DB8:F1:D:0:0:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}`,
      `2001:db8:f1:d:${(n & 0xff).toString(16)}::${(n >> 8).toString(16)}%eth0`,
    ][n % 3];

  test('30 registrations from one /64, a new address each, pass a limit of 5 a minute only 5 times; the next /64 is another client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await from(five, inFlooders64(i + 1), '/register', registration('Flooder'))).status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    expect((await from(five, '2001:db8:f1:e::1', '/register', registration('Neighbour'))).status).toBe(201);
    // An IPv4 client reached through a dual-stack socket is its IPv4 address, however spelled.
    for (let i = 0; i < 5; i++) expect((await from(five, i % 2 ? VICTIM : `::ffff:${VICTIM}`, '/register', registration('Editor'))).status).toBe(201);
    expect((await from(five, '::ffff:c633:6407', '/register', registration('Editor'))).status).toBe(429);
  });

  test("registrations from one /64 under new addresses, past the whole store, never push out another client's", async () => {
    const victimId = await register(flooded, VICTIM, 'Victim Editor');
    const v6VictimId = await register(flooded, '2001:db8:77:1::5', 'Neighbour Editor');
    let created = 0;
    let n = 1;
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < PER_MINUTE + 10; i++) {
        const response = await from(flooded, inFlooders64(n++), '/register', registration('Flooder'));
        if (response.status === 201) created++;
        else expect(response.status).toBe(429);
      }
      clock += 60_000;
    }
    for (const [id, name] of [
      [victimId, 'Victim Editor'],
      [v6VictimId, 'Neighbour Editor'],
    ]) {
      const page = await from(flooded, VICTIM, authorizePath(flooded, id));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<strong>${name}</strong>`);
    }
    // The /64 is one client: its window held it to PER_MINUTE a minute, its quota to its own entries.
    expect(created).toBe(3 * PER_MINUTE);
  });
});
