// Entry point: settings → app → serve over HTTP, or speak MCP over stdio. The only place besides
// src/config that touches the process environment, arguments and exit codes.
import { readFileSync } from 'node:fs';
import { serveStdio as serveMcpOnStdio } from '@modelcontextprotocol/server/stdio';
import { buildCore, createApp, staticTokenCaller, type AppOptions } from './app';
import { createLogger, stderrLines, type Logger } from './logging/logger';
import { helpText } from './config/docs';
import { AuditFileError, openAuditFile } from './logging/audit';
import { ConfigError, loadConfig, loadPort, oneLine, wantsHealthcheck, wantsHelp, type Config } from './config/load';
import { healthProblem } from './web/healthcheck';
import { SERVER_INFO, createMcpServer, sdkErrorLogger } from './mcp/server';
import { sealerFromConfig } from './sealing/from-config';
import type { Tracer } from './tracing/span';
import { weakeningSettings } from './config/weakening';
import { startLine } from './start-line';

/** A host as it is written in a URL: an IPv6 address in brackets. */
const urlHost = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** Exit code for a configuration the server refuses to start with (D2). */
const EXIT_CONFIG = 2;

function refuse(message: string): never {
  // After the log lines already waiting, which the exit writes first (logging/turn-batch.ts). One
  // line, whatever a path or host it names holds (D2).
  stderrLines(`forge-mcp: ${oneLine(message)}\n`);
  process.exit(EXIT_CONFIG);
}

function readCaCert(config: Config): string | undefined {
  if (!config.FORGE_CA_CERT_PATH) return undefined;
  try {
    return readFileSync(config.FORGE_CA_CERT_PATH, 'utf8');
  } catch (error) {
    refuse(`FORGE_CA_CERT_PATH: cannot read ${config.FORGE_CA_CERT_PATH} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Runs Bun.serve; a port in use or an address that cannot be bound is a refusal naming the setting (D2). */
function listen<T>(start: () => T, config: Config): T {
  try {
    return start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') refuse(`PORT: ${config.PORT} is already in use on ${config.HOST}`);
    if (code === 'EACCES') refuse(`PORT: not allowed to listen on ${config.PORT} (ports below 1024 need privileges)`);
    // Anything else Bun.serve refuses at start is about the address it was given to bind.
    const reason = code === 'EADDRNOTAVAIL' ? 'not an address of this machine' : 'not a valid address or resolvable name';
    refuse(`HOST: cannot listen on "${config.HOST}" (${reason})`);
  }
}

/** AUDIT_LOG_PATH opened once for appending; a path that cannot be is a refusal naming the setting (D2, D35). */
function openAuditLog(config: Config): number | undefined {
  if (!config.AUDIT_LOG_PATH) return undefined;
  try {
    return openAuditFile(config.AUDIT_LOG_PATH);
  } catch (error) {
    if (error instanceof AuditFileError) refuse(error.message);
    throw error;
  }
}

async function serveHttp(config: Config, options: AppOptions & { logger: Logger }): Promise<void> {
  const forgeApp = createApp(config, options);
  const { logger } = options;
  // Requests being answered, so shutdown can let them finish (SSE streams are not counted: a
  // notification stream stays open for the session's life and simply ends).
  let inFlight = 0;
  const server = listen(
    () =>
      Bun.serve({
        hostname: config.HOST,
        port: config.PORT,
        // Bun refuses larger bodies itself; /mcp applies the exact limit while streaming.
        maxRequestBodySize: config.MAX_REQUEST_BODY_BYTES + 64 * 1024,
        // Long enough for the slowest upstream call plus retries; SSE streams send keep-alives.
        idleTimeout: Math.min(255, Math.ceil(config.FORGE_REQUEST_TIMEOUT_MS / 1000) + 30),
        async fetch(request, server) {
          inFlight++;
          try {
            return await forgeApp.handle(request, server.requestIP(request)?.address);
          } finally {
            inFlight--;
          }
        },
      }),
    config,
  );
  // D47: what is served where, to which forge, for whom; `url` stays the first field (tests and probes read it).
  logger.info('listening', startLine(config, `http://${urlHost(config.HOST)}:${server.port}`, forgeApp.catalog.tools.length));
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal, in_flight: inFlight });
    void server.stop(false); // stop accepting; open connections are not waited for
    const deadline = Date.now() + config.FORGE_REQUEST_TIMEOUT_MS + 1000;
    while (inFlight > 0 && Date.now() < deadline) await Bun.sleep(20);
    if (inFlight > 0) logger.warn('shutdown_timeout', { in_flight: inFlight });
    await forgeApp.close();
    // What is still batched goes out before the process ends (D46).
    await options.tracer?.shutdown().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * MCP over stdin/stdout with the static token (D3). The SDK serves the revisions it offers on stdio
 * (D27): a 2025 `initialize`, or 2026-07-28 after `server/discover`.
 */
async function serveStdio(config: Config, options: AppOptions & { logger: Logger }): Promise<void> {
  const core = buildCore(config, options);
  const caller = staticTokenCaller(config);
  // The forge endpoint is looked up per call: the pool keeps it, and evicts it when idle.
  const stdioContext = caller ? () => ({ lane: 'stdio' as const, caller, forge: core.pool.endpoint(caller.apiUrl) }) : undefined;
  serveMcpOnStdio(({ era }) => createMcpServer({ ...core, stdioContext }, era), { onerror: sdkErrorLogger(core.logger) });
  core.logger.info('stdio_ready', { tools: core.catalog.tools.length });
}

/** `--healthcheck`: exit 0 when the local server answers /healthz with 200, else 1 (HEALTHCHECK's contract). */
async function healthcheck(argv: readonly string[]): Promise<never> {
  let problem: string | undefined;
  try {
    problem = await healthProblem(loadPort(process.env, argv));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problem = error.message;
  }
  if (problem) process.stderr.write(`forge-mcp: unhealthy: ${problem}\n`);
  process.exit(problem ? 1 : 0);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    process.stdout.write(helpText());
    return;
  }
  if (wantsHealthcheck(argv)) await healthcheck(argv);
  let config: Config;
  try {
    config = loadConfig(process.env, argv);
  } catch (error) {
    if (error instanceof ConfigError) refuse(error.message);
    throw error;
  }
  const caCert = readCaCert(config);
  const auditFd = openAuditLog(config);
  const logger = createLogger(config.LOG_LEVEL);
  const sealer = await sealerFromConfig(config);
  for (const warning of config.warnings) logger.warn('setting_ignored', { warning });
  // D47: every setting that weakens security is named in a warning (TLS keeps its own event name).
  for (const weakening of weakeningSettings(config)) {
    logger.warn(weakening.setting === 'RUNTIME_TLS_REJECT_UNAUTHORIZED' ? 'tls_verification_disabled' : 'insecure_setting', { ...weakening });
  }
  // D46: OpenTelemetry is loaded only when tracing is on; off, not one of its modules is.
  const tracer: Tracer | undefined = config.tracing ? (await import('./tracing/start')).startTracing(config.tracing, SERVER_INFO.version) : undefined;
  if (config.STREAMABLE_HTTP) await serveHttp(config, { caCert, logger, sealer, auditFd, tracer });
  else await serveStdio(config, { caCert, logger, auditFd });
}

await main();
