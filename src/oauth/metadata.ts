// Discovery documents (docs/spec.md "OAuth mode", D22): this server is the authorization server
// its MCP clients see (RFC 8414) and the protected resource they call (RFC 9728). Clients refuse to
// proceed without `code_challenge_methods_supported`, and check that `issuer` is exactly the URL
// they discovered, so both come from MCP_SERVER_URL unchanged. `scopes_supported` lists the forge
// scopes this server requests on the caller's behalf (D29); challenges name where discovery starts
// and the scope to ask for.
import { SCOPES_SUPPORTED } from './scopes';
import type { OAuthSettings } from './settings';

export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** WWW-Authenticate of a 401 on /mcp: where to start discovery and the scope to ask for (D29). */
export function bearerChallenge(s: OAuthSettings): string {
  return `Bearer resource_metadata="${s.serverUrl}${PRM_PATH}/mcp", scope="${s.scope}"`;
}

/** WWW-Authenticate of the 403 for a write tool called with a read_api token: step up to api (D29). */
export function stepUpChallenge(s: OAuthSettings): string {
  return `Bearer error="insufficient_scope", scope="api", resource_metadata="${s.serverUrl}${PRM_PATH}/mcp"`;
}

export function protectedResourceMetadata(s: OAuthSettings) {
  return {
    resource: s.resource,
    authorization_servers: [s.serverUrl],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ['header'],
    resource_name: 'Forge Tool Server',
  };
}

export function authorizationServerMetadata(s: OAuthSettings) {
  return {
    issuer: s.serverUrl,
    authorization_endpoint: `${s.serverUrl}/authorize`,
    token_endpoint: `${s.serverUrl}/token`,
    registration_endpoint: `${s.serverUrl}/register`,
    scopes_supported: SCOPES_SUPPORTED,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    // Registered clients are public: PKCE, not a secret, proves who redeems a code.
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    // Off (OAUTH_CIMD_ENABLED=false), clients fall back to registration_endpoint (D28).
    client_id_metadata_document_supported: s.metadataDocuments,
  };
}
