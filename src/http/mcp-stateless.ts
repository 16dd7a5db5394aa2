// /mcp in stateless mode (docs/spec.md "Stateless mode", D9): nothing is kept between requests.
// Each request is authenticated by its live credential or by the caller sealed in its
// Mcp-Session-Id, served by a fresh SDK transport (a plain tools/call by fast-tool-call.ts), and
// answered with a freshly sealed id. A live credential is checked with the forge (cached) before
// it is sealed, so a sealed id only ever holds a credential the forge accepted (D7). GET and DELETE answer 405: there is no stream to
// open and nothing server-side to end; in OAuth mode only after the caller is authenticated (D9).
import type { Server } from '@modelcontextprotocol/server';
import type { CallerResolver } from '../auth/caller-resolver';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import { sessionTag } from '../logging/logger';
import { callerAt, type Caller } from '../auth/caller';
import { createJsonTransport } from '../mcp/transport';
import type { Metrics } from '../metrics/registry';
import type { SealedSessions } from '../session/sealed-session';
import { isInitializeMessage } from '../web/body';
import type { FastToolCall } from './fast-tool-call';
import type { CredentialGate } from './credential-gate';
import { MESSAGES, RPC_CODES, rpcError, sessionNotFound } from '../web/errors';
import type { Refusals } from '../web/refusals';
import { refuseForgeUrl, type McpRequest } from './mcp-prelude';
import { stepUpRefusal, type GrantGuard } from './oauth-scope';
import { createServingTail } from './serving-tail';

interface StatelessMcpDeps {
  sealed: SealedSessions;
  callers: CallerResolver;
  createServer: () => Server;
  logger: Logger;
  metrics: Metrics;
  pool: ForgePool;
  /** Checks a live credential with the forge before it is sealed into an id (D7). */
  credentialGate?: CredentialGate;
  /** OAuth mode: GET and DELETE are authenticated (credential or sealed id) before their 405 (D9). */
  authenticateEveryMethod: boolean;
  /** OAuth mode: step-up and forge rejection for this server's own tokens (D23, D29). */
  grants?: GrantGuard;
  /** Answers the plain tools/call without the SDK (fast-tool-call.ts); absent: all go to the SDK. */
  fastToolCall?: FastToolCall;
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
}

/** Methods served here (the Allow header of a 405). */
export const STATELESS_METHODS = 'POST';

const METHOD_NOT_ALLOWED = () =>
  rpcError(405, 'Method not allowed: stateless mode has no session stream to open or end', RPC_CODES.generic, { Allow: STATELESS_METHODS });

export function createStatelessMcpHandler(deps: StatelessMcpDeps): (req: McpRequest) => Promise<Response> {
  const { sealed, callers, logger, metrics } = deps;

  function authenticationRequired(req: McpRequest): Response {
    return deps.refusals.noCredential(MESSAGES.authenticationRequired, callers.challenge, {
      request_id: req.requestId,
      lane: 'legacy',
      reason: 'no credential',
    });
  }

  // Lease → the credential check of a live credential (D7) → watch → context → the plain
  // tools/call or a fresh SDK server → a freshly sealed id → release (serving-tail.ts).
  // `live`: the caller's credential came with this request and is about to be sealed.
  const serve = createServingTail<boolean>(deps, {
    lane: 'legacy',
    async admit(req, caller, endpoint, live) {
      const refused = live ? await deps.credentialGate?.(caller, endpoint, req) : undefined;
      if (refused) return refused;
      if (isInitializeMessage(req.body)) {
        metrics.totalSessions++;
        logger.info('session_opened', { request_id: req.requestId, credential: caller.credential.kind, stateless: true });
      }
      return undefined;
    },
    // An SDK server costs microseconds to build (its tool list and validators are prebuilt and
    // shared), so each request gets its own, connected to a fresh stateless transport.
    async bySdk(req) {
      const server = deps.createServer();
      const transport = createJsonTransport();
      try {
        await server.connect(transport);
        return await transport.handleRequest(req.request, { parsedBody: req.body });
      } finally {
        await server.close();
      }
    },
    async served(response, caller) {
      if (response.status !== 401) response.headers.set('mcp-session-id', await sealed.issue(caller));
      return response;
    },
  });

  return async function handle(req: McpRequest): Promise<Response> {
    const { found, sessionId } = req;
    if (req.method !== 'POST') {
      if (deps.authenticateEveryMethod && found.status !== 'ok') {
        if (!sessionId) return authenticationRequired(req);
        // Stateless rule 3, for every method: an id that does not open reaches the session rules (404).
        if (!(await sealed.open(sessionId))) return sessionNotFound();
      }
      return METHOD_NOT_ALLOWED();
    }
    const fromId = sessionId ? await sealed.open(sessionId) : undefined;
    let caller: Caller;
    if (found.status === 'ok') {
      // Live credentials win; a stale or foreign id is simply replaced (rule 4).
      // A token sealed for one forge keeps its forge (D23).
      const apiUrl = found.caller.grant ? found.caller.apiUrl : (fromId?.apiUrl ?? found.caller.apiUrl);
      // The policy of the session's initialize, sealed in its id (D34); a new session takes the request's.
      const policy = fromId && !isInitializeMessage(req.body) ? fromId.policy : req.policy;
      caller = { ...found.caller, apiUrl, sessionTag: fromId?.sessionTag ?? sessionTag(crypto.randomUUID()), policy };
    } else if (fromId) {
      caller = fromId; // rule 3: authenticated from the sealed id, on any replica
    } else if (sessionId) {
      return sessionNotFound(); // malformed, tampered, foreign or expired: re-initialize
    } else {
      return authenticationRequired(req);
    }
    // A token the sealed id carries (the request brought none) stays with the session's forge.
    const kept = found.status !== 'ok';
    const pinned = callerAt(caller, req.forgeUrl, kept);
    if (!pinned) return refuseForgeUrl(logger, req, { reason: kept ? 'session opened for another forge' : 'token sealed for another forge' });
    const stepUp = stepUpRefusal(deps.grants, pinned, req.body, null);
    if (stepUp) return stepUp;
    return serve(req, pinned, found.status === 'ok');
  };
}
