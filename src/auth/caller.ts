// Who is calling and which forge they talk to. auth/ resolves it from the request (or it is the
// static token of D3), session/ keeps it with a legacy session, and the tools/call handler builds
// its forge client from it.
import type { Credential } from '../forge/credential';

/** The scope of an access token this server issued (D29): `read_api` reads only. */
export type GrantedScope = 'api' | 'read_api';

export interface Caller {
  readonly credential: Credential;
  readonly apiUrl: string;
  /** Short hash of the session id, for log lines (legacy sessions only). */
  readonly sessionTag?: string;
  /**
   * Present when the credential came sealed in this server's own access token (D23): its scope,
   * and the forge it is pinned to (`apiUrl`, never another).
   */
  readonly grant?: {
    readonly scope: GrantedScope;
    /** When the access token it came in ends (seconds since the epoch): a session sealed from it ends then too. */
    readonly expiresAt?: number;
  };
  /**
   * The request's narrowing of the tool selection (D34) as a catalog key (mcp/policy.ts); a legacy
   * session keeps the one of its initialize. Absent: the deployment's own selection.
   */
  readonly policy?: string;
}

/**
 * The caller with the forge a request names (D8), or undefined when the caller's token stays with
 * its own forge: a token sealed for one (D23), or, `kept`, the token a legacy session kept for a
 * request that brought none (docs/spec.md dynamic API URL rule 5).
 */
export function callerAt(caller: Caller, forgeUrl: string | undefined, kept = false): Caller | undefined {
  if (forgeUrl === undefined || forgeUrl === caller.apiUrl) return caller;
  return caller.grant || kept ? undefined : { ...caller, apiUrl: forgeUrl };
}
