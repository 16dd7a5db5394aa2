// The door of a legacy session (D7), and of every modern-lane request (D38): a credential the caller
// brought is checked with the forge (auth/credential-check.ts, cached) before a session is opened
// for it or a modern request is served. A credential the
// forge rejects gets HTTP 401 and no session; when the forge cannot say, the request goes on
// (logged) and the forge judges the token again on each tool call. Credentials the caller resolver
// has vouched for already (the static token of D3, bearer tokens OAuth mode checked itself) pass.
import type { CredentialChecks } from '../auth/credential-check';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { Logger } from '../logging/logger';
import type { Caller } from '../auth/caller';
import { MESSAGES, challengeWithError } from '../web/errors';
import { jsonRpc, type Refusals } from '../web/refusals';
import type { McpRequest } from './mcp-prelude';

interface CredentialGateDeps {
  checks: CredentialChecks;
  /** WWW-Authenticate of the caller resolver; a rejection adds error="invalid_token". */
  challenge: string;
  /** Whether the caller resolver has already had this caller's credential checked. */
  alreadyChecked(caller: Caller): boolean;
  logger: Logger;
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
}

/**
 * Resolves to the 401 that refuses the caller, or undefined when the session may open (legacy) or
 * the request go on (modern lane, D38). From the request: its id and lane for the log, the
 * JSON-RPC id the 401 carries (modern lane), its span (tracing on) as the parent of the check's
 * forge requests (D46).
 */
export type CredentialGate = (
  caller: Caller,
  endpoint: ForgeEndpoint,
  req: Pick<McpRequest, 'requestId' | 'lane' | 'replyId' | 'trace'>,
) => Promise<Response | undefined>;

export function createCredentialGate(deps: CredentialGateDeps): CredentialGate {
  const rejectedChallenge = challengeWithError(deps.challenge, 'invalid_token');
  return async (caller, endpoint, { requestId, lane, replyId, trace }) => {
    if (deps.alreadyChecked(caller)) return undefined;
    const verdict = await deps.checks.check(caller.credential, endpoint, trace);
    if (verdict === 'rejected') {
      // A forge URL that points at a web page answers 200 with HTML: the log says so (issue 32).
      const reason = deps.checks.notForge(caller.credential, endpoint)
        ? 'the forge answered the check with no JSON user record (is the forge URL a GitLab API?)'
        : 'forge rejected the credential';
      return deps.refusals.noCredential(
        MESSAGES.forgeRejectedToken,
        rejectedChallenge,
        { request_id: requestId, lane, reason, credential: caller.credential.kind },
        jsonRpc(replyId),
      );
    }
    if (verdict === 'unknown') deps.logger.warn('credential_check_unavailable', { request_id: requestId, credential: caller.credential.kind });
    return undefined;
  };
}
