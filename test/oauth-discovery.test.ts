// OAuth mode's discovery (docs/spec.md "OAuth mode", D22, D29): protected resource metadata at both
// paths, authorization server metadata whose issuer is MCP_SERVER_URL exactly, both listing the
// scopes read_api and api, and the 401 on /mcp that points clients at them and names the scope.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { INITIALIZE } from './support/mcp-client';

let forge: FakeForge;
let served: ServedOAuth;
beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge);
});
afterAll(async () => {
  await served.stop();
  await forge.stop();
});

describe('protected resource metadata (RFC 9728)', () => {
  test.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
    '%s names /mcp and this server as its authorization server',
    async (path) => {
      const response = await fetch(`${served.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: `${served.url}/mcp`,
        authorization_servers: [served.url],
        scopes_supported: ['read_api', 'api'],
        bearer_methods_supported: ['header'],
        resource_name: 'Forge Tool Server',
      });
    },
  );
});

describe('authorization server metadata (RFC 8414)', () => {
  test('issuer is MCP_SERVER_URL exactly; S256 only; code and refresh grants; scopes read_api and api (D29)', async () => {
    const response = await fetch(`${served.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).toEqual({
      issuer: served.url,
      authorization_endpoint: `${served.url}/authorize`,
      token_endpoint: `${served.url}/token`,
      registration_endpoint: `${served.url}/register`,
      scopes_supported: ['read_api', 'api'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  test('a read-only server lists the same scopes (D29) and its 401 challenge names read_api', async () => {
    const readOnly = await serveOAuth(forge, { env: { FORGE_READ_ONLY_MODE: 'true' } });
    try {
      const as = (await (await fetch(`${readOnly.url}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[] };
      const prm = (await (await fetch(`${readOnly.url}/.well-known/oauth-protected-resource`)).json()) as { scopes_supported: string[] };
      expect(as.scopes_supported).toEqual(['read_api', 'api']);
      expect(prm.scopes_supported).toEqual(['read_api', 'api']);
      const response = await fetch(`${readOnly.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${readOnly.url}/.well-known/oauth-protected-resource/mcp", scope="read_api"`,
      );
    } finally {
      await readOnly.stop();
    }
  });

  test('browser-based clients may call the public endpoints cross-origin (preflight)', async () => {
    for (const path of ['/register', '/token', '/.well-known/oauth-authorization-server']) {
      const response = await fetch(`${served.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-headers')).toContain('Content-Type');
    }
  });
});

describe('/mcp without credentials', () => {
  const challenge = () => `Bearer resource_metadata="${served.url}/.well-known/oauth-protected-resource/mcp", scope="api"`;

  test('POST answers 401 with WWW-Authenticate resource_metadata and scope (D29)', async () => {
    const response = await fetch(`${served.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(challenge());
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Missing Authorization or Private-Token header');
  });

  test('DELETE passes the same check: 401 before the session is looked at', async () => {
    const response = await fetch(`${served.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': 'some-session' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(challenge());
  });
});
