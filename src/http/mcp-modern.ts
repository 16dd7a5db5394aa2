// /mcp for MCP 2026-07-28, the modern lane (D27): no sessions. Each request brings its
// own credential (static-token mode: none) and, with dynamic URLs, its own X-Forge-API-URL;
// nothing is sealed or stored, so it is served alike in stateful and stateless mode and on every
// replica. The SDK's modern handler does the revision's own checks (envelope, headers, version,
// methods, cache hints); this module does what is docs/spec.md's: credentials, the per-credential limit
// (D10), the pool's capacity (D7) and the 405 for GET and DELETE, each error carrying the request's
// id. No forge check of the credential happens here: that admits legacy sessions only (D7), and a
// modern request holds no slot. A token of this server's own gets its scope and forge-rejection
// handling (oauth-scope.ts, D23/D29).
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';
import type { CallerResolver } from '../auth/caller-resolver';
import type { ForgePool } from '../forge/pool';
import { MESSAGES, RPC_CODES, rpcError, withRequestId } from '../web/errors';
import { jsonRpc, type Refusals } from '../web/refusals';
import type { FastToolCall } from './fast-tool-call';
import type { McpRequest } from './mcp-prelude';
import { stepUpRefusal, type GrantGuard } from './oauth-scope';
import type { FixedWindowLimiter } from '../web/rate-limit';
import { createServingTail } from './serving-tail';

interface ModernMcpDeps {
  /** The SDK's handler for 2026-07-28 requests (createMcpHandler with legacy: 'reject'). */
  handler: Pick<McpHttpHandler, 'fetch'>;
  /** Answers the plain valid tools/call without the SDK (fast-tool-call.ts); absent: all go to the SDK. */
  fastToolCall?: FastToolCall;
  callers: CallerResolver;
  pool: ForgePool;
  /** Per credential (D10); absent where no in-app limiter runs (docs/spec.md stateless rule 7). */
  credentialLimiter?: FixedWindowLimiter;
  /** OAuth mode: GET and DELETE are refused without a credential before their 405 (D27). */
  oauth: boolean;
  /**
   * Stateless mode: a request without a credential gets docs/spec.md's stateless 401 "Authentication
   * required", as on the legacy lane; otherwise "Missing Authorization or Private-Token header" (D6, D27).
   */
  stateless: boolean;
  /** OAuth mode: step-up and forge rejection for this server's own tokens (D23, D29). */
  grants?: GrantGuard;
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
}

/** Methods the modern lane serves (the Allow header of its 405). */
const MODERN_METHODS = 'POST';

/** The limiter's key for a credential: a hash, so no token is held as a map key. */
function credentialKey(caller: Caller): string {
  return Bun.SHA256.hash(`${caller.credential.kind}\n${caller.credential.token}`, 'base64url') as string;
}

export function createModernMcpHandler(deps: ModernMcpDeps): (req: McpRequest) => Promise<Response> {
  const { callers, refusals } = deps;
  // docs/spec.md's Errors table: in stateless mode a request with no credential gets the stateless
  // row's text (this lane reads no session id), as the legacy lane answers it; elsewhere the remote
  // authorization row's.
  const noCredentialMessage = deps.stateless ? MESSAGES.authenticationRequired : MESSAGES.missingCredentials;

  function refuseNoCredential(req: McpRequest): Response {
    return refusals.noCredential(noCredentialMessage, callers.challenge, { request_id: req.requestId, lane: 'modern', reason: 'no credential' }, jsonRpc(req.replyId));
  }

  // Lease → watch → context → the plain tools/call or the SDK → release (serving-tail.ts).
  const serve = createServingTail<undefined>(deps, {
    lane: 'modern',
    bySdk: async (req) => withRequestId(await deps.handler.fetch(req.request, { parsedBody: req.body }), req.replyId),
  });

  return async function handle(req: McpRequest): Promise<Response> {
    const { found } = req;
    if (req.method !== 'POST') {
      // D27: no stream to open and nothing to end; in OAuth mode only after the bearer check.
      if (deps.oauth && found.status !== 'ok') return refuseNoCredential(req);
      return rpcError(405, 'Method not allowed: the 2026-07-28 revision has no stream to open or session to end', RPC_CODES.generic, { Allow: MODERN_METHODS });
    }
    if (found.status !== 'ok') return refuseNoCredential(req);
    // The prelude refused a forge URL a sealed token may not go to (D23), so this keeps its grant.
    // Each modern request carries its own policy (D34), like its own credential.
    const own: Caller = req.policy === undefined ? found.caller : { ...found.caller, policy: req.policy };
    const caller: Caller = req.forgeUrl ? { ...own, apiUrl: req.forgeUrl } : own;
    const stepUp = stepUpRefusal(deps.grants, caller, req.body, req.replyId);
    if (stepUp) return stepUp;
    if (deps.credentialLimiter && callers.remote) {
      const limit = await deps.credentialLimiter.hit(credentialKey(caller), req.messages);
      if (!limit.allowed) return refusals.rateLimited(limit, { scope: 'credential', request_id: req.requestId, credential: caller.credential.kind }, jsonRpc(req.replyId));
    }
    return serve(req, caller, undefined);
  };
}
