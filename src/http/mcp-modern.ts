// /mcp for MCP 2026-07-28, the modern lane (D27): no sessions. Each request brings its
// own credential (static-token mode: none) and, with dynamic URLs, its own X-Forge-API-URL;
// nothing is sealed or stored, so it is served alike in stateful and stateless mode and on every
// replica. The SDK's modern handler does the revision's own checks (envelope, headers, version,
// methods, cache hints); this module does what is docs/spec.md's: credentials, the per-credential limit
// (D10), the pool's capacity (D7) and the 405 for GET and DELETE, each error carrying the request's
// id. Every request's credential goes through D7's check, as a legacy session's initialize does
// (credential-gate.ts, D38): a credential the forge rejected gets the same 401, so a host that
// connects with server/discover shows the failure at connect; the answer is cached, so a known
// credential costs a hash and a map lookup, no forge request. A token of this server's own gets its
// scope and forge-rejection handling (oauth-scope.ts, D23/D29).
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';
import type { CallerResolver } from '../auth/caller-resolver';
import type { ForgePool } from '../forge/pool';
import { MESSAGES, RPC_CODES, rpcError, withRequestId } from '../web/errors';
import { jsonRpc, type Refusals } from '../web/refusals';
import { MODERN_PROTOCOL_VERSION } from './revision';
import type { CredentialGate } from './credential-gate';
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
  /** D7's check of a caller's own credential (absent with the static token): a rejected one gets 401 (D38). */
  credentialGate?: CredentialGate;
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
}

/** Methods the modern lane serves (the Allow header of its 405). */
const MODERN_METHODS = 'POST';

/**
 * Whether the revision will likely serve the request: the plain tools/call the prelude recognised,
 * or one message whose headers name its method (and tool) and the revision as the SDK requires.
 * Only when the credential check runs is decided by it, never an answer.
 */
function looksServed(req: McpRequest): boolean {
  if (req.plainCall) return true;
  const message = req.body as { method?: unknown; params?: { name?: unknown } } | null;
  if (!message || typeof message !== 'object' || Array.isArray(message) || typeof message.method !== 'string') return false;
  const headers = req.request.headers;
  if (headers.get('mcp-protocol-version') !== MODERN_PROTOCOL_VERSION || headers.get('mcp-method') !== message.method) return false;
  if (!(headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) return false;
  return message.method !== 'tools/call' || headers.get('mcp-name') === message.params?.name;
}

/**
 * The limiter's key for a credential: a hash of the token alone, so no token is held as a map key
 * and one token is one budget whichever header carries it (Private-Token, Authorization: Bearer,
 * JOB-TOKEN; issue 32: keyed with the header kind, alternating headers doubled the limit).
 */
function credentialKey(caller: Caller): string {
  return Bun.SHA256.hash(caller.credential.token, 'base64url') as string;
}

export function createModernMcpHandler(deps: ModernMcpDeps): (req: McpRequest) => Promise<Response> {
  const { callers, refusals } = deps;
  // docs/spec.md's Errors table: in stateless mode a request with no credential gets the stateless
  // row's text (this lane reads no session id), as the legacy lane answers it; elsewhere the remote
  // authorization row's.
  const noCredentialMessage = deps.stateless ? MESSAGES.authenticationRequired : MESSAGES.missingCredentials;

  function refuseNoCredential(req: McpRequest): Response {
    return refusals.noCredential(
      noCredentialMessage,
      callers.challenge,
      { request_id: req.requestId, lane: 'modern', reason: 'no credential' },
      jsonRpc(req.replyId),
    );
  }

  // Lease → D7's check (D38) → watch → context → the plain tools/call or the SDK → release (serving-tail.ts).
  // A request the revision will serve is checked before it is (so tools/list already knows what the
  // token may do); any other after the SDK answered it, and only if it answered 2xx: a request the
  // revision refuses sends nothing to the forge.
  const gate = deps.credentialGate;
  // The tail's state is whether the request looks served (looksServed), judged once per request.
  const serve = createServingTail<boolean>(deps, {
    lane: 'modern',
    admit: gate && (async (req, caller, endpoint, checkFirst) => (checkFirst ? gate(caller, endpoint, req) : undefined)),
    bySdk: async (req) => withRequestId(await deps.handler.fetch(req.request, { parsedBody: req.body }), req.replyId),
    served:
      gate &&
      (async (response, caller, checkedFirst, req, endpoint) => {
        if (!response.ok || checkedFirst) return response;
        const refusal = await gate(caller, endpoint, req);
        if (!refusal) return response;
        await response.body?.cancel().catch(() => {});
        return refusal;
      }),
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
      if (!limit.allowed)
        return refusals.rateLimited(limit, { scope: 'credential', request_id: req.requestId, credential: caller.credential.kind }, jsonRpc(req.replyId));
    }
    return serve(req, caller, gate !== undefined && looksServed(req));
  };
}
