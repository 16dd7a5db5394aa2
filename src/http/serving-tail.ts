// The one tail of every lane (docs/architecture.md): once a lane has found the caller of a
// request, the request is served alike — lease the caller's forge (or 503, D7) → the lane's
// admission, if any (a legacy session's credential check, D7) → watch the forge's answers for a
// token of this server's own (oauth-scope.ts, D23) → the request context → the plain tools/call
// shortcut (fast-tool-call.ts) or the SDK → release the lease. The lanes keep only what is theirs:
// who the caller is, sessions, sealed ids (mcp-modern.ts, mcp-stateful.ts, mcp-stateless.ts).
import type { Caller } from '../auth/caller';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { ForgePool } from '../forge/pool';
import { bindRequestContext, type RequestContext } from '../mcp/request-context';
import { challengeWithError, MESSAGES } from '../web/errors';
import { jsonRpc, type Refusals } from '../web/refusals';
import type { FastToolCall } from './fast-tool-call';
import type { McpLane } from './lane';
import type { McpRequest } from './mcp-prelude';
import { serveWatched, watchesForge, type GrantGuard } from './oauth-scope';

interface ServingTailDeps {
  pool: ForgePool;
  refusals: Refusals;
  /** OAuth mode: forge rejection for this server's own tokens (D23). */
  grants?: GrantGuard;
  /** Answers the plain tools/call without the SDK (fast-tool-call.ts); absent: all go to the SDK. */
  fastToolCall?: FastToolCall;
}

/** What a lane adds to the tail; `S` is what the lane hands along with each request (its session). */
interface LaneServing<S> {
  lane: McpLane;
  /** After the lease, before anything is served: a Response refuses the request (D7's credential check). */
  admit?(req: McpRequest, caller: Caller, endpoint: ForgeEndpoint, state: S): Promise<Response | undefined>;
  /** The SDK's answer to the request (the context is bound to it by the tail). */
  bySdk(req: McpRequest, state: S): Promise<Response>;
  /** The shortcut's answer, finished as the lane's SDK path finishes its own (a session's id). */
  shortcutAnswered?(response: Response, state: S): Response;
  /** Every answer served (not the tail's own refusals), before the lease is released. */
  served?(response: Response, caller: Caller, state: S, req: McpRequest, endpoint: ForgeEndpoint): Promise<Response>;
}

type ServingTail<S> = (req: McpRequest, caller: Caller, state: S) => Promise<Response>;

export function createServingTail<S>(deps: ServingTailDeps, lane: LaneServing<S>): ServingTail<S> {
  const { grants } = deps;
  function serve(req: McpRequest, caller: Caller, forge: ForgeEndpoint, state: S): Promise<Response> {
    const context: RequestContext = { lane: lane.lane, caller, forge, requestId: req.requestId, publicBase: req.publicBase, trace: req.trace };
    // The plain tools/call, after every check of the lane; anything else is the SDK's (fast-tool-call.ts).
    const fast = deps.fastToolCall?.(req, context);
    if (fast) return lane.shortcutAnswered ? fast.then((response) => lane.shortcutAnswered!(response, state)) : fast;
    bindRequestContext(req.request, context);
    return lane.bySdk(req, state);
  }

  /** D23: the forge no longer takes the token sealed in this server's own: the client refreshes. */
  function forgeRejected(req: McpRequest, grants: GrantGuard): Response {
    const challenge = challengeWithError(grants.challenge, 'invalid_token');
    return deps.refusals.noCredential(
      MESSAGES.invalidToken,
      challenge,
      { request_id: req.requestId, lane: lane.lane, reason: 'forge rejected the token' },
      jsonRpc(req.replyId),
    );
  }

  return async (req, caller, state) => {
    const lease = deps.pool.lease(caller.apiUrl);
    if (!lease) return deps.refusals.atCapacity('pool_full', { request_id: req.requestId, lane: lane.lane }, jsonRpc(req.replyId));
    try {
      const refused = lane.admit ? await lane.admit(req, caller, lease.endpoint, state) : undefined;
      if (refused) return refused;
      // Only a caller holding this server's token has its forge answers watched (oauth-scope.ts).
      const response = watchesForge(grants, caller)
        ? await serveWatched(
            grants,
            caller,
            lease.endpoint,
            (forge) => serve(req, caller, forge, state),
            () => forgeRejected(req, grants),
            req.trace,
          )
        : await serve(req, caller, lease.endpoint, state);
      return lane.served ? await lane.served(response, caller, state, req, lease.endpoint) : response;
    } finally {
      lease.release();
    }
  };
}
