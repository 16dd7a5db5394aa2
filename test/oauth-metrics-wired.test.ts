// The OAuth counters (D11) moved by real requests: each step of OAuth mode over HTTP, through the
// app's own handler on a real port, then the same delta seen in /metrics.json's `oauth` object and
// in the forge_mcp_oauth_…_total lines of /metrics. Registrations, Client ID Metadata Document
// fetches (D28, served on 127.0.0.1 with OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK=true), consent
// decisions (D24; MCP_OAUTH_CONSENT=false counts as approved), code grants and refreshes at /token
// (D23), and bearers refused on /mcp by reason. No label ever holds a token or a client id.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { REFRESH_REUSE_GRACE_MS } from '../src/oauth/refresh-reuse';
import { startFakeForge, TOKENS, type FakeForge } from './support/fake-forge';
import { resetForge, serveOAuth, stopAll, type ServedOAuth } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, codeGrant, ownTokens, pkce, redeem, refreshGrant, registerClient, signIn } from './support/fake-oauth-steps';
import { INITIALIZE } from './support/mcp-client';

let forge: FakeForge;
let served: ServedOAuth;
let noConsent: ServedOAuth;
let documents: ReturnType<typeof Bun.serve>;
let docBase: string;
let clock = 0;
const now = () => Date.now() + clock;
const bodies = new Map<string, unknown>();
/** Every client id and token the tests saw: none may show up in /metrics. */
const secrets: string[] = [];

beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge, { now, env: { OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true' } });
  noConsent = await serveOAuth(forge, { now, env: { MCP_OAUTH_CONSENT: 'false' } });
  documents = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      return bodies.has(path) ? Response.json(bodies.get(path), { headers: { 'Cache-Control': 'no-store' } }) : new Response('not found', { status: 404 });
    },
  });
  docBase = `http://127.0.0.1:${documents.port}`;
});
beforeEach(() => {
  clock = 0;
  bodies.clear();
  resetForge(forge, served, noConsent);
});
afterAll(async () => {
  await documents.stop(true);
  await stopAll(forge, served, noConsent);
});

type Counters = Record<string, number>;

/** The `oauth` object of /metrics.json, flattened: `tokenGrants.ok` → n, `bearerRefusals.expired` → n. */
async function jsonCounters(base: string): Promise<Counters> {
  const oauth = ((await (await fetch(`${base}/metrics.json`)).json()) as { oauth: Record<string, number | Record<string, number>> }).oauth;
  const flat: Counters = {};
  for (const [k, v] of Object.entries(oauth)) {
    if (typeof v === 'number') flat[k] = v;
    else for (const [label, n] of Object.entries(v)) flat[`${k}.${label}`] = n;
  }
  return flat;
}

const TEXT_NAMES: Record<string, string> = {
  oauth_registrations_total: 'registrations',
  oauth_metadata_fetches_total: 'metadataFetches',
  oauth_authorizations_total: 'authorizations',
  oauth_token_grants_total: 'tokenGrants',
  oauth_token_refreshes_total: 'tokenRefreshes',
  oauth_bearer_refusals_total: 'bearerRefusals',
};

/** The forge_mcp_oauth_… lines of /metrics, keyed as jsonCounters keys them; `lines` as served. */
async function textCounters(base: string): Promise<{ counters: Counters; lines: string[] }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const lines = text.split('\n').filter((l) => l.startsWith('forge_mcp_oauth_'));
  const counters: Counters = {};
  for (const line of lines) {
    const m = /^forge_mcp_(\w+?)(?:\{(\w+)="([^"]*)"\})? (\d+)$/.exec(line);
    if (!m) throw new Error(`unexpected line: ${line}`);
    const [, name, , value, n] = m;
    counters[value === undefined ? TEXT_NAMES[name] : `${TEXT_NAMES[name]}.${value}`] = Number(n);
  }
  return { counters, lines };
}

/** Runs `action` and returns what moved, checking that /metrics.json and /metrics agree. */
async function moved(base: string, action: () => Promise<unknown>): Promise<Counters> {
  const [beforeJson, beforeText] = [await jsonCounters(base), (await textCounters(base)).counters];
  await action();
  const [afterJson, afterText] = [await jsonCounters(base), (await textCounters(base)).counters];
  const delta = (before: Counters, after: Counters) =>
    Object.fromEntries(
      Object.entries(after)
        .filter(([k, n]) => n !== (before[k] ?? 0))
        .map(([k, n]) => [k, n - (before[k] ?? 0)]),
    );
  const fromJson = delta(beforeJson, afterJson);
  expect(delta(beforeText, afterText)).toEqual(fromJson);
  return fromJson;
}

function mcp(base: string, token: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify(INITIALIZE),
  });
}

describe('OAuth counters moved by requests', () => {
  test('a registration at /register', async () => {
    expect(await moved(served.url, async () => secrets.push(await registerClient(served.url)))).toEqual({ registrations: 1 });
    // A refused registration counts nothing.
    expect(await moved(served.url, async () => expect((await fetch(`${served.url}/register`, { method: 'POST', body: '{}' })).status).toBe(400))).toEqual({});
  });

  test('metadata-document fetches: ok, refused (another client_id), failed (404)', async () => {
    const authorize = (clientId: string) => fetch(authorizeUrl(served.url, { client_id: clientId, code_challenge: pkce().challenge }), { redirect: 'manual' });
    const good = `${docBase}/good.json`;
    bodies.set('/good.json', { client_id: good, client_name: 'Loop Agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const wrong = `${docBase}/wrong.json`;
    bodies.set('/wrong.json', { client_id: `${docBase}/someone-else.json`, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    secrets.push(good, wrong);

    expect(await moved(served.url, async () => expect((await authorize(good)).status).toBe(200))).toEqual({ 'metadataFetches.ok': 1 });
    expect(await moved(served.url, async () => expect((await authorize(wrong)).status).toBe(400))).toEqual({ 'metadataFetches.refused': 1 });
    expect(await moved(served.url, async () => expect((await authorize(`${docBase}/missing.json`)).status).toBe(400))).toEqual({ 'metadataFetches.failed': 1 });
  });

  test('consent: Approve and Deny on the page', async () => {
    const clientId = await registerClient(served.url);
    secrets.push(clientId);
    expect(await moved(served.url, async () => expect((await signIn(served.url, { clientId, decision: 'approve' })).landing.code).toBeString())).toEqual({
      'authorizations.approved': 1,
    });
    expect(await moved(served.url, async () => expect((await signIn(served.url, { clientId, decision: 'deny' })).landing.error).toBe('access_denied'))).toEqual(
      {
        'authorizations.denied': 1,
      },
    );
  });

  test('consent: with MCP_OAUTH_CONSENT=false the straight redirect counts as approved', async () => {
    const clientId = await registerClient(noConsent.url);
    secrets.push(clientId);
    expect(await moved(noConsent.url, async () => expect((await signIn(noConsent.url, { clientId })).landing.code).toBeString())).toEqual({
      'authorizations.approved': 1,
    });
  });

  test('code grants: refused (bad verifier), then ok', async () => {
    const clientId = await registerClient(served.url);
    const s = await signIn(served.url, { clientId });
    secrets.push(clientId, s.landing.code!);
    const badVerifier = pkce().verifier;
    expect(await moved(served.url, async () => expect((await redeem(served.url, codeGrant(s, { code_verifier: badVerifier }))).status).toBe(400))).toEqual({
      'tokenGrants.refused': 1,
    });
    expect(
      await moved(served.url, async () => {
        const response = await redeem(served.url, codeGrant(s));
        expect(response.status).toBe(200);
        const body = (await response.json()) as { access_token: string; refresh_token: string };
        secrets.push(body.access_token, body.refresh_token);
      }),
    ).toEqual({ 'tokenGrants.ok': 1 });
  });

  test('refreshes: ok, ok again for a repeat within its grace period (the same pair, D23), then refused when the same refresh token is replayed after it', async () => {
    const tokens = await ownTokens(served.url);
    secrets.push(tokens.clientId, tokens.access_token, tokens.refresh_token!);
    const grant = refreshGrant(tokens.clientId, tokens.refresh_token!);
    for (let i = 0; i < 2; i++) {
      expect(
        await moved(served.url, async () => {
          const response = await redeem(served.url, grant);
          expect(response.status).toBe(200);
          secrets.push(((await response.json()) as { refresh_token: string }).refresh_token);
        }),
      ).toEqual({ 'tokenRefreshes.ok': 1 });
    }
    clock += REFRESH_REUSE_GRACE_MS + 1;
    expect(await moved(served.url, async () => expect((await redeem(served.url, grant)).status).toBe(400))).toEqual({ 'tokenRefreshes.refused': 1 });
  });

  test('bearer refusals on /mcp by reason', async () => {
    const tokens = await ownTokens(served.url);
    secrets.push(tokens.clientId, tokens.access_token, tokens.refresh_token!, TOKENS.maintainer);
    // A token of the forge's own, with REMOTE_AUTHORIZATION=false: not issued by this server.
    expect(await moved(served.url, async () => expect((await mcp(served.url, TOKENS.maintainer)).status).toBe(401))).toEqual({ 'bearerRefusals.not_ours': 1 });
    // A refresh token sent as a bearer.
    expect(await moved(served.url, async () => expect((await mcp(served.url, tokens.refresh_token!)).status).toBe(401))).toEqual({
      'bearerRefusals.not_access_token': 1,
    });
    // The access token once it has run out.
    clock = (tokens.expires_in + 1) * 1000;
    expect(
      await moved(served.url, async () => {
        expect((await mcp(served.url, tokens.access_token)).status).toBe(401);
        expect((await mcp(served.url, tokens.access_token)).status).toBe(401);
      }),
    ).toEqual({ 'bearerRefusals.expired': 2 });
    // A valid one counts nothing.
    clock = 0;
    expect(await moved(served.url, async () => expect((await mcp(served.url, tokens.access_token)).status).toBe(200))).toEqual({});
  });

  test('no label holds a token or a client id: only the fixed outcomes and reasons', async () => {
    for (const base of [served.url, noConsent.url]) {
      const { lines } = await textCounters(base);
      const text = lines.join('\n');
      for (const secret of secrets) expect(text).not.toContain(secret);
      const labels = new Set(lines.flatMap((l) => [...(/="([^"]*)"/g.exec(l) ?? [])].slice(1)));
      for (const label of labels)
        expect(['ok', 'refused', 'failed', 'approved', 'denied', 'malformed', 'invalid', 'expired', 'audience', 'not_access_token', 'not_ours']).toContain(
          label,
        );
    }
    expect(secrets.length).toBeGreaterThan(10);
  });
});
