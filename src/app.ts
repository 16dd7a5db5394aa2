// Composes the server in a visible order: catalog and forge pool (built once), who callers are,
// the session store, then the HTTP routes. Every mode switch of the deployment is decided here.
import { Elysia } from 'elysia';
import type { Config } from './config/load';
import { remoteCallers, staticCaller } from './auth/caller-resolver';
import { ForgePool } from './forge/pool';
import { preflight, withCors } from './http/cors';
import { MESSAGES, rpcError } from './http/errors';
import { createStatefulMcpHandler } from './http/mcp-stateful';
import { createOriginPolicy } from './http/origin';
import { createLogger, type Logger } from './logging/logger';
import type { Caller } from './mcp/caller';
import { createMcpServer } from './mcp/server';
import { MemorySessionStore } from './session/memory-store';
import { ALL_TOOLS, ToolCatalog } from './tools/catalog';

export interface AppOptions {
  logger?: Logger;
  /** PEM text of FORGE_CA_CERT_PATH, read once by the entry point. */
  caCert?: string;
  /** Clock for session expiry (tests move it). */
  now?: () => number;
}

export interface ForgeApp {
  readonly app: { handle(request: Request): Promise<Response> };
  readonly catalog: ToolCatalog;
  readonly sessions: MemorySessionStore;
  readonly pool: ForgePool;
  handle(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** The caller of stdio and of HTTP without remote authorization: the static token (D3). */
export function staticTokenCaller(config: Config): Caller | undefined {
  const token = config.FORGE_PERSONAL_ACCESS_TOKEN;
  return token ? { credential: { kind: 'private', token }, apiUrl: config.forgeApiUrls[0] } : undefined;
}

export function buildCore(config: Config, options: AppOptions = {}) {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const catalog = new ToolCatalog(ALL_TOOLS, { groups: config.toolGroups, readOnly: config.FORGE_READ_ONLY_MODE });
  const pool = new ForgePool({
    httpProxy: config.HTTP_PROXY,
    httpsProxy: config.HTTPS_PROXY,
    noProxy: config.NO_PROXY,
    caCert: options.caCert,
    rejectUnauthorized: config.RUNTIME_TLS_REJECT_UNAUTHORIZED,
    timeoutMs: config.FORGE_REQUEST_TIMEOUT_MS,
  });
  return { logger, catalog, pool };
}

export function createApp(config: Config, options: AppOptions = {}): ForgeApp {
  const { logger, catalog, pool } = buildCore(config, options);
  const fixedCaller = staticTokenCaller(config);
  const callers = config.REMOTE_AUTHORIZATION || !fixedCaller ? remoteCallers(config.forgeApiUrls[0]) : staticCaller(fixedCaller);
  const sessions = new MemorySessionStore(config.SESSION_TIMEOUT_SECONDS * 1000, options.now ?? Date.now, (session) =>
    logger.info('session_expired', { session: session.caller.sessionTag }),
  );
  sessions.startSweeping(Math.min(60_000, config.SESSION_TIMEOUT_SECONDS * 1000));
  const handleMcp = createStatefulMcpHandler({
    sessions,
    callers,
    createServer: () => createMcpServer({ catalog, pool, logger }),
    maxSessions: config.MAX_SESSIONS,
    maxBodyBytes: config.MAX_REQUEST_BODY_BYTES,
    logger,
  });
  const originAllowed = createOriginPolicy(config.MCP_SERVER_URL, config.MCP_ALLOWED_ORIGINS);

  const app = new Elysia()
    .get('/healthz', () => ({ status: 'ok' }))
    .all(
      '/mcp',
      async ({ request }) => {
        const origin = request.headers.get('origin');
        if (!originAllowed(origin)) {
          logger.warn('origin_refused', { origin });
          return rpcError(403, MESSAGES.forbiddenOrigin);
        }
        if (request.method === 'OPTIONS') return preflight(origin);
        return withCors(await handleMcp(request), origin);
      },
      { parse: 'none' },
    )
    .onError(({ code }) => {
      if (code === 'NOT_FOUND') return new Response(JSON.stringify({ error: 'Not Found' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
    });

  return {
    app,
    catalog,
    sessions,
    pool,
    handle: (request) => app.handle(request),
    close: () => sessions.closeAll(),
  };
}
