// Refresh tokens are bound to the deployment that issued them (D23, issue 32), as access tokens
// are: two deployments built with one sealing secret (OAUTH_STATELESS_SECRET) at different public
// URLs each redeem their own refresh tokens and refuse the other's, without asking the forge.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { resetForge, serveOAuth, stopAll, type ServedOAuth } from './support/fake-oauth-harness';
import { expectError, ownTokens, redeem, refreshGrant } from './support/fake-oauth-steps';

setDefaultTimeout(30_000);

let forge: FakeForge;
let first: ServedOAuth;
let second: ServedOAuth;
beforeAll(async () => {
  forge = await startFakeForge();
  // Stateless mode: both derive every key from the harness's one OAUTH_STATELESS_SECRET, so each
  // opens the other's sealed client ids and tokens; only their MCP_SERVER_URL differs.
  first = await serveOAuth(forge, { env: { OAUTH_STATELESS_MODE: 'true', MCP_OAUTH_CONSENT: 'false' } });
  second = await serveOAuth(forge, { env: { OAUTH_STATELESS_MODE: 'true', MCP_OAUTH_CONSENT: 'false' } });
});
beforeEach(() => resetForge(forge, first, second));
afterAll(() => stopAll(forge, first, second));

const forgeRefreshes = () =>
  forge.requests.filter((r) => r.path === '/oauth/token' && (r.body as Record<string, string>).grant_type === 'refresh_token').length;

describe('a refresh token redeems only at the deployment that issued it', () => {
  test('issued by the first: refused by the second as issued for another server, then redeemed by the first', async () => {
    expect(first.url).not.toBe(second.url);
    const tokens = await ownTokens(first.url);
    const before = forgeRefreshes();
    await expectError(
      await redeem(second.url, refreshGrant(tokens.clientId, tokens.refresh_token!)),
      400,
      'invalid_grant',
      'the refresh token was issued for another server: sign in again',
    );
    expect(forgeRefreshes()).toBe(before);
    const response = await redeem(first.url, refreshGrant(tokens.clientId, tokens.refresh_token!));
    expect(response.status).toBe(200);
    expect(forgeRefreshes()).toBe(before + 1);
  });

  test('and the other way round', async () => {
    const tokens = await ownTokens(second.url);
    await expectError(await redeem(first.url, refreshGrant(tokens.clientId, tokens.refresh_token!)), 400, 'invalid_grant', 'issued for another server');
    expect((await redeem(second.url, refreshGrant(tokens.clientId, tokens.refresh_token!))).status).toBe(200);
  });
});
