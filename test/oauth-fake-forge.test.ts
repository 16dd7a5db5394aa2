// The fake forge's OAuth provider answers like GitLab's Doorkeeper, so the OAuth tests mean
// something: it never redirects to an unregistered URI, checks PKCE S256, uses codes once, rotates
// refresh tokens, and its access tokens work on /api/v4 until they expire.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { pkce } from './support/fake-oauth-steps';

let forge: FakeForge;
let origin: string;
const APP = { uid: 'app-1', redirectUris: ['http://127.0.0.1:9/cb'], scopes: ['api', 'read_api'] };

beforeAll(async () => {
  forge = await startFakeForge();
  origin = new URL(forge.apiUrl).origin;
});
beforeEach(() => {
  forge.reset();
  forge.oauth.registerApp({ ...APP });
});
afterAll(() => forge.stop());

function authorize(params: Record<string, string>) {
  const url = new URL(`${origin}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: APP.uid,
    redirect_uri: APP.redirectUris[0],
    response_type: 'code',
    state: 's1',
    scope: 'api',
    ...params,
  }).toString();
  return fetch(url, { redirect: 'manual' });
}

async function code(challenge: string): Promise<string> {
  const response = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(location.searchParams.get('state')).toBe('s1');
  return location.searchParams.get('code')!;
}

const token = (params: Record<string, string>) =>
  fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: APP.uid, ...params }).toString(),
  });

describe('authorize', () => {
  test('an unregistered redirect URI or client gets an error page, never a redirect', async () => {
    for (const response of [
      await authorize({ redirect_uri: 'http://127.0.0.1:9/other', code_challenge: pkce().challenge }),
      await authorize({ client_id: 'nope', code_challenge: pkce().challenge }),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  test('a public application must use PKCE; an unknown scope is refused', async () => {
    expect(new URL((await authorize({})).headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    expect(new URL((await authorize({ code_challenge: pkce().challenge, scope: 'sudo' })).headers.get('location')!).searchParams.get('error')).toBe(
      'invalid_scope',
    );
  });
});

describe('token', () => {
  test('PKCE S256 is checked, codes are single-use, tokens work on the API and in token/info', async () => {
    const p = pkce();
    const c = await code(p.challenge);
    expect((await token({ grant_type: 'authorization_code', code: c, redirect_uri: APP.redirectUris[0], code_verifier: pkce().verifier })).status).toBe(400);
    const response = await token({ grant_type: 'authorization_code', code: c, redirect_uri: APP.redirectUris[0], code_verifier: p.verifier });
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as { access_token: string; refresh_token: string; token_type: string; expires_in: number; scope: string };
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'api' });
    expect(
      (
        (await (await token({ grant_type: 'authorization_code', code: c, redirect_uri: APP.redirectUris[0], code_verifier: p.verifier })).json()) as {
          error: string;
        }
      ).error,
    ).toBe('invalid_grant');
    const user = await fetch(`${forge.apiUrl}/user`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(user.status).toBe(200);
    const info = await fetch(`${origin}/oauth/token/info`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(await info.json()).toMatchObject({ resource_owner_id: 1, scope: ['api'], application: { uid: APP.uid } });
  });

  test('refresh rotates the pair; an expired access token is refused by the API but refreshable', async () => {
    const p = pkce();
    const first = (await (
      await token({ grant_type: 'authorization_code', code: await code(p.challenge), redirect_uri: APP.redirectUris[0], code_verifier: p.verifier })
    ).json()) as { access_token: string; refresh_token: string };
    forge.oauth.expire(first.access_token);
    expect((await fetch(`${forge.apiUrl}/user`, { headers: { Authorization: `Bearer ${first.access_token}` } })).status).toBe(401);
    const second = (await (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).json()) as { access_token: string };
    expect((await fetch(`${forge.apiUrl}/user`, { headers: { Authorization: `Bearer ${second.access_token}` } })).status).toBe(200);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(400);
    expect((await fetch(`${origin}/oauth/token/info`, { headers: { Authorization: `Bearer ${first.access_token}` } })).status).toBe(401);
  });

  test('a confidential application must send its secret', async () => {
    forge.oauth.registerApp({ ...APP, secret: 's3cret' });
    const p = pkce();
    const c = await code(p.challenge);
    const refused = await token({ grant_type: 'authorization_code', code: c, redirect_uri: APP.redirectUris[0], code_verifier: p.verifier });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
    expect(
      (await token({ grant_type: 'authorization_code', code: c, redirect_uri: APP.redirectUris[0], code_verifier: p.verifier, client_secret: 's3cret' }))
        .status,
    ).toBe(200);
  });
});
