// The tokens this server hands to MCP clients (D23): its own, never the forge's. An access token
// is a sealed `v1.at.` value holding the forge token, forge API URL, scope, client id, audience
// (`{MCP_SERVER_URL}/mcp`) and expiry; a refresh token is a sealed `v1.rt.` value holding the forge
// refresh token, bound to the client id and to the same audience, so two deployments that share a
// sealing secret never redeem each other's refresh tokens either (issue 32). Both are AES-256-GCM (sealing/), so nothing inside is
// readable or changeable by the holder, and checking one is local: seal, kind, expiry, audience.
import type { Sealer } from '../sealing/sealer';
import type { ForgeTokens } from './forge-oauth';
import { isScope, type Scope } from './scopes';

/** What a token grants: which forge, which scope, for which client. */
interface Grant {
  readonly apiUrl: string;
  readonly scope: Scope;
  readonly clientId: string;
}

interface AccessPayload {
  /** forge access token */
  f: string;
  /** forge API URL */
  u: string;
  /** scope */
  s: Scope;
  /** client id */
  c: string;
  /** audience */
  a: string;
  /** expiry, Unix seconds */
  e: number;
}

interface RefreshPayload {
  /** forge refresh token */
  f: string;
  u: string;
  s: Scope;
  c: string;
  /** audience: the issuing deployment's resource, as an access token's */
  a: string;
  e: number;
}

export interface TokenResponseBody {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: Scope;
}

export type TokenRefusal = 'malformed' | 'invalid' | 'expired' | 'audience';

/** `expiresAt`: when the access token ends, in seconds since the epoch. */
type AccessCheck = { ok: true; forgeToken: string; grant: Grant; expiresAt: number } | { ok: false; reason: TokenRefusal };
export type RefreshCheck = { ok: true; forgeRefreshToken: string; grant: Grant; expiresAt: number } | { ok: false; reason: TokenRefusal };

interface OwnTokenSettings {
  /** The audience: `{MCP_SERVER_URL}/mcp`. */
  resource: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export const ACCESS_PREFIX = 'v1.at.';
export const REFRESH_PREFIX = 'v1.rt.';

const grantOf = (p: { u: unknown; s: unknown; c: unknown }): Grant | undefined =>
  typeof p.u === 'string' && isScope(p.s) && typeof p.c === 'string' ? { apiUrl: p.u, scope: p.s, clientId: p.c } : undefined;

export class OwnTokens {
  constructor(
    /** The deployment's sealer (keys derived at start-up). */
    private readonly sealer: Promise<Sealer>,
    private readonly s: OwnTokenSettings,
    private readonly now: () => number,
  ) {}

  /**
   * A fresh pair for `grant` around the forge's tokens. `forgeExpiresAt` (Unix seconds) is when the
   * forge token runs out: the access token never outlives it. No forge refresh token, no refresh token.
   * `accessScope` narrows the access token alone (a refresh asking for less, RFC 6749 §6); the refresh
   * token keeps the grant's scope, which RFC 6749 §6 requires of a rotated refresh token.
   */
  async issue(grant: Grant, forge: ForgeTokens, forgeExpiresAt?: number, accessScope: Scope = grant.scope): Promise<TokenResponseBody> {
    const sealer = await this.sealer;
    const nowS = Math.floor(this.now() / 1000);
    const expiresAt = Math.max(nowS, Math.min(nowS + this.s.accessTtlSeconds, forgeExpiresAt ?? Number.POSITIVE_INFINITY));
    const access: AccessPayload = { f: forge.access_token, u: grant.apiUrl, s: accessScope, c: grant.clientId, a: this.s.resource, e: expiresAt };
    const body: TokenResponseBody = {
      access_token: await sealer.seal('at', access),
      token_type: 'Bearer',
      expires_in: expiresAt - nowS,
      scope: accessScope,
    };
    if (forge.refresh_token) {
      const refresh: RefreshPayload = {
        f: forge.refresh_token,
        u: grant.apiUrl,
        s: grant.scope,
        c: grant.clientId,
        a: this.s.resource,
        e: nowS + this.s.refreshTtlSeconds,
      };
      body.refresh_token = await sealer.seal('rt', refresh);
    }
    return body;
  }

  /** The local bearer check of /mcp: seal, kind, expiry, audience. */
  async openAccess(value: string): Promise<AccessCheck> {
    const opened = await (await this.sealer).open<AccessPayload>('at', value);
    if (!opened.ok) return { ok: false, reason: opened.reason === 'expired' ? 'expired' : opened.reason === 'invalid' ? 'invalid' : 'malformed' };
    const p = opened.payload;
    const grant = grantOf(p);
    if (!grant || typeof p.f !== 'string' || typeof p.e !== 'number' || typeof p.a !== 'string') return { ok: false, reason: 'malformed' };
    if (p.e <= Math.floor(this.now() / 1000)) return { ok: false, reason: 'expired' };
    if (p.a !== this.s.resource) return { ok: false, reason: 'audience' };
    return { ok: true, forgeToken: p.f, grant, expiresAt: p.e };
  }

  async openRefresh(value: string): Promise<RefreshCheck> {
    const opened = await (await this.sealer).open<RefreshPayload>('rt', value);
    if (!opened.ok) return { ok: false, reason: opened.reason === 'expired' ? 'expired' : opened.reason === 'invalid' ? 'invalid' : 'malformed' };
    const p = opened.payload;
    const grant = grantOf(p);
    if (!grant || typeof p.f !== 'string' || typeof p.e !== 'number') return { ok: false, reason: 'malformed' };
    if (p.e <= Math.floor(this.now() / 1000)) return { ok: false, reason: 'expired' };
    // A refresh token sealed before it carried an audience (no `a`) cannot show whose it is: refused too.
    if (p.a !== this.s.resource) return { ok: false, reason: 'audience' };
    return { ok: true, forgeRefreshToken: p.f, grant, expiresAt: p.e * 1000 };
  }
}
