// Who is calling and which forge they talk to. auth/ resolves it from the request (or it is the
// static token of D3), session/ keeps it with a legacy session, and the tools/call handler builds
// its forge client from it.
import type { Credential } from '../forge/credential';

export interface Caller {
  readonly credential: Credential;
  readonly apiUrl: string;
  /** Short hash of the session id, for log lines (legacy sessions only). */
  readonly sessionTag?: string;
}
