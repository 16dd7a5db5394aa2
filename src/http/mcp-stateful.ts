// /mcp with sessions kept in this process. Each session owns an SDK server and transport; the
// caller's credential and forge URL are kept with it (SPEC remote authorization rule 3) and a
// request that brings its own credential is served with that one (DECISIONS D9).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallerResolver } from '../auth/caller-resolver';
import type { Logger } from '../logging/logger';
import { sessionTag } from '../logging/logger';
import { authInfoFor, type Caller } from '../mcp/caller';
import { createJsonTransport } from '../mcp/transport';
import type { MemorySessionStore, Session } from '../session/memory-store';
import { isInitializeMessage, readJsonBody } from './body';
import { MESSAGES, RPC_CODES, rpcError, sessionNotFound, unauthorized } from './errors';

export interface StatefulMcpDeps {
  sessions: MemorySessionStore;
  callers: CallerResolver;
  createServer: () => Server;
  maxSessions: number;
  maxBodyBytes: number;
  logger: Logger;
}

export function createStatefulMcpHandler(deps: StatefulMcpDeps): (request: Request) => Promise<Response> {
  const { sessions, callers, logger } = deps;

  async function openSession(request: Request, body: unknown, caller: Caller): Promise<Response> {
    if (sessions.size >= deps.maxSessions) {
      logger.warn('session_rejected', { reason: 'capacity', max_sessions: deps.maxSessions });
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
        session = { id, caller: sessionCaller, server, transport, lastSeen: sessions.now() };
        sessions.add(session);
        logger.info('session_opened', { session: sessionCaller.sessionTag, credential: caller.credential.kind });
      },
      onSessionClosed: () => {
        sessions.forget(id);
        logger.info('session_closed', { session: sessionCaller.sessionTag });
      },
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body, authInfo: authInfoFor(sessionCaller) });
    if (!session) await server.close(); // the SDK refused the initialize: nothing to keep
    return response;
  }

  return async function handle(request: Request): Promise<Response> {
    const found = callers.resolve(request.headers);
    if (found.status === 'invalid') return unauthorized();
    const sessionId = request.headers.get('mcp-session-id');

    if (request.method === 'POST') {
      const body = await readJsonBody(request, deps.maxBodyBytes);
      if (!body.ok) return body.response;
      if (!sessionId) {
        if (found.status !== 'ok') return unauthorized();
        if (!isInitializeMessage(body.value)) return rpcError(400, MESSAGES.sessionIdRequired);
        return openSession(request, body.value, found.caller);
      }
      const session = sessions.use(sessionId);
      if (!session) return sessionNotFound();
      const caller = found.status === 'ok' ? { ...found.caller, apiUrl: session.caller.apiUrl, sessionTag: session.caller.sessionTag } : session.caller;
      return session.transport.handleRequest(request, { parsedBody: body.value, authInfo: authInfoFor(caller) });
    }

    if (request.method === 'GET' || request.method === 'DELETE') {
      if (!sessionId) return found.status === 'ok' ? rpcError(400, MESSAGES.sessionIdRequired) : unauthorized();
      const session = sessions.use(sessionId);
      if (!session) return sessionNotFound();
      return session.transport.handleRequest(request, { authInfo: authInfoFor(session.caller) });
    }

    return rpcError(405, 'Method not allowed', RPC_CODES.generic, { Allow: 'GET, POST, DELETE' });
  };
}
