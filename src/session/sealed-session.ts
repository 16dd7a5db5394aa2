// Stateless sessions (docs/spec.md stateless rules 2–4): the Mcp-Session-Id is a sealed `v1.sid.` value
// holding the caller's credential and forge URL (and, for a token of this server's own, its scope,
// D29); its issue time makes the TTL an inactivity timeout,
// since every authenticated response carries a freshly sealed id.
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
}

const KINDS = new Set<CredentialKind>(['private', 'bearer', 'job']);

export class SealedSessions {
  constructor(private readonly sealer: Sealer) {}

  /** A fresh id for this caller; the log tag stays the one the session started with. */
  issue(caller: Caller): Promise<string> {
    const tag = caller.sessionTag ?? sessionTag(crypto.randomUUID());
    const payload: SidPayload = { k: caller.credential.kind, t: caller.credential.token, u: caller.apiUrl, g: tag, ...(caller.grant ? { s: caller.grant.scope } : {}), ...(caller.policy ? { p: caller.policy } : {}) };
    return this.sealer.seal('sid', payload as unknown as Record<string, unknown>);
  }

  /** The caller sealed in the id, or undefined when it is malformed, tampered, foreign or expired. */
  async open(sessionId: string): Promise<Caller | undefined> {
    const opened = await this.sealer.open<SidPayload>('sid', sessionId);
    if (!opened.ok) return undefined;
    const { k, t, u, g, s, p } = opened.payload;
    if (!KINDS.has(k) || typeof t !== 'string' || typeof u !== 'string' || typeof g !== 'string') return undefined;
    if (p !== undefined && typeof p !== 'string') return undefined;
    if (s !== undefined && s !== 'api' && s !== 'read_api') return undefined;
    const credential: Credential = { kind: k, token: t };
    return { credential, apiUrl: u, sessionTag: g, ...(s ? { grant: { scope: s } } : {}), ...(p ? { policy: p } : {}) };
  }
}
