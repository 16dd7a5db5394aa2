// OAuth without outbound fetches (D28, OAUTH_CIMD_ENABLED=false): the authorization server metadata
// no longer advertises Client ID Metadata Documents, a URL client_id is invalid_client saying why
// (and nothing is fetched), and the SDK's client, which prefers a metadata document where one is
// advertised, falls back to registration and signs in.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { SEED, startFakeForge, type FakeForge } from './support/fake-forge';
import { TestOAuthProvider } from './support/fake-oauth-client';
import { registerForgeApp, serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { structured } from './support/mcp-client';

/** A client that publishes a metadata document (as Claude Code does); never fetched here. */
const DOCUMENT = 'https://client.example.com/oauth/client-metadata.json';
class DocumentClient extends TestOAuthProvider {
  readonly clientMetadataUrl = DOCUMENT;
}

let forge: FakeForge;
let off: ServedOAuth;
let on: ServedOAuth;
beforeAll(async () => {
  forge = await startFakeForge();
  off = await serveOAuth(forge, { env: { OAUTH_CIMD_ENABLED: 'false' } });
  on = await serveOAuth(forge);
  registerForgeApp(forge, off.url);
});
afterAll(async () => {
  await off.stop();
  await on.stop();
  await forge.stop();
});

const metadata = async (base: string) => (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;

describe('OAUTH_CIMD_ENABLED=false', () => {
  test('the metadata says so, and still names the registration endpoint', async () => {
    expect((await metadata(on.url)).client_id_metadata_document_supported).toBe(true);
    const meta = await metadata(off.url);
    expect(meta.client_id_metadata_document_supported).toBe(false);
    expect(meta.registration_endpoint).toBe(`${off.url}/register`);
  });

  test('a URL client_id at /authorize is invalid_client naming the setting; nothing redirects', async () => {
    const query = new URLSearchParams({
      client_id: DOCUMENT,
      redirect_uri: 'http://127.0.0.1:33418/callback',
      response_type: 'code',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const response = await fetch(`${off.url}/authorize?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_client');
    expect(body.error_description).toContain('OAUTH_CIMD_ENABLED=false');
    expect(body.error_description).toContain('register');
  });

  test.each(['authorization_code', 'refresh_token'])('a URL client_id at /token (%s) is invalid_client naming the setting too', async (grant) => {
    const response = await fetch(`${off.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: grant, client_id: DOCUMENT, code: 'x', refresh_token: 'x', code_verifier: 'x'.repeat(43) }),
    });
    expect(response.status).toBe(400); // a client named in the body used no HTTP authentication: 400, not 401;
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_client');
    expect(body.error_description).toContain('OAUTH_CIMD_ENABLED=false');
    expect(body.error_description).not.toContain('unknown or expired');
  });

  test('the SDK client falls back to registration and signs in; where documents are on it would use its URL', async () => {
    // Where documents are advertised, the SDK sends its URL as the client_id.
    const preferring = new DocumentClient();
    const probe = new Client({ name: 'cimd-off', version: '1.0.0' });
    await expect(probe.connect(new StreamableHTTPClientTransport(new URL(`${on.url}/mcp`), { authProvider: preferring }))).rejects.toThrow(UnauthorizedError);
    expect(preferring.authorizationUrl?.searchParams.get('client_id')).toBe(DOCUMENT);

    const provider = new DocumentClient();
    const first = new StreamableHTTPClientTransport(new URL(`${off.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'cimd-off', version: '1.0.0' }).connect(first)).rejects.toThrow(UnauthorizedError);
    const clientId = provider.authorizationUrl?.searchParams.get('client_id');
    expect(clientId).toBeTruthy();
    expect(clientId).not.toBe(DOCUMENT);
    const landing = await provider.completeSignIn();
    expect(landing.error).toBeUndefined();
    await first.finishAuth(landing.url.searchParams);
    const client = new Client({ name: 'cimd-off', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${off.url}/mcp`), { authProvider: provider }));
    const result = (await client.callTool({ name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } })) as CallToolResult;
    expect(structured<{ name: string }>(result).name).toBe('main');
    await client.close();
  });
});
