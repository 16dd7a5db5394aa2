// Composes the server in a visible order: catalog and forge pool (built once), who callers are,
// the session store, then the HTTP routes. Every mode switch of the deployment is decided here.
import { Elysia } from 'elysia';
import type { Config } from './config/load';
import { remoteCallers, staticCaller } from './auth/caller-resolver';
import { createForgeUrlJudge, forgeUrlPolicy } from './auth/forge-url';
import { ForgePool } from './forge/pool';
import { InstanceDirectory } from './forge/instance';
import { CredentialChecks } from './auth/credential-check';
import { clientIp } from './web/client-ip';
import { clientKey } from './web/client-key';
import { callerFacts, credentialDoors } from './http/credential-doors';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createFastToolCall } from './http/fast-tool-call';
import { createModernMcpHandler } from './http/mcp-modern';
import { createAddressGuard } from './web/address-guard';
import { createMcpRoute } from './http/mcp-prelude';
import { rpcError } from './web/errors';
import { createRefusals } from './web/refusals';
import { unmatchedRoute } from './web/not-found';
import { LEGACY_PROTOCOL_VERSIONS } from './http/revision';
import { STATEFUL_METHODS, createStatefulMcpHandler } from './http/mcp-stateful';
import { STATELESS_METHODS, createStatelessMcpHandler } from './http/mcp-stateless';
import { createDownloadHandler } from './downloads/route';
import { metricsResponses } from './web/metrics-routes';
import { createHostPolicy, createOriginPolicy } from './web/origin';
import { FixedWindowLimiter } from './web/rate-limit';
import { Metrics } from './metrics/registry';
import { createLogger, type Logger } from './logging/logger';
import { fileAuditSink, openAuditFile } from './logging/audit';
import type { Caller } from './auth/caller';
import { SERVER_INFO, createMcpServer, sdkErrorLogger } from './mcp/server';
import { createToolCaller } from './mcp/tool-caller';
import { LogBudget } from './tools/pipelines/log-budget';
import { createOAuth } from './oauth/routes';
import { MemorySessionStore, type StreamState } from './session/memory-store';
import { Confirmations } from './mcp/confirmation';
import { SealedSessions } from './session/sealed-session';
import type { Sealer } from './sealing/sealer';
import { ALL_TOOLS, ToolCatalog } from './tools/catalog';
import { PolicyCatalogs } from './mcp/policy';
import { storesFromConfig, type Stores } from './store/from-config';
import { readinessResponse } from './web/readiness';
import { isBelowMcp, isMcpPath, pathStart } from './web/request-url';
import { CREDENTIAL_CHECK_MAX_ENTRIES } from './auth/credential-check';
import { CompletionCache } from './resources/completion-cache';
import type { Tracer } from './tracing/span';
import { tracedHandler } from './web/traced-request';

const TOOL_NAMES = new Set(ALL_TOOLS.map((tool) => tool.name));
/** Confirmation questions answered within FORGE_CONFIRM_TTL_SECONDS that one replica's memory store keeps (D42). */
const CONFIRMATION_MAX_ENTRIES = 10_000;

export interface AppOptions {
  logger?: Logger;
  /** PEM text of FORGE_CA_CERT_PATH, read once by the entry point. */
  caCert?: string;
  /** Clock for session expiry (tests move it). */
  now?: () => number;
  /** Keys for sealed values, derived at start-up (sealerFromConfig) when stateless mode is on. */
  sealer?: Sealer;
  /**
   * The modern lane's plain tools/call path (http/fast-tool-call.ts): on unless false (tests turn
   * it off to compare with the SDK's answers); `onFastToolCall` is told of each call it answers.
   */
  fastToolCall?: boolean;
  onFastToolCall?: () => void;
  /** AUDIT_LOG_PATH opened for appending by the entry point (which refuses to start when it cannot be); else opened here. */
  auditFd?: number;
  /** Where shared state lives (D37); by default from REDIS_URL (store/from-config.ts). */
  stores?: Stores;
  /** Tracing, started by the entry point when OTEL_* turns it on (D46); absent: off. */
  tracer?: Tracer;
}

export interface ForgeApp {
  readonly catalog: ToolCatalog;
  readonly sessions: MemorySessionStore;
  readonly pool: ForgePool;
  readonly metrics: Metrics;
  /** What each forge origin runs, asked on demand (src/forge/instance.ts). */
  readonly instances: InstanceDirectory;
  /** Answers one request; `socketIp` is the peer address when served on a socket. */
  handle(request: Request, socketIp?: string): Promise<Response>;
  close(): Promise<void>;
}

/** The caller of stdio and of HTTP without remote authorization: the static token (D3). */
export function staticTokenCaller(config: Config): Caller | undefined {
  const token = config.FORGE_PERSONAL_ACCESS_TOKEN;
  return token ? { credential: { kind: 'private', token }, apiUrl: config.forgeApiUrls[0] } : undefined;
}

export function buildCore(config: Config, options: AppOptions = {}) {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const metrics = new Metrics();
  const catalog = new ToolCatalog(
    ALL_TOOLS,
    { groups: config.toolGroups, picked: config.toolNames, readOnly: config.FORGE_READ_ONLY_MODE },
    {
      maxResultBytes: config.MAX_RESULT_BYTES,
      allowQuickActions: config.FORGE_ALLOW_QUICK_ACTIONS,
    },
  );
  const pool = new ForgePool(
    {
      httpProxy: config.HTTP_PROXY,
      httpsProxy: config.HTTPS_PROXY,
      noProxy: config.NO_PROXY,
      caCert: options.caCert,
      rejectUnauthorized: config.RUNTIME_TLS_REJECT_UNAUTHORIZED,
      timeoutMs: config.FORGE_REQUEST_TIMEOUT_MS,
      maxResponseBytes: config.FORGE_MAX_RESPONSE_BYTES,
      observe: (status, seconds, operation) => metrics.upstreamRequest(status, seconds, operation),
    },
    {
      maxSize: config.FORGE_POOL_MAX_SIZE,
      idleTimeoutMs: config.FORGE_POOL_IDLE_TIMEOUT,
      now: options.now,
      onEvict: (origin, reason) => {
        metrics.poolEvictions++;
        logger.info('pool_evicted', { origin, reason });
      },
    },
  );
  pool.startSweeping(config.FORGE_POOL_CLEANUP_INTERVAL);
  // One directory of forge editions per process (docs/forge-editions.md).
  const instances = new InstanceDirectory();
  // D34: each request policy's catalog is the deployment's narrowed, built once per distinct policy.
  const catalogs = new PolicyCatalogs(catalog);
  const audit = config.AUDIT_LOG_PATH ? fileAuditSink(options.auditFd ?? openAuditFile(config.AUDIT_LOG_PATH), logger) : undefined;
  // What all job-log reads of the process may hold together (D30, log-budget.ts).
  const logBudget = new LogBudget(config.JOB_LOG_MEMORY_BYTES, config.FORGE_REQUEST_TIMEOUT_MS);
  // completion/complete's answers (D44), per credential, for every server the process builds.
  const completions = new CompletionCache();
  return { logger, catalog, catalogs, pool, metrics, toolTimeoutMs: config.FORGE_TOOL_TIMEOUT_MS, audit, instances, logBudget, completions };
}

/** Stateless mode seals its session ids (D9): the app options must bring the sealer. */
function statelessSealer(sealer: Sealer | undefined): Sealer {
  if (!sealer) throw new Error('stateless mode needs the sealer (sealerFromConfig) in the app options');
  return sealer;
}

export function createApp(config: Config, options: AppOptions = {}): ForgeApp {
  const { logger, catalog, catalogs, pool, metrics, toolTimeoutMs, audit, instances, logBudget, completions } = buildCore(config, options);
  const now = options.now ?? Date.now;
  const fixedCaller = staticTokenCaller(config);
  // D37: single use, rate-limit windows and caches live in the store chosen here (memory, or Redis
  // shared by every replica). With a shared store the limits apply in stateless mode too.
  const stores = options.stores ?? storesFromConfig(config, { logger, metrics, now, caCert: options.caCert });
  const limiting = !config.OAUTH_STATELESS_MODE || stores.shared;
  // The 401, 429 and 503 of every surface (/mcp, /downloads, OAuth), counted and logged in one place.
  const refusals = createRefusals(metrics, logger);
  // D7's credential check, in the store: it admits callers (credential-doors.ts) and tells tool calls what it found of them.
  const checks = new CredentialChecks({ now, store: stores.open(CREDENTIAL_CHECK_MAX_ENTRIES), introspect: true });
  // The client every per-address limit and quota counts (D10): its address, an IPv6 one by its /64.
  const clientOf = (request: Request, socketIp?: string) => clientKey(clientIp(request, socketIp ?? socketIps.get(request), config.trustedProxies));
  const windows = (scope: string) =>
    limiting
      ? new FixedWindowLimiter(
          config.MAX_REQUESTS_PER_MINUTE,
          now,
          undefined,
          undefined,
          stores.shared ? { store: stores.open(100_000), scope, chunk: config.MAX_REQUESTS_PER_MINUTE / 50 } : undefined,
        )
      : undefined;
  // OAuth mode (FORGE_MCP_OAUTH): its routes and bearer-checking caller resolver come from src/oauth
  // and are wired here and at the routes below.
  const oauth = config.FORGE_MCP_OAUTH
    ? createOAuth(config, {
        pool,
        logger,
        sealer: options.sealer,
        now,
        ipOf: (request) => clientOf(request),
        refusals,
        events: (event) => metrics.oauth.record(event),
        stores,
      })
    : undefined;
  const callers = oauth ? oauth.callers : config.REMOTE_AUTHORIZATION || !fixedCaller ? remoteCallers(config.forgeApiUrls[0]) : staticCaller(fixedCaller);
  const sessions = new MemorySessionStore(
    config.SESSION_TIMEOUT_SECONDS * 1000,
    now,
    (session) => {
      metrics.expiredSessions++;
      logger.info('session_expired', { session: session.caller.sessionTag });
    },
    (session) =>
      logger.info('session_evicted', { session: session.caller.sessionTag, reason: 'capacity', idle_seconds: Math.round((now() - session.lastSeen) / 1000) }),
  );
  sessions.startSweeping(Math.min(60_000, config.SESSION_TIMEOUT_SECONDS * 1000));
  // D42: destructive calls wait for the user's yes where the client can ask; the question's state is
  // sealed (so the app options must bring the sealer, as src/index.ts always does) and used once.
  const confirmations =
    config.FORGE_CONFIRM_DESTRUCTIVE && options.sealer
      ? new Confirmations({ sealer: options.sealer, store: stores.open(CONFIRMATION_MAX_ENTRIES), ttlSeconds: config.FORGE_CONFIRM_TTL_SECONDS, logger })
      : undefined;
  const mcpDeps = {
    confirmations,
    confirmTimeoutMs: config.FORGE_CONFIRM_TTL_SECONDS * 1000,
    catalog,
    catalogs,
    audit,
    ...callerFacts(checks),
    logger,
    sealer: options.sealer,
    toolTimeoutMs,
    instances,
    logBudget,
    completions,
    onToolCall: (tool: string, outcome: string) => metrics.toolCall(tool, outcome),
  };
  // The legacy lane negotiates only the revisions it serves over HTTP (D27); stdio keeps the SDK's.
  // A stateful session hands over its notification stream's state: where an elicitation can go (D42).
  const createServer = (stream?: StreamState) =>
    createMcpServer(mcpDeps, 'legacy', { versions: LEGACY_PROTOCOL_VERSIONS, listening: stream && (() => stream.open > 0) });
  const forgeUrlJudge = config.ENABLE_DYNAMIC_API_URL ? createForgeUrlJudge(config.forgeApiUrls, config.FORGE_ALLOWED_HOSTS) : undefined;
  const forgeUrlAllowed = forgeUrlJudge ? forgeUrlPolicy(forgeUrlJudge) : () => undefined;
  // The credential gate of remote callers (D7) and OAuth mode's watch on its sealed tokens (D23, D29).
  const { credentialGate, grants } = credentialDoors({ checks, callers, isWrite: (name) => catalog.isWrite(name), logger, refusals });
  const common = { callers, createServer, logger, metrics, pool, credentialGate, grants, refusals };
  // The plain tools/call answered without the SDK (http/fast-tool-call.ts), on both lanes and in
  // both modes. Off (`fastToolCall: false`) to compare with the SDK's answers.
  const fastToolCall =
    options.fastToolCall === false
      ? undefined
      : createFastToolCall({
          callTool: createToolCaller(mcpDeps),
          serverInfo: SERVER_INFO,
          onTaken: options.onFastToolCall,
          // A call that may have to ask its user first goes to the SDK, which can (D42).
          bySdk: confirmations && ((name) => catalog.isDestructive(name)),
        });
  // Stateless mode swaps the session store for sealed ids and turns the in-app limiter off
  // (docs/spec.md stateless rule 7: limits belong to the ingress there) unless a store is shared (D37).
  const stateless = config.OAUTH_STATELESS_MODE;
  const handleLegacy = stateless
    ? createStatelessMcpHandler({
        ...common,
        // An id opens only here and for a forge this deployment may call (session/sealed-session.ts).
        sealed: new SealedSessions(statelessSealer(options.sealer), {
          audience: config.MCP_SERVER_URL?.replace(/\/+$/, '') ?? '',
          forgeAllowed: (apiUrl) => config.forgeApiUrls.includes(apiUrl) || forgeUrlAllowed(apiUrl) === apiUrl,
          now: options.now,
        }),
        authenticateEveryMethod: Boolean(oauth),
        fastToolCall,
      })
    : createStatefulMcpHandler({
        ...common,
        sessions,
        maxSessions: config.MAX_SESSIONS,
        sessionLimiter: windows('session'),
        fastToolCall,
      });
  // The modern lane (D27) is the same in both modes: nothing is sealed or stored. The SDK's handler
  // is built once; it builds an SDK server per request from the same factory as the legacy lane.
  // responseMode 'auto' answers JSON (our handlers send no notifications) without the plain-text
  // warning 'json' writes to stderr, where only JSON log lines belong (D5).
  const handleModern = createModernMcpHandler({
    handler: createMcpHandler(() => createMcpServer(mcpDeps, 'modern'), { legacy: 'reject', responseMode: 'auto', onerror: sdkErrorLogger(logger) }),
    fastToolCall,
    callers,
    pool,
    credentialLimiter: windows('credential'),
    oauth: Boolean(oauth),
    stateless,
    grants,
    credentialGate,
    refusals,
  });
  const metricsRoutes = metricsResponses(
    metrics,
    {
      settle: () => sessions.sweep(),
      activeSessions: () => sessions.size,
      authenticatedSessions: () => sessions.countAuthenticated(),
      poolSize: () => pool.size,
    },
    {
      maxSessions: config.MAX_SESSIONS,
      maxRequestsPerMinute: config.MAX_REQUESTS_PER_MINUTE,
      // The inactivity timeout sessions have here: in stateless mode a sealed id's.
      sessionTimeoutSeconds: stateless ? config.statelessSessionTtlSeconds : config.SESSION_TIMEOUT_SECONDS,
      // Callers bring their own credentials: header tokens, or OAuth bearer tokens.
      remoteAuthEnabled: config.REMOTE_AUTHORIZATION || config.FORGE_MCP_OAUTH,
    },
  );
  const download = createDownloadHandler({
    callers,
    sealer: options.sealer,
    pool,
    logger,
    maxBytes: config.DOWNLOAD_MAX_BYTES,
    limiter: windows('download'),
    ipLimit: limiting ? { limiter: windows('download-ip')!, ipOf: (request) => clientOf(request) } : undefined,
    refusals,
  });
  // The socket address travels beside the request: Elysia hands handlers the same Request object.
  const socketIps = new WeakMap<Request, string>();
  const guardAddress = createAddressGuard(
    createHostPolicy(config.HOST, config.MCP_SERVER_URL, config.MCP_ALLOWED_ORIGINS),
    createOriginPolicy(config.MCP_SERVER_URL, config.MCP_ALLOWED_ORIGINS),
    logger,
  );
  const mcpRoute = createMcpRoute(
    {
      guardAddress,
      ipLimiter: windows('ip'),
      ipOf: (request, socketIp) => clientOf(request, socketIp),
      maxBodyBytes: config.MAX_REQUEST_BODY_BYTES,
      callers,
      forgeUrlJudge,
      allow: stateless ? STATELESS_METHODS : STATEFUL_METHODS,
      configuredBase: config.MCP_SERVER_URL?.replace(/\/+$/, ''),
      isTool: (name) => TOOL_NAMES.has(name),
      stateless,
      logger,
      metrics,
      refusals,
      traced: options.tracer !== undefined,
    },
    { modern: handleModern, legacy: handleLegacy },
  );

  // A failure the route did not answer itself is a bug: the JSON-RPC internal error, and only its
  // class on the log (D5).
  const routeFailed = (error: unknown): Response => {
    logger.error('mcp_request_failed', { error: (error as Error)?.name ?? typeof error });
    return rpcError(500, 'Internal error', -32603);
  };
  const serveMcp = (request: Request, socketIp?: string): Promise<Response> => mcpRoute(request, socketIp).catch(routeFailed);

  const app = new Elysia()
    .get('/healthz', () => ({ status: 'ok' }))
    .get(
      '/readyz',
      readinessResponse(stores.kind, () => stores.readiness()),
    )
    .get('/metrics', metricsRoutes.text)
    .get('/metrics.json', metricsRoutes.json)
    .get('/downloads/attachment', ({ request }) => download(request))
    .use(oauth ? oauth.routes : new Elysia())
    .all('/mcp', ({ request }) => serveMcp(request), { parse: 'none' })
    // D34: the same endpoint with a narrower tool selection (/mcp/readonly, /mcp/x/{groups}[/readonly]).
    .all('/mcp/readonly', ({ request }) => serveMcp(request), { parse: 'none' })
    .all('/mcp/x/*', ({ request }) => serveMcp(request), { parse: 'none' })
    .onError(({ code, request }) => {
      if (code === 'NOT_FOUND') return unmatched(request.url, pathStart(request.url));
    });
  // Read once the router holds every route: a known path asked with another method gets its 405.
  const unmatched = unmatchedRoute(app.routes);

  const handle = (request: Request, socketIp?: string): Promise<Response> => {
    // /mcp itself, every MCP request, goes straight to its route; Elysia routes the rest, each
    // behind the same Host and Origin check as /mcp (D12), refused in its route's shape: a
    // JSON-RPC error below /mcp (the narrowed endpoints, D34), `{error}` elsewhere.
    // The socket address goes to /mcp as an argument; the other routes find it by the request.
    if (isMcpPath(request.url)) return serveMcp(request, socketIp);
    if (socketIp) socketIps.set(request, socketIp);
    const refused = guardAddress(request, request.headers.get('origin'));
    if (!refused) return app.handle(request);
    return Promise.resolve(isBelowMcp(request.url) ? rpcError(403, refused) : Response.json({ error: refused }, { status: 403 }));
  };

  return {
    catalog,
    sessions,
    pool,
    metrics,
    instances,
    // D46: with tracing on, every request is served inside its server span.
    handle: options.tracer
      ? tracedHandler(
          options.tracer,
          handle,
          app.routes.map((route) => route.path),
        )
      : handle,
    close: async () => {
      pool.stop();
      await sessions.closeAll();
      audit?.close();
      stores.close();
    },
  };
}
