// /mcp in stateless mode (SPEC "Stateless mode", DECISIONS D9): nothing is kept between requests.
// Each request is authenticated by its live credential or by the caller sealed in its
// Mcp-Session-Id, served by a fresh SDK transport, and answered with a freshly sealed id. GET and
// DELETE answer 405: there is no stream to open and nothing server-side to end.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { forgeUrlFromHeaders, type CallerResolver } from '../auth/caller-resolver';
import type { ForgeUrlPolicy } from '../auth/forge-url';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import { sessionTag } from '../logging/logger';
import { authInfoFor, type Caller } from '../mcp/caller';
import { createJsonTransport } from '../mcp/transport';
import type { Metrics } from '../metrics/registry';
import type { SealedSessions } from '../session/sealed-session';
import { isInitializeMessage, readJsonBody } from './body';
import { MESSAGES, RPC_CODES, rpcError, sessionNotFound, unauthorized } from './errors';
import type { RequestContext } from './mcp-stateful';

export interface StatelessMcpDeps {
  sealed: SealedSessions;
  callers: CallerResolver;
  createServer: () => Server;
  maxBodyBytes: number;
  logger: Logger;
  metrics: Metrics;
  pool: ForgePool;
  forgeUrlPolicy?: ForgeUrlPolicy;
}

/**
 * SDK servers are reused across requests: building one per request halves throughput
 * (stack-notes.md). A server serves one request at a time — connect, answer, close — then goes back.
 */
class ServerPool {
  private readonly idle: Server[] = [];
  constructor(private readonly create: () => Server, private readonly maxIdle = 64) {}
  take(): Server {
    return this.idle.pop() ?? this.create();
  }
  give(server: Server): void {
    if (this.idle.length < this.maxIdle) this.idle.push(server);
  }
}

const METHOD_NOT_ALLOWED = () => rpcError(405, 'Method not allowed: stateless mode has no session stream to open or end', RPC_CODES.generic, { Allow: 'POST' });

export function createStatelessMcpHandler(deps: StatelessMcpDeps): (request: Request, ctx: RequestContext) => Promise<Response> {
  const { sealed, callers, logger, metrics } = deps;
  const servers = new ServerPool(deps.createServer);

  async function serve(request: Request, body: unknown, caller: Caller, ctx: RequestContext): Promise<Response> {
    const lease = deps.pool.lease(caller.apiUrl);
    if (!lease) {
      metrics.rejectedByCapacity++;
      return rpcError(503, MESSAGES.capacity);
    }
    const server = servers.take();
    const transport = createJsonTransport({ maxRequestBodySize: deps.maxBodyBytes });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: body, authInfo: authInfoFor(caller, ctx.requestId, ctx.publicBase) });
      response.headers.set('mcp-session-id', await sealed.issue(caller));
      return response;
    } finally {
      lease.release();
      await transport.close();
      servers.give(server);
    }
  }

  return async function handle(request: Request, ctx: RequestContext): Promise<Response> {
    // A refused credential is a 401 first, GET and DELETE included (D9: in OAuth mode the bearer check runs first).
    const found = await callers.resolve(request.headers);
    if (found.status === 'invalid') {
      metrics.authFailures++;
      logger.warn('auth_failed', { request_id: ctx.requestId, reason: 'invalid credential' });
      return unauthorized(undefined, callers.challenge);
    }
    if (request.method !== 'POST') return METHOD_NOT_ALLOWED();
    const forgeUrl = forgeUrlFromHeaders(request.headers, deps.forgeUrlPolicy);
    if (forgeUrl.status === 'invalid') {
      logger.warn('forge_url_refused', { request_id: ctx.requestId, host: forgeUrl.host });
      return rpcError(400, MESSAGES.invalidApiUrl);
    }
    const body = await readJsonBody(request, deps.maxBodyBytes);
    if (!body.ok) return body.response;

    const sessionId = request.headers.get('mcp-session-id');
    const fromId = sessionId ? await sealed.open(sessionId) : undefined;
    let caller: Caller;
    if (found.status === 'ok') {
      // Live credentials win; a stale or foreign id is simply replaced (rule 4).
      caller = { credential: found.caller.credential, apiUrl: fromId?.apiUrl ?? found.caller.apiUrl, sessionTag: fromId?.sessionTag ?? sessionTag(crypto.randomUUID()) };
    } else if (fromId) {
      caller = fromId; // rule 3: authenticated from the sealed id, on any replica
    } else if (sessionId) {
      return sessionNotFound(); // malformed, tampered, foreign or expired: re-initialize
    } else {
      metrics.authFailures++;
      logger.warn('auth_failed', { request_id: ctx.requestId, reason: 'no credential' });
      return unauthorized(MESSAGES.authenticationRequired, callers.challenge);
    }
    if (forgeUrl.status === 'ok') caller = { ...caller, apiUrl: forgeUrl.apiUrl };
    if (isInitializeMessage(body.value)) {
      metrics.totalSessions++;
      logger.info('session_opened', { request_id: ctx.requestId, credential: caller.credential.kind, stateless: true });
    }
    return serve(request, body.value, caller, ctx);
  };
}
