// A refresh token outlives the client registration it was issued under (D23). The registration's
// lifetime (OAUTH_STATELESS_CLIENT_TTL_SECONDS, one day by default) admits a client to new
// authorizations: /authorize and the authorization_code grant. At the refresh_token grant the refresh
// token's sealed binding to the client id is the client check (RFC 6749 §6), so a refresh token keeps
// working for OAUTH_REFRESH_TOKEN_TTL_SECONDS, in both modes, and across a restart in stateful mode
// when OAUTH_STATELESS_SECRET is set. A stateless `v1.cid.` id must still carry a valid signature.
// A refresh that fails for a client whose registration has lapsed is invalid_client, so the client
// registers again before it signs in again.
import { beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { OwnTokens } from '../src/oauth/own-tokens';
import { REFRESH_REUSE_GRACE_MS } from '../src/oauth/refresh-reuse';
import { sealerFromConfig } from '../src/sealing/from-config';
import { Sealer } from '../src/sealing/sealer';
import { testConfig } from './support/config';
import type { FakeForge } from './support/fake-forge';
import { SECRET, oauthEnv, resetForge, serveOAuth, type ServedOAuth, useOAuthServers } from './support/fake-oauth-harness';
import {
  authorizeUrl,
  codeGrant,
  expectError,
  ownTokens,
  pkce,
  redeem,
  REDIRECT,
  refreshGrant,
  registerClient,
  signIn,
  type TokenBody,
} from './support/fake-oauth-steps';
import { INITIALIZE } from './support/mcp-client';

let forge: FakeForge;
let memory: ServedOAuth;
let stateless: ServedOAuth;
let clock = 0;
const now = () => Date.now() + clock;

const DAY = 86_400_000;
/** Just past OAUTH_STATELESS_CLIENT_TTL_SECONDS' default: every registration has lapsed. */
const PAST_CLIENT_TTL = DAY + 1_000;

const oauth = useOAuthServers({ memory: { now }, stateless: { replicas: 2, now, env: { OAUTH_STATELESS_MODE: 'true' } } });
beforeAll(() => {
  ({ forge, memory, stateless } = oauth);
});
beforeEach(() => {
  clock = 0;
});

async function refreshed(base: string, clientId: string, refreshToken: string): Promise<TokenBody> {
  const response = await redeem(base, refreshGrant(clientId, refreshToken));
  expect(response.status).toBe(200);
  return (await response.json()) as TokenBody;
}

/** The access token opens /mcp (a legacy-lane initialize). */
async function expectUsable(base: string, accessToken: string) {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify(INITIALIZE),
  });
  expect(response.status).toBe(200);
}

const forgeTokenRequests = () => forge.requests.filter((r) => r.path === '/oauth/token');

describe.each(['stateful', 'stateless'])("%s: past the registration's lifetime", (mode) => {
  // The servers start in beforeAll, after the tests are collected.
  const served = () => (mode === 'stateful' ? memory : stateless);
  test('the refresh token still refreshes, and the pair it returns works and refreshes again, for as long as the refresh tokens live', async () => {
    const first = await ownTokens(served().url);
    clock = PAST_CLIENT_TTL;
    const second = await refreshed(served().url, first.clientId, first.refresh_token!);
    expect(second.access_token).toStartWith('v1.at.');
    await expectUsable(served().url, second.access_token);
    // Each refresh token lives OAUTH_REFRESH_TOKEN_TTL_SECONDS (30 days) from its own issue.
    clock = 29 * DAY;
    const third = await refreshed(served().url, first.clientId, second.refresh_token);
    clock = 58 * DAY;
    const fourth = await refreshed(served().url, first.clientId, third.refresh_token);
    await expectUsable(served().url, fourth.access_token);
    // Rotation and single use are unchanged, once a repeat's grace period (D23) is over.
    clock += REFRESH_REUSE_GRACE_MS + 1;
    await expectError(await redeem(served().url, refreshGrant(first.clientId, third.refresh_token)), 400, 'invalid_client', 'already used');
  });

  test('the client id no longer starts an authorization: /authorize answers 400 "Unregistered redirect_uri"', async () => {
    const first = await ownTokens(served().url);
    clock = PAST_CLIENT_TTL;
    await refreshed(served().url, first.clientId, first.refresh_token!);
    const response = await fetch(authorizeUrl(served().url, { client_id: first.clientId, code_challenge: pkce().challenge, state: 's' }), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error_description: string }).error_description).toBe('Unregistered redirect_uri');
  });

  test('the refresh token under another client id: a live one gets invalid_grant as before, a lapsed one invalid_client; nothing reaches the forge and the rightful client still refreshes', async () => {
    const first = await ownTokens(served().url);
    const lapsedOther = await registerClient(served().url);
    clock = PAST_CLIENT_TTL;
    const liveOther = await registerClient(served().url);
    forge.requests.length = 0;
    await expectError(await redeem(served().url, refreshGrant(liveOther, first.refresh_token!)), 400, 'invalid_grant', 'issued to another client');
    await expectError(await redeem(served().url, refreshGrant(lapsedOther, first.refresh_token!)), 400, 'invalid_client', 'register again');
    expect(forgeTokenRequests()).toEqual([]);
    await refreshed(served().url, first.clientId, first.refresh_token!);
  });

  test('a refresh token past OAUTH_REFRESH_TOKEN_TTL_SECONDS is refused, nothing sent to the forge: invalid_client when the registration has lapsed too, so the client registers before it signs in again', async () => {
    const first = await ownTokens(served().url);
    clock = 30 * DAY + 1_000;
    forge.requests.length = 0;
    await expectError(
      await redeem(served().url, refreshGrant(first.clientId, first.refresh_token!)),
      400,
      'invalid_client',
      'register again (the refresh token has expired',
    );
    expect(forgeTokenRequests()).toEqual([]);
  });

  test('the forge refusing the refresh: invalid_grant while the registration is live, invalid_client once it has lapsed', async () => {
    for (const lapsed of [false, true]) {
      clock = 0;
      const first = await ownTokens(served().url);
      // Revoked at the forge: its refresh token is refused there.
      forge.oauth.revoke(forge.oauth.accessTokens.at(-1)!);
      if (lapsed) clock = PAST_CLIENT_TTL;
      const response = await redeem(served().url, refreshGrant(first.clientId, first.refresh_token!));
      if (lapsed) await expectError(response, 400, 'invalid_client', 'register again (the forge refused the refresh');
      else await expectError(response, 400, 'invalid_grant', 'the forge refused the refresh');
    }
  });

  test("the authorization_code grant still holds the registration's lifetime: a code redeemed after it → invalid_client", async () => {
    const short = await serveOAuth(forge, {
      now,
      env: { ...(mode === 'stateless' ? { OAUTH_STATELESS_MODE: 'true' } : {}), OAUTH_STATELESS_CLIENT_TTL_SECONDS: '60' },
    });
    try {
      resetForge(forge, short);
      const s = await signIn(short.url);
      // The code lives OAUTH_STATELESS_STORED_TTL_SECONDS (120 s); the registration only 60 s.
      clock = 61_000;
      await expectError(await redeem(short.url, codeGrant(s)), 400, 'invalid_client', 'unknown or expired client_id: register again');
    } finally {
      await short.stop();
    }
  });
});

describe('stateless: the client id of a refresh must still carry a valid signature', () => {
  /** A refresh token sealed with this deployment's secret, as /token would issue it, bound to `clientId`. */
  async function sealedRefreshToken(clientId: string): Promise<string> {
    const config = testConfig(forge.apiUrl, oauthEnv(forge, stateless.url, { OAUTH_STATELESS_MODE: 'true' }));
    const tokens = new OwnTokens(
      sealerFromConfig(config, now),
      { resource: `${stateless.url}/mcp`, accessTtlSeconds: 3600, refreshTtlSeconds: 2_592_000 },
      now,
    );
    const pair = await tokens.issue(
      { apiUrl: config.forgeApiUrls[0], scope: 'api', clientId },
      { access_token: 'a'.repeat(64), token_type: 'Bearer', refresh_token: 'b'.repeat(64) },
    );
    return pair.refresh_token!;
  }

  test('a lapsed genuine id bound in such a refresh token is admitted (the refresh reaches the forge)', async () => {
    const genuine = await registerClient(stateless.url);
    const refreshToken = await sealedRefreshToken(genuine);
    clock = PAST_CLIENT_TTL;
    forge.requests.length = 0;
    // The forge does not know the made-up forge refresh token inside: it refuses it.
    await expectError(await redeem(stateless.url, refreshGrant(genuine, refreshToken)), 400, 'invalid_client', 'register again (the forge refused the refresh');
    expect(forgeTokenRequests().length).toBe(1);
  });

  test('a forged id, or one signed with another secret, is refused as a client even when a genuine refresh token names it; nothing reaches the forge', async () => {
    const genuine = await registerClient(stateless.url);
    // Another first character of the signature (the last one carries bits that are ignored).
    const dot = genuine.lastIndexOf('.');
    const forged = `${genuine.slice(0, dot + 1)}${genuine[dot + 1] === 'A' ? 'B' : 'A'}${genuine.slice(dot + 2)}`;
    const otherSecret = await Sealer.create({
      secret: Buffer.alloc(32, 9).toString('base64url'),
      ttlSeconds: { cid: 86400, ps: 600, pc: 120, sid: 3600, dl: 300 },
      now,
    });
    const foreign = await otherSecret.seal('cid', { r: [REDIRECT] });
    for (const clientId of [forged, foreign]) {
      const refreshToken = await sealedRefreshToken(clientId);
      for (const t of [0, PAST_CLIENT_TTL]) {
        clock = t;
        forge.requests.length = 0;
        const body = await expectError(await redeem(stateless.url, refreshGrant(clientId, refreshToken)), 400, 'invalid_client');
        expect(body.error_description).toBe('unknown or expired client_id: register again');
        expect(forgeTokenRequests()).toEqual([]);
      }
    }
  });

  test("a refresh on another replica than the sign-in, past the registration's lifetime", async () => {
    const first = await ownTokens(stateless.url);
    stateless.route = () => 1;
    clock = PAST_CLIENT_TTL;
    const second = await refreshed(stateless.url, first.clientId, first.refresh_token!);
    await expectUsable(stateless.url, second.access_token);
  });
});

describe('stateful with OAUTH_STATELESS_SECRET: a restart loses the registrations, not the refresh', () => {
  test('after a restart the refresh token refreshes (its client id is no longer registered), the new access token works, and the id no longer starts an authorization', async () => {
    const durable = await serveOAuth(forge, { now, env: { OAUTH_STATELESS_SECRET: SECRET } });
    try {
      resetForge(forge, durable);
      const first = await ownTokens(durable.url);
      expect(first.clientId).not.toStartWith('v1.cid.');
      await durable.restart();
      // D23: the access token survives the restart…
      await expectUsable(durable.url, first.access_token);
      // …and so does the refresh token, though the registration is gone.
      const second = await refreshed(durable.url, first.clientId, first.refresh_token!);
      await expectUsable(durable.url, second.access_token);
      const response = await fetch(authorizeUrl(durable.url, { client_id: first.clientId, code_challenge: pkce().challenge }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      // Past the registration's lifetime, after another restart, the chain goes on.
      clock = PAST_CLIENT_TTL;
      await durable.restart();
      await refreshed(durable.url, first.clientId, second.refresh_token);
    } finally {
      await durable.stop();
    }
  });

  test('without OAUTH_STATELESS_SECRET a restart ends the tokens (a per-process key): the refresh is refused, and the client told to register again', async () => {
    const ephemeral = await serveOAuth(forge, { now });
    try {
      resetForge(forge, ephemeral);
      const first = await ownTokens(ephemeral.url);
      await ephemeral.restart();
      await expectError(
        await redeem(ephemeral.url, refreshGrant(first.clientId, first.refresh_token!)),
        400,
        'invalid_client',
        'register again (the refresh token is invalid',
      );
    } finally {
      await ephemeral.stop();
    }
  });
});
