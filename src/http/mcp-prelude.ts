// One prelude for every /mcp request, every lane and mode (docs/architecture.md): host and origin →
// limits → body → lane → credential → forge URL. What it learns travels down as one value
// (McpRequest), read once; the lanes only decide what is theirs: the modern lane (mcp-modern.ts)
// serves each request on its own, the legacy session regimes (mcp-stateful.ts, mcp-stateless.ts)
// decide about sessions. The lane is the SDK's own classification (the call its isLegacyRequest makes,
// D27), taken without asking it for the plain requests whose answer is known; a body that is no
// JSON-RPC message goes with its session id: lane.ts decides, in one function.
// Limits count JSON-RPC messages, each message of a batch (D10): the request's first
// message is counted before its body is read, so an address over its limit costs no read, and the
// rest of a batch once the body shows how many there are.
import type { CallerResolver } from '../auth/caller-resolver';
import { forgeUrlFromHeaders } from '../auth/caller-resolver';
import type { ForgeUrlVerdict } from '../auth/forge-url';
import { spanOf } from '../tracing/request-span';
import type { TraceSpan } from '../tracing/span';
import { traceMcpMessage } from './trace-attributes';
import type { Logger } from '../logging/logger';
import { callerAt, type Caller } from '../auth/caller';
import type { Metrics } from '../metrics/registry';
import type { AddressGuard } from '../web/address-guard';
import { readJsonBody } from '../web/body';
import { preflight, withCors } from '../web/cors';
import { MESSAGES, RPC_CODES, challengeWithError, idOf, rpcError, type RpcId } from '../web/errors';
import { jsonRpc, type Refusals } from '../web/refusals';
import { laneOf, type McpLane, type PlainToolCall } from './lane';
import type { FixedWindowLimiter } from '../web/rate-limit';
import { readRequestPolicy } from './request-policy';
import { requestOrigin } from '../web/request-url';

type McpMethod = 'GET' | 'POST' | 'DELETE';

export interface McpRequest {
  readonly request: Request;
  readonly method: McpMethod;
  /**
   * The SDK's classification of the request (D27); a GET or DELETE naming the modern revision in
   * MCP-Protocol-Version is modern too (the SDK calls every GET and DELETE legacy).
   */
  readonly lane: McpLane;
  /** What errors of this request carry as their id: the request's own on the modern lane, else null. */
  readonly replyId: RpcId;
  /** The parsed JSON body of a POST; undefined for GET and DELETE. */
  readonly body: unknown;
  /**
   * The body when it is a plain tools/call of its lane: a plain valid 2026-07-28 one
   * (lane.ts), which is modern, or a plain 2025-era one.
   */
  readonly plainCall?: PlainToolCall;
  /** JSON-RPC messages in the body (a batch counts each one); 1 for GET and DELETE. */
  readonly messages: number;
  /** The credential the request carries itself; a refused one never gets this far. */
  readonly found: { status: 'none' } | { status: 'ok'; caller: Caller };
  /** The allowed forge the request names in X-Forge-API-URL (D8), normalized. */
  readonly forgeUrl?: string;
  readonly sessionId: string | null;
  /** Short id that ties this request's log lines together. */
  readonly requestId: string;
  /**
   * This server's public origin (MCP_SERVER_URL, else the request's), for links in results; absent
   * when neither names one (a request without a Host header), and results then carry no links.
   */
  readonly publicBase?: string;
  /** The request's server span, when tracing is on (D46). */
  readonly trace?: TraceSpan;
  /** The request's narrowing of the tool selection, from headers and path (D34); absent: none. */
  readonly policy?: string;
}

type McpHandler = (request: McpRequest) => Promise<Response>;

interface McpLanes {
  modern: McpHandler;
  legacy: McpHandler;
}

interface McpPreludeDeps {
  /** Host and Origin (D12), judged before anything else of the request is read. */
  guardAddress: AddressGuard;
  /** Per client IP (D10); absent where no in-app limiter runs (docs/spec.md stateless rule 7). */
  ipLimiter?: FixedWindowLimiter;
  /** The client address of a request (D10), from its socket address where the server knows it. */
  ipOf(request: Request, socketIp: string | undefined): string;
  maxBodyBytes: number;
  callers: CallerResolver;
  /** ENABLE_DYNAMIC_API_URL: judges X-Forge-API-URL (auth/forge-url.ts); absent: the header is ignored. */
  forgeUrlJudge?: (raw: string) => ForgeUrlVerdict;
  /** Methods the legacy session regime serves besides OPTIONS: the Allow header of a 405 for any other. */
  allow: string;
  /** MCP_SERVER_URL without a trailing slash, when configured. */
  configuredBase?: string;
  /** Whether a name is a tool this server knows (X-MCP-Tools and X-MCP-Exclude-Tools, D34). */
  isTool(name: string): boolean;
  /** Stateless mode: a request with no credential and no session id gets SPEC's stateless 401 text. */
  stateless: boolean;
  logger: Logger;
  metrics: Metrics;
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
  /** Tracing is on (D46): the request's server span is looked up, and told its MCP message. */
  traced?: boolean;
}

const METHODS = new Set<string>(['GET', 'POST', 'DELETE']);
const NO_FORGE_URL = { status: 'none' } as const;

/**
 * 400 "Invalid custom API URL provided: <reason>" (D8) for a forge a request may not reach: a
 * value refused by its form or the hosts allowed, or a forge other than the one a token is kept
 * for (a sealed token, D23; a legacy session's, docs/spec.md dynamic API URL rule 5). The reason
 * is one of a few fixed texts (auth/forge-url.ts), never a part of the value; the warning names
 * the reason and, for a refused value, only its loggable host.
 */
export function refuseForgeUrl(logger: Logger, req: Pick<McpRequest, 'requestId' | 'lane' | 'replyId'>, why: { host?: string; reason: string }): Response {
  logger.warn('forge_url_refused', { request_id: req.requestId, lane: req.lane, ...why });
  return rpcError(400, `${MESSAGES.invalidApiUrl}: ${why.reason}`, RPC_CODES.generic, {}, req.replyId);
}

export function createMcpRoute(deps: McpPreludeDeps, lanes: McpLanes): (request: Request, socketIp?: string) => Promise<Response> {
  const { callers, logger, metrics, refusals } = deps;
  let requestCounter = 0;
  const requestIdPrefix = crypto.randomUUID().slice(0, 4);
  // D23: a bearer OAuth mode refused is answered with error="invalid_token", so clients refresh or sign in.
  const invalidTokenChallenge = challengeWithError(callers.challenge, 'invalid_token');

  async function overLimit(request: Request, socketIp: string | undefined, messages: number): Promise<Response | undefined> {
    const limit = await deps.ipLimiter?.hit(deps.ipOf(request, socketIp), messages);
    if (!limit || limit.allowed) return undefined;
    return refusals.rateLimited(limit, { scope: 'ip' });
  }

  async function prelude(request: Request, socketIp: string | undefined, requestId: string): Promise<Response> {
    const refusedFirst = await overLimit(request, socketIp, 1);
    if (refusedFirst) return refusedFirst;
    metrics.requestsProcessed++;
    const method = request.method;
    if (!METHODS.has(method)) return rpcError(405, 'Method not allowed', RPC_CODES.generic, { Allow: deps.allow });

    let body: unknown;
    let messages = 1;
    if (method === 'POST') {
      const read = await readJsonBody(request, deps.maxBodyBytes);
      if (!read.ok) return read.response;
      body = read.value;
      if (Array.isArray(body)) {
        if (body.length === 0) return rpcError(400, MESSAGES.emptyBatch, RPC_CODES.invalidRequest);
        messages = body.length;
        const refusedRest = messages > 1 ? await overLimit(request, socketIp, messages - 1) : undefined;
        if (refusedRest) return refusedRest;
      }
    }

    const { lane, plainCall } = laneOf(request, body);
    metrics.laneRequest(lane);
    const trace = deps.traced ? spanOf(request) : undefined;
    if (trace) traceMcpMessage(trace, lane, body, request);
    const replyId = lane === 'modern' ? idOf(body) : null;
    // D34: before the credential, so a malformed policy costs no credential check.
    const policy = readRequestPolicy(request, deps.isTool);
    if (!policy.ok) return rpcError(policy.status, policy.message, RPC_CODES.invalidRequest, {}, replyId);

    const found = await callers.resolve(request.headers);
    if (found.status === 'invalid') {
      const fields = { request_id: requestId, lane, reason: found.reason ?? 'invalid credential' };
      const surface = jsonRpc(replyId);
      if (found.reason === 'invalid_token') return refusals.noCredential(MESSAGES.invalidToken, invalidTokenChallenge, fields, surface);
      if (found.reason === 'too_short') return refusals.noCredential(MESSAGES.tokenTooShort, callers.challenge, fields, surface);
      if (found.reason === 'sealed_value') return refusals.noCredential(MESSAGES.sealedValue, invalidTokenChallenge, fields, surface);
      // What is left is no credential of ours: an Authorization of another scheme (an ingress's
      // Basic), or none where sessions cannot authenticate. In stateless mode, without a session id
      // either, that is SPEC's stateless row (D6, D27).
      const noCredential = deps.stateless && (lane === 'modern' || !request.headers.get('mcp-session-id'));
      return refusals.noCredential(noCredential ? MESSAGES.authenticationRequired : MESSAGES.missingCredentials, callers.challenge, fields, surface);
    }
    // A request with neither a credential nor a session to act for is its lane's to refuse (401):
    // the forge it names is not judged first, so no one unauthenticated learns which forges are
    // allowed (D8).
    const actsForSomeone = found.status === 'ok' || (lane === 'legacy' && request.headers.get('mcp-session-id') !== null);
    const forgeUrl = actsForSomeone ? forgeUrlFromHeaders(request.headers, deps.forgeUrlJudge) : NO_FORGE_URL;
    if (forgeUrl.status === 'invalid') return refuseForgeUrl(logger, { requestId, lane, replyId }, { host: forgeUrl.host, reason: forgeUrl.reason });
    // A token sealed for one forge is never sent to another (D23).
    if (found.status === 'ok' && forgeUrl.status === 'ok' && !callerAt(found.caller, forgeUrl.apiUrl)) {
      return refuseForgeUrl(logger, { requestId, lane, replyId }, { reason: 'token sealed for another forge' });
    }
    return (lane === 'modern' ? lanes.modern : lanes.legacy)({
      request,
      method: method as McpMethod,
      lane,
      replyId,
      body,
      plainCall,
      messages,
      found,
      forgeUrl: forgeUrl.status === 'ok' ? forgeUrl.apiUrl : undefined,
      sessionId: lane === 'legacy' ? request.headers.get('mcp-session-id') : null,
      requestId,
      publicBase: deps.configuredBase ?? requestOrigin(request.url),
      policy: policy.key,
      trace,
    });
  }

  return async (request, socketIp) => {
    const origin = request.headers.get('origin');
    const refused = deps.guardAddress(request, origin);
    if (refused) return rpcError(403, refused);
    if (request.method === 'OPTIONS') return preflight(origin);
    const requestId = `${requestIdPrefix}${(++requestCounter).toString(36)}`;
    return withCors(await prelude(request, socketIp, requestId), origin);
  };
}
