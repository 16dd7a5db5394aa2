// /mcp with sessions kept in this process. Each session owns an SDK server and transport; the
// caller's credential and forge URL are kept with it (SPEC remote authorization rule 3) and a
// request that brings its own credential is served with that one (DECISIONS D9).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { forgeUrlFromHeaders, type CallerResolver } from '../auth/caller-resolver';
import type { ForgeUrlPolicy } from '../auth/forge-url';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import { sessionTag } from '../logging/logger';
import type { Metrics } from '../metrics/registry';
import { authInfoFor, type Caller } from '../mcp/caller';
import { createJsonTransport } from '../mcp/transport';
import type { MemorySessionStore, Session } from '../session/memory-store';
import { isInitializeMessage, readJsonBody } from './body';
import { MESSAGES, RPC_CODES, rateLimited, rpcError, sessionNotFound, unauthorized } from './errors';
import type { FixedWindowLimiter } from './rate-limit';

export interface StatefulMcpDeps {
  sessions: MemorySessionStore;
  callers: CallerResolver;
  createServer: () => Server;
  maxSessions: number;
  maxBodyBytes: number;
  logger: Logger;
  metrics: Metrics;
  /** Per-session request limit (D10); absent when limits are not applied in-app. */
  sessionLimiter?: FixedWindowLimiter;
  pool: ForgePool;
  /** Set when callers may name their forge in X-Forge-API-URL (ENABLE_DYNAMIC_API_URL). */
  forgeUrlPolicy?: ForgeUrlPolicy;
}

export interface RequestContext {
  /** Short id that ties this request's log lines together. */
  requestId: string;
  /** This server's public origin (MCP_SERVER_URL, else the request's), for links in results. */
  publicBase?: string;
}

export function createStatefulMcpHandler(deps: StatefulMcpDeps): (request: Request, ctx: RequestContext) => Promise<Response> {
  const { sessions, callers, logger, metrics } = deps;

  function refuseCredentials(ctx: RequestContext, reason: string): Response {
    metrics.authFailures++;
    logger.warn('auth_failed', { request_id: ctx.requestId, reason });
    return unauthorized(undefined, callers.challenge);
  }

  /** Serves a POST while its forge client counts a request in flight (D7: busy clients are never evicted). */
  async function withLease(apiUrl: string, ctx: RequestContext, serve: () => Promise<Response>): Promise<Response> {
    const lease = deps.pool.lease(apiUrl);
    if (!lease) {
      metrics.rejectedByCapacity++;
      logger.warn('pool_full', { request_id: ctx.requestId });
      return rpcError(503, MESSAGES.capacity);
    }
    try {
      return await serve();
    } finally {
      lease.release();
    }
  }

  async function openSession(request: Request, body: unknown, caller: Caller, ctx: RequestContext): Promise<Response> {
    if (sessions.size >= deps.maxSessions) {
      metrics.rejectedByCapacity++;
      logger.warn('session_rejected', { request_id: ctx.requestId, reason: 'capacity', max_sessions: deps.maxSessions });
      return rpcError(503, MESSAGES.capacity);
    }
    const id = crypto.randomUUID();
    const sessionCaller: Caller = { ...caller, sessionTag: sessionTag(id) };
    const server = deps.createServer();
    let session: Session | undefined;
    const transport = createJsonTransport({
      sessionId: id,
      maxRequestBodySize: deps.maxBodyBytes,
      onSessionInitialized: () => {
        session = { id, caller: sessionCaller, server, transport, authenticated: callers.remote, lastSeen: sessions.now() };
        sessions.add(session);
        metrics.totalSessions++;
        logger.info('session_opened', { request_id: ctx.requestId, session: sessionCaller.sessionTag, credential: caller.credential.kind });
      },
      onSessionClosed: () => {
        sessions.forget(id);
        logger.info('session_closed', { session: sessionCaller.sessionTag });
      },
    });
    await server.connect(transport);
    const response = await withLease(caller.apiUrl, ctx, () => transport.handleRequest(request, { parsedBody: body, authInfo: authInfoFor(sessionCaller, ctx.requestId, ctx.publicBase) }));
    if (!session) await server.close(); // the SDK refused the initialize: nothing to keep
    return response;
  }

  /** The live session of this id, or the response that refuses the request. */
  function liveSession(sessionId: string): Session | Response {
    const session = sessions.use(sessionId);
    if (!session) return sessionNotFound();
    const limit = deps.sessionLimiter?.hit(sessionId);
    if (limit && !limit.allowed) {
      metrics.rejectedByRateLimit++;
      if (limit.firstRefusal) logger.warn('rate_limited', { scope: 'session', session: session.caller.sessionTag, retry_after: limit.retryAfter });
      return rateLimited(limit.retryAfter);
    }
    return session;
  }

  return async function handle(request: Request, ctx: RequestContext): Promise<Response> {
    const found = await callers.resolve(request.headers);
    if (found.status === 'invalid') return refuseCredentials(ctx, 'invalid credential');
    const forgeUrl = forgeUrlFromHeaders(request.headers, deps.forgeUrlPolicy);
    if (forgeUrl.status === 'invalid') {
      logger.warn('forge_url_refused', { request_id: ctx.requestId, host: forgeUrl.host });
      return rpcError(400, MESSAGES.invalidApiUrl);
    }
    const namedUrl = forgeUrl.status === 'ok' ? forgeUrl.apiUrl : undefined;
    const sessionId = request.headers.get('mcp-session-id');

    if (request.method === 'POST') {
      const body = await readJsonBody(request, deps.maxBodyBytes);
      if (!body.ok) return body.response;
      if (!sessionId) {
        if (found.status !== 'ok') return refuseCredentials(ctx, 'no credential');
        if (!isInitializeMessage(body.value)) return rpcError(400, MESSAGES.sessionIdRequired);
        return openSession(request, body.value, namedUrl ? { ...found.caller, apiUrl: namedUrl } : found.caller, ctx);
      }
      const session = liveSession(sessionId);
      if (session instanceof Response) return session;
      // The session's token and forge URL, unless this request names its own (D8, D9).
      const base = found.status === 'ok' ? found.caller : session.caller;
      const caller: Caller = { credential: base.credential, apiUrl: namedUrl ?? session.caller.apiUrl, sessionTag: session.caller.sessionTag };
      return withLease(caller.apiUrl, ctx, () => session.transport.handleRequest(request, { parsedBody: body.value, authInfo: authInfoFor(caller, ctx.requestId, ctx.publicBase) }));
    }

    if (request.method === 'GET' || request.method === 'DELETE') {
      if (!sessionId) return found.status === 'ok' ? rpcError(400, MESSAGES.sessionIdRequired) : refuseCredentials(ctx, 'no credential');
      const session = liveSession(sessionId);
      if (session instanceof Response) return session;
      return session.transport.handleRequest(request, { authInfo: authInfoFor(session.caller, ctx.requestId, ctx.publicBase) });
    }

    return rpcError(405, 'Method not allowed', RPC_CODES.generic, { Allow: 'GET, POST, DELETE' });
  };
}
