// What a token of this server's own (D23) adds around serving a request, on every lane: a write
// tool called with a `read_api` token is refused before anything runs, with HTTP 403 and the
// step-up challenge (D29); and when the forge answers 401 to the token sealed inside (revoked,
// expired), the request is answered HTTP 401 `error="invalid_token"` instead of a tool error, so
// the client refreshes (D23). GitLab also answers 401 to a token it takes, for an action that is
// not the caller's (approving twice, merging without the right): so a 401 counts as the token's
// only once the forge, asked afresh, refuses the token itself; otherwise the tool's own answer
// stands. Callers without a grant (static token, remote authorization) pass through with one
// property check.
import type { Caller } from '../auth/caller';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { TraceSpan } from '../tracing/span';
import { MESSAGES, RPC_CODES, rpcError, type RpcId } from '../web/errors';

export interface GrantGuard {
  /** Whether a tool changes data (tools/catalog.ts). */
  isWrite(name: string): boolean;
  /** WWW-Authenticate of a 401 (resource_metadata and scope). */
  challenge: string;
  /** WWW-Authenticate of the step-up 403. */
  stepUpChallenge: string;
  /** Asks the forge afresh whether it still takes the caller's token (D7's check, not its memory). */
  stillAccepted(caller: Caller, endpoint: ForgeEndpoint, trace?: TraceSpan): Promise<boolean>;
}

function callsWriteTool(message: unknown, isWrite: (name: string) => boolean): boolean {
  if (!message || typeof message !== 'object') return false;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' && isWrite(params.name);
}

/** The 403 for a read_api caller whose body calls a write tool (any message of a batch), else undefined. */
export function stepUpRefusal(guard: GrantGuard | undefined, caller: Caller, body: unknown, replyId: RpcId): Response | undefined {
  if (!guard || caller.grant?.scope !== 'read_api') return undefined;
  const writes = Array.isArray(body) ? body.some((m) => callsWriteTool(m, guard.isWrite)) : callsWriteTool(body, guard.isWrite);
  return writes ? rpcError(403, MESSAGES.insufficientScope, RPC_CODES.generic, { 'WWW-Authenticate': guard.stepUpChallenge }, replyId) : undefined;
}

/** Whether the forge's answers to this caller are watched: it holds this server's own token (D23). */
export function watchesForge(guard: GrantGuard | undefined, caller: Caller): guard is GrantGuard {
  return guard !== undefined && caller.grant !== undefined;
}

/**
 * Serves with `endpoint`; for a caller holding this server's token, watches the forge's answers
 * and answers `refused()` instead (the 401 challenge, web/refusals.ts) when the forge rejected the
 * sealed token.
 */
export async function serveWatched(
  guard: GrantGuard | undefined,
  caller: Caller,
  endpoint: ForgeEndpoint,
  serve: (endpoint: ForgeEndpoint) => Promise<Response>,
  refused: () => Response,
  trace?: TraceSpan,
): Promise<Response> {
  if (!watchesForge(guard, caller)) return serve(endpoint);
  let rejected = false;
  const watched: ForgeEndpoint = {
    ...endpoint,
    observe: (status, seconds, operation) => {
      if (status === 401) rejected = true;
      endpoint.observe?.(status, seconds, operation);
    },
  };
  const response = await serve(watched);
  if (!rejected || (await guard.stillAccepted(caller, endpoint, trace))) return response;
  await response.body?.cancel().catch(() => {});
  return refused();
}
