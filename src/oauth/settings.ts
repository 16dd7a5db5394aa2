// What OAuth mode needs from the configuration, worked out once (D21): the public base
// URL (which is also the issuer), the forge's OAuth base, this server's application at the forge,
// the default scope (D29), and the lifetimes of the short-lived values and of the tokens (D23).
import type { Config } from '../config/load';
import { forgeBaseOf } from '../forge/api-url';
import type { Scope } from './scopes';

export interface OAuthSettings {
  /** MCP_SERVER_URL without a trailing slash: the issuer and the base of every endpoint. */
  readonly serverUrl: string;
  /** The protected resource: `{serverUrl}/mcp`. */
  readonly resource: string;
  /** `{serverUrl}/callback`, the redirect URI registered with the forge application. */
  readonly callbackUrl: string;
  /** FORGE_API_URL (first entry) without `/api/v4`: where /oauth/authorize and /oauth/token live. */
  readonly forgeBase: string;
  /** The forge API URL bearer tokens are checked against and used with. */
  readonly forgeApiUrl: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The scope granted when a client names none (D29): read_api when the server is read-only, api otherwise. */
  readonly scope: Scope;
  readonly consent: boolean;
  readonly stateless: boolean;
  /** Lifetimes in seconds: client registrations, pending authorizations (consent and state), proxy codes. */
  readonly ttlSeconds: { readonly client: number; readonly pending: number; readonly code: number };
  /** OAUTH_ACCESS_TOKEN_TTL_SECONDS and OAUTH_REFRESH_TOKEN_TTL_SECONDS (D23). */
  readonly tokenTtlSeconds: { readonly access: number; readonly refresh: number };
  /** REMOTE_AUTHORIZATION: a bearer that is not this server's own is taken as a forge token (D23). */
  readonly acceptsForgeBearers: boolean;
  /** Cookies get `Secure` and the `__Host-` prefix when the server is reached over https. */
  readonly secureCookies: boolean;
  /** OAUTH_CIMD_ENABLED: a URL client_id is a Client ID Metadata Document fetched from its host (D28). */
  readonly metadataDocuments: boolean;
  /** Requests allowed per client IP and minute on each of /register, /authorize, /consent, /callback and /token (not applied in stateless mode). */
  readonly requestsPerMinutePerIp: number;
}

export function oauthSettings(config: Config): OAuthSettings {
  if (!config.MCP_SERVER_URL || !config.FORGE_OAUTH_CLIENT_ID) throw new Error('OAuth mode needs MCP_SERVER_URL and FORGE_OAUTH_CLIENT_ID');
  const serverUrl = config.MCP_SERVER_URL.replace(/\/+$/, '');
  const forgeApiUrl = config.forgeApiUrls[0];
  return Object.freeze({
    serverUrl,
    resource: `${serverUrl}/mcp`,
    callbackUrl: `${serverUrl}/callback`,
    forgeBase: forgeBaseOf(forgeApiUrl),
    forgeApiUrl,
    clientId: config.FORGE_OAUTH_CLIENT_ID,
    clientSecret: config.FORGE_OAUTH_CLIENT_SECRET,
    scope: config.FORGE_READ_ONLY_MODE ? 'read_api' : 'api',
    consent: config.MCP_OAUTH_CONSENT,
    stateless: config.OAUTH_STATELESS_MODE,
    ttlSeconds: Object.freeze({
      client: config.OAUTH_STATELESS_CLIENT_TTL_SECONDS,
      pending: config.OAUTH_STATELESS_PENDING_TTL_SECONDS,
      code: config.OAUTH_STATELESS_STORED_TTL_SECONDS,
    }),
    tokenTtlSeconds: Object.freeze({ access: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS, refresh: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS }),
    acceptsForgeBearers: config.REMOTE_AUTHORIZATION,
    secureCookies: new URL(serverUrl).protocol === 'https:',
    requestsPerMinutePerIp: config.MAX_REQUESTS_PER_MINUTE,
    metadataDocuments: config.OAUTH_CIMD_ENABLED,
  });
}
