// The kinds of sealed value, their protection and their default lifetimes (docs/spec.md "Stateless mode").

export const SEALED_KINDS = {
  /** Dynamic client registration client_id: redirect URIs and client name. Signed, readable. */
  cid: { protection: 'hmac' },
  /** Callback-proxy authorize state: the client's redirect URI, state, code challenge and our PKCE verifier. */
  ps: { protection: 'aead' },
  /** Proxy code handed to the client at the callback: the forge tokens. */
  pc: { protection: 'aead' },
  /** Mcp-Session-Id: the caller's credential, forge URL and issue time. */
  sid: { protection: 'aead' },
  /** Download token for one attachment: the caller's credential, forge URL, project, secret and file name. */
  dl: { protection: 'aead' },
  /** OAuth access token this server issues (D23): the forge token, forge URL, scope, client id, audience, expiry. */
  at: { protection: 'aead' },
  /** OAuth refresh token this server issues (D23): the forge refresh token, forge URL, scope, client id, expiry. */
  rt: { protection: 'aead' },
  /**
   * A refresh answer remembered for its grace period (D23, oauth/refresh-reuse.ts): the token pair a
   * refresh handed out and the request it answered. Never leaves the server: it is kept in memory or
   * in the shared store of D37, which thus holds no token in clear.
   */
  ra: { protection: 'aead' },
  /**
   * The state of a confirmation question (D42, mcp/confirmation.ts): hashes of the credential, the
   * tool and its exact arguments, and a nonce for single use. Echoed by the client, opened by any replica.
   */
  cf: { protection: 'aead' },
} as const;

export type SealedKind = keyof typeof SEALED_KINDS;

/** The OAuth token kinds (D23): their lifetimes come from the OAuth token settings. */
type TokenKind = 'at' | 'rt';

/** Defaults of OAUTH_ACCESS_TOKEN_TTL_SECONDS and OAUTH_REFRESH_TOKEN_TTL_SECONDS (D23). */
const DEFAULT_TOKEN_TTL_SECONDS: Readonly<Record<TokenKind, number>> = { at: 3600, rt: 2592000 };

/** The kinds whose lifetime has a default here, so a caller need not name it. */
export type DefaultedKind = TokenKind | 'ra' | 'cf';

/**
 * A remembered refresh answer opens for a minute at most, whatever a store keeps; the grace period
 * itself (oauth/refresh-reuse.ts, a few seconds) is checked to the millisecond on the payload.
 */
export const DEFAULT_TTL_SECONDS: Readonly<Record<DefaultedKind, number>> = { ...DEFAULT_TOKEN_TTL_SECONDS, ra: 60, cf: 300 };

export const WIRE_VERSION = 'v1';

/** Largest sealed value accepted for opening; anything longer is refused unread. */
export const MAX_SEALED_LENGTH = 16 * 1024;

/** Values issued up to this far in the future (clock skew between replicas) still open. */
export const FUTURE_SKEW_SECONDS = 60;
