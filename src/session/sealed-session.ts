// Stateless sessions (docs/spec.md stateless rules 2–4): the Mcp-Session-Id is a sealed `v1.sid.` value
// holding the caller's credential and forge URL (and, for a token of this server's own, its scope,
// D29); its issue time makes the TTL an inactivity timeout,
// since every authenticated response carries a freshly sealed id.
// An id stands in for a credential, so it is held to what the credential would be held to: it
// opens only on the deployment that sealed it (its public URL, as an access token's audience, D23),
// only for a forge this deployment may call (D8), and an id sealed from this server's own access
// token ends when that token does (D23), whatever its inactivity timeout.
import type { Credential, CredentialKind } from '../forge/credential';
import type { Caller, GrantedScope } from '../auth/caller';
import { sessionTag } from '../logging/logger';
import type { Sealer } from '../sealing/sealer';

interface SidPayload {
  /** credential kind */
  k: CredentialKind;
  /** token */
  t: string;
  /** forge API URL */
  u: string;
  /** short tag for logs, stable across re-issues */
  g: string;
  /** the scope of this server's own token the credential came in (D23, D29); absent otherwise */
  s?: GrantedScope;
  /** the session's tool policy key (D34); absent: none */
  p?: string;
  /** the deployment that sealed it: its MCP_SERVER_URL ('' without one) */
  a: string;
  /** when the access token the credential came in ends (seconds since the epoch); absent for other credentials */
  x?: number;
}

interface SessionBinding {
  /** This deployment: MCP_SERVER_URL without a trailing slash, '' when it has none. */
  audience: string;
  /** Whether this deployment may call the forge of this API URL (FORGE_API_URL, or D8's policy). */
  forgeAllowed(apiUrl: string): boolean;
  now?: () => number;
}

const KINDS = new Set<CredentialKind>(['private', 'bearer', 'job']);

export class SealedSessions {
  private readonly now: () => number;

  constructor(
    private readonly sealer: Sealer,
    private readonly binding: SessionBinding,
  ) {
    this.now = binding.now ?? Date.now;
  }

  /** A fresh id for this caller; the log tag stays the one the session started with. */
  issue(caller: Caller): Promise<string> {
    const tag = caller.sessionTag ?? sessionTag(crypto.randomUUID());
    const grant = caller.grant;
    const payload: SidPayload = {
      k: caller.credential.kind,
      t: caller.credential.token,
      u: caller.apiUrl,
      g: tag,
      a: this.binding.audience,
      ...(grant ? { s: grant.scope, ...(grant.expiresAt !== undefined ? { x: grant.expiresAt } : {}) } : {}),
      ...(caller.policy ? { p: caller.policy } : {}),
    };
    return this.sealer.seal('sid', payload);
  }

  /**
   * The caller sealed in the id, or undefined when it is malformed, tampered, foreign (another
   * deployment's, or for a forge this one may not call) or expired (idle too long, or its access
   * token ended).
   */
  async open(sessionId: string): Promise<Caller | undefined> {
    const opened = await this.sealer.open<SidPayload>('sid', sessionId);
    if (!opened.ok) return undefined;
    const { k, t, u, g, s, p, a, x } = opened.payload;
    if (!KINDS.has(k) || typeof t !== 'string' || typeof u !== 'string' || typeof g !== 'string') return undefined;
    if (p !== undefined && typeof p !== 'string') return undefined;
    if (a !== this.binding.audience || !this.binding.forgeAllowed(u)) return undefined;
    if (s !== undefined) {
      // A grant's id ends with its access token; an id without the token's end is not one this server seals.
      if ((s !== 'api' && s !== 'read_api') || typeof x !== 'number' || x <= this.now() / 1000) return undefined;
    } else if (x !== undefined) return undefined;
    const credential: Credential = { kind: k, token: t };
    return { credential, apiUrl: u, sessionTag: g, ...(s ? { grant: { scope: s, expiresAt: x } } : {}), ...(p ? { policy: p } : {}) };
  }
}
