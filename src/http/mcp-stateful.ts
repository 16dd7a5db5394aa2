// /mcp with sessions kept in this process. Each session owns an SDK server and transport; the
// caller's credential and forge URL are kept with it (docs/spec.md remote authorization rule 3) and a
// request that brings its own credential is served with that one (D9). A session opens
// only for a credential the forge has accepted, and at MAX_SESSIONS an idle session makes room (D7).
// Every POST of a session ends, however its requests overlap (D27).
import type { Server } from '@modelcontextprotocol/server';
import type { CallerResolver } from '../auth/caller-resolver';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import { sessionTag } from '../logging/logger';
import type { Metrics } from '../metrics/registry';
import { callerAt, type Caller } from '../auth/caller';
import { createJsonTransport } from '../mcp/transport';
import type { MemorySessionStore, Session, StreamState } from '../session/memory-store';
import { MAX_INITIALIZE_PARAMS_BYTES, initializeParamsTooLarge, isInitializeMessage } from '../web/body';
import type { CredentialGate } from './credential-gate';
import type { FastToolCall } from './fast-tool-call';
import { MESSAGES, RPC_CODES, idOf, rpcError, sessionNotFound } from '../web/errors';
import type { Refusals } from '../web/refusals';
import { refuseForgeUrl, type McpRequest } from './mcp-prelude';
import { stepUpRefusal, type GrantGuard } from './oauth-scope';
import type { FixedWindowLimiter } from '../web/rate-limit';
import { createServingTail } from './serving-tail';

interface StatefulMcpDeps {
  sessions: MemorySessionStore;
  callers: CallerResolver;
  /** The session's SDK server, told when the session's notification stream is open (D42). */
  createServer: (stream: StreamState) => Server;
  maxSessions: number;
  logger: Logger;
  metrics: Metrics;
  /** Per-session limit on JSON-RPC messages (D10); absent when limits are not applied in-app. */
  sessionLimiter?: FixedWindowLimiter;
  pool: ForgePool;
  /** Checks a caller's own credential with the forge before a session opens (D7); absent for the static token. */
  credentialGate?: CredentialGate;
  /** OAuth mode: step-up and forge rejection for this server's own tokens (D23, D29). */
  grants?: GrantGuard;
  /** Answers the plain tools/call without the SDK (fast-tool-call.ts); absent: all go to the SDK. */
  fastToolCall?: FastToolCall;
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
}

/** A session being opened: its id and its caller, the session's tag on it. */
interface Opening {
  readonly id: string;
  readonly caller: Caller;
}

/** Methods served here (the Allow header of a 405). */
export const STATEFUL_METHODS = 'GET, POST, DELETE';

export function createStatefulMcpHandler(deps: StatefulMcpDeps): (req: McpRequest) => Promise<Response> {
  const { sessions, callers, logger, metrics } = deps;
  /** Sessions between their slot being granted and the SDK accepting the initialize. */
  let opening = 0;

  function refuseNoCredential(req: McpRequest): Response {
    return deps.refusals.noCredential(MESSAGES.missingCredentials, callers.challenge, { request_id: req.requestId, lane: 'legacy', reason: 'no credential' });
  }

  // An initialize without a session: lease → the credential check (D7) → a session slot and the
  // SDK's new session → release (serving-tail.ts; an initialize is never a plain tools/call).
  const open = createServingTail<Opening>(deps, {
    lane: 'legacy',
    admit: async (req, caller, endpoint) => deps.credentialGate?.(caller, endpoint, req),
    bySdk: openSession,
  });

  // A POST of a live session: lease → watch → context → the plain tools/call (its answer carrying
  // the session's id) or the session's transport → release (serving-tail.ts).
  const inSession = createServingTail<Session>(deps, {
    lane: 'legacy',
    bySdk: (req, session) => answeredBySdk(session, req),
    shortcutAnswered(response, session) {
      response.headers.set('mcp-session-id', session.id);
      return response;
    },
  });

  /** The SDK's answer to an initialize, with the context bound; the session is kept once the SDK accepts it. */
  async function openSession(req: McpRequest, { id, caller: sessionCaller }: Opening): Promise<Response> {
    if (!sessions.makeRoom(deps.maxSessions, opening)) {
      return deps.refusals.atCapacity('session_rejected', { request_id: req.requestId, reason: 'capacity', max_sessions: deps.maxSessions });
    }
    opening++;
    let reserved = true;
    const release = () => {
      if (reserved) opening--;
      reserved = false;
    };
    const stream: StreamState = { open: 0 };
    const server = deps.createServer(stream);
    let session: Session | undefined;
    const transport = createJsonTransport({
      sessionId: id,
      onSessionInitialized: () => {
        session = {
          id,
          caller: sessionCaller,
          server,
          transport,
          authenticated: callers.remote,
          lastSeen: sessions.now(),
          inFlight: 0,
          requestIds: new Set(),
          unanswered: new Set(),
          stream,
        };
        sessions.add(session);
        release();
        metrics.totalSessions++;
        logger.info('session_opened', { request_id: req.requestId, session: sessionCaller.sessionTag, credential: sessionCaller.credential.kind });
      },
      onSessionClosed: () => {
        sessions.forget(id);
        logger.info('session_closed', { session: sessionCaller.sessionTag });
      },
    });
    // Closed by DELETE, expiry, eviction or shutdown: the POSTs the transport still owes an
    // answer are answered 404, as a request arriving after the close would be.
    server.onclose = () => {
      if (session) for (const answer of session.unanswered) answer(sessionNotFound());
    };
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(req.request, { parsedBody: req.body });
      if (!session) await server.close(); // the SDK refused the initialize: nothing to keep
      return response;
    } finally {
      release();
    }
  }

  /** The live session of this id, its request limit counted, or the response that refuses the request. */
  async function liveSession(sessionId: string, messages: number): Promise<Session | Response> {
    const session = sessions.use(sessionId);
    if (!session) return sessionNotFound();
    const limit = await deps.sessionLimiter?.hit(sessionId, messages);
    if (limit && !limit.allowed) {
      return deps.refusals.rateLimited(limit, { scope: 'session', session: session.caller.sessionTag });
    }
    return session;
  }

  /**
   * The POST's answer from the session's transport, or 404 when the session closes first: the SDK
   * then drops the answers it still owes, and the POST would never end (D27).
   */
  async function answeredBySdk(session: Session, req: McpRequest): Promise<Response> {
    let closed!: (response: Response) => void;
    const onClose = new Promise<Response>((resolve) => (closed = resolve));
    session.unanswered.add(closed);
    try {
      return await Promise.race([session.transport.handleRequest(req.request, { parsedBody: req.body }), onClose]);
    } finally {
      session.unanswered.delete(closed);
    }
  }

  /** GET and DELETE of a session, which call no tool; a POST through the serving tail. */
  async function serveInSession(session: Session, req: McpRequest, caller?: Caller): Promise<Response> {
    session.inFlight++;
    try {
      if (!caller) return await session.transport.handleRequest(req.request, { parsedBody: req.body });
      return await inSession(req, caller, session);
    } finally {
      session.inFlight--;
    }
  }

  /**
   * Serves a POST whose request ids are not those of requests of the session still being answered
   * (MCP: an id is not reused within a session). The SDK's transport answers a reused id's request
   * in place of the first, which then never ends (D27), so a reuse is refused before either path.
   */
  async function serveOnce(session: Session, req: McpRequest, serve: () => Promise<Response>): Promise<Response> {
    const ids = requestIdsOf(req.body);
    if (ids.some((id, i) => session.requestIds.has(id) || ids.indexOf(id) !== i)) {
      return rpcError(400, MESSAGES.requestIdInUse, RPC_CODES.invalidRequest);
    }
    for (const id of ids) session.requestIds.add(id);
    try {
      return await serve();
    } finally {
      for (const id of ids) session.requestIds.delete(id);
    }
  }

  return async function handle(req: McpRequest): Promise<Response> {
    const { found, sessionId } = req;
    if (req.method === 'POST') {
      if (!sessionId) {
        if (found.status !== 'ok') return refuseNoCredential(req);
        if (!isInitializeMessage(req.body)) return rpcError(400, MESSAGES.sessionIdRequired);
        if (initializeParamsTooLarge(req.body)) {
          return rpcError(
            400,
            `Invalid params: an initialize's params may take at most ${MAX_INITIALIZE_PARAMS_BYTES} bytes of JSON`,
            RPC_CODES.invalidParams,
            {},
            idOf(req.body),
          );
        }
        // The session keeps the policy of its initialize (D34).
        const opener: Caller = { ...found.caller, policy: req.policy };
        const id = crypto.randomUUID();
        const caller: Caller = { ...opener, ...(req.forgeUrl && { apiUrl: req.forgeUrl }), sessionTag: sessionTag(id) };
        return open(req, caller, { id, caller });
      }
      const session = await liveSession(sessionId, req.messages);
      if (session instanceof Response) return session;
      // The session's token and forge URL, unless this request brings its own credential, which may
      // name its own forge (D8, D9); the session's token stays with the session's forge, and a
      // token sealed for one forge with that one (D23).
      const kept = found.status !== 'ok';
      const pinned = callerAt(kept ? session.caller : found.caller, req.forgeUrl ?? session.caller.apiUrl, kept);
      if (!pinned) return refuseForgeUrl(logger, req, { reason: kept ? 'session opened for another forge' : 'token sealed for another forge' });
      const caller: Caller = { ...pinned, sessionTag: session.caller.sessionTag, policy: session.caller.policy };
      const stepUp = stepUpRefusal(deps.grants, caller, req.body, null);
      if (stepUp) return stepUp;
      return serveOnce(session, req, () => serveInSession(session, req, caller));
    }

    // GET (the notification stream) and DELETE (end the session).
    if (!sessionId) return found.status === 'ok' ? rpcError(400, MESSAGES.sessionIdRequired) : refuseNoCredential(req);
    const session = await liveSession(sessionId, req.messages);
    if (session instanceof Response) return session;
    const response = await serveInSession(session, req);
    return req.method === 'GET' ? openedAtOnce(response, session.stream) : response;
  };
}

/** The ids of the JSON-RPC requests in a body (one message or a batch); notifications and responses have none. */
function requestIdsOf(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (message === null || typeof message !== 'object' || typeof (message as { method?: unknown }).method !== 'string') continue;
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}

// An SSE comment: every event-stream reader skips it.
const STREAM_OPENED = new TextEncoder().encode(': stream opened\n\n');

/**
 * Bun.serve sends a streamed response's status and headers with its first chunk, and the
 * notification stream may wait long for its first event: a client waiting for the stream to open
 * would wait as long. The stream therefore begins with a comment, so it opens at once. It is
 * counted in `stream` while it lasts: a confirmation question can be sent only on it (D42).
 */
function openedAtOnce(response: Response, stream: StreamState): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const reader = response.body.getReader();
  stream.open++;
  let counted = true;
  const ended = () => {
    if (counted) stream.open--;
    counted = false;
  };
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(STREAM_OPENED),
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          ended();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    cancel(reason) {
      ended();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
