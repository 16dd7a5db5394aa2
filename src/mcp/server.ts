// The only module that touches the SDK's Server: tools/list answers the catalog's prebuilt list,
// tools/call validates and runs a tool for the caller of the request (mcp/request-context.ts).
// One factory serves both lanes (D27) and stdio.
import { Server, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from '../logging/logger';
import { ProtocolError } from '../tools/catalog';
import { INSTRUCTIONS } from '../tools/groups';
import { requestContextOf } from './request-context';
import { toolListFor } from './tool-list';
import { registerResourcesAndPrompts, type ResourcesDeps } from './resources-prompts';
import { catalogFor, createToolCaller, type ToolCallerDeps, type ToolCallParams } from './tool-caller';
import type { Asking } from './confirmation';

export const SERVER_INFO = { name: 'forge-tool-server', version: '0.1.0' };

/**
 * Cache hints of the 2026-07-28 results (the SDK stamps them on the modern lane only). The tool
 * list depends on the deployment alone (groups, read-only mode), so it is `public`; a list that
 * depends on the caller must be answered with `cacheScope: 'private'` (D27).
 */
const CACHE_HINTS = {
  'tools/list': { ttlMs: 300_000, cacheScope: 'public' },
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
  // D44: the templates and prompts follow the deployment's tools like tools/list; resources/list
  // is always empty. A read is the caller's forge data as it is now: theirs alone, stale at once.
  'resources/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: 300_000, cacheScope: 'public' },
  'prompts/list': { ttlMs: 300_000, cacheScope: 'public' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
} as const;

/** The tool caller's deps (mcp/tool-caller.ts: catalog, logger, metrics hook, sealer, timeout). */
interface McpDeps extends ToolCallerDeps, ResourcesDeps {
  /** FORGE_CONFIRM_TTL_SECONDS in ms: how long a 2025 session's confirmation question waits for its answer (D42). */
  confirmTimeoutMs?: number;
}

const QUOTE_START = /[{["]/;
// The SDK's refusals of a malformed request (transport and modern handler): already answered with
// an HTTP error, so the client's fault, not the server's.
const REQUEST_REFUSAL =
  /^(Not Acceptable|Unsupported Media Type|Unsupported protocol version|Parse error|Invalid Request|Bad Request|Session not found|Method not allowed|Conflict|Rejected inbound request|Rejected 2025-era request|Missing required client capabilit)/i;

/** The SDK's error text up to where it quotes a message (`{`, `[` or `"`), at most 200 characters. */
function sdkErrorText(error: unknown): string {
  const text = String((error as Error | undefined)?.message ?? error);
  const quoted = text.search(QUOTE_START);
  return (quoted === -1 ? text : text.slice(0, quoted)).slice(0, 200).trim();
}

/** Logs what the SDK reports through onerror: its own faults as errors, refused requests at debug. */
export function sdkErrorLogger(logger: Logger) {
  return (error: Error) => {
    const message = sdkErrorText(error);
    if (REQUEST_REFUSAL.test(message)) logger.debug('mcp_request_refused', { message });
    else logger.error('mcp_error', { error: error?.name, message });
  };
}

interface LegacyHttpOptions {
  /** The revisions negotiated at initialize, newest first. */
  versions: readonly string[];
  /**
   * Whether the session's notification stream (GET) is open: the one way a JSON-response session
   * can send its client a request (an elicitation, D42). Absent (stateless mode): it cannot.
   */
  listening?: () => boolean;
}

/**
 * `era`: the revision family the server will serve (createMcpHandler and serveStdio say which).
 * `legacyHttp`: the server serves the legacy lane over HTTP (D27): it negotiates only the lane's
 * revisions and answers every request, a cancelled one too (below). Absent (stdio, the modern
 * lane): the SDK's own list and cancellation.
 */
export function createMcpServer(deps: McpDeps, era: 'modern' | 'legacy' = 'legacy', legacyHttp?: LegacyHttpOptions): Server {
  const server = new Server(SERVER_INFO, {
    // D44: resource templates (no subscriptions), prompts and argument completion, on every lane.
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} },
    instructions: INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
    ...(legacyHttp && { supportedProtocolVersions: [...legacyHttp.versions] }),
  });
  // Faults inside the SDK (a response that could not be sent) are otherwise silent. Logged
  // without any message content the SDK quotes (D5: nothing a caller sent).
  server.onerror = sdkErrorLogger(deps.logger);
  // notifications/cancelled (D27): the SDK would drop the cancelled request's answer, and a POST
  // answered with JSON then never ends, holding its forge lease and its session busy for good. A
  // tool call cannot be cancelled once its forge requests are under way (MCP lets a receiver ignore
  // such a cancellation), so it is answered when it ends, within FORGE_TOOL_TIMEOUT_MS, as the
  // plain call path answers it (http/fast-tool-call.ts); the client ignores the late answer.
  if (legacyHttp) server.setNotificationHandler('notifications/cancelled', () => {});
  server.setRequestHandler('tools/list', (_request, ctx) => {
    const context = requestContextOf(ctx);
    return toolListFor(catalogFor(deps, context), context, context ? deps.tokenProfile?.(context.caller, context.forge) : undefined);
  });
  // tools/call, the hot path. On the legacy lane it is the fallback handler: the SDK then skips
  // its per-call zod re-parse of the request and its parse-and-copy of the result (our results
  // are valid by construction: tools/result.ts) and still stamps the result. The request arrives
  // unvalidated, so the name is checked here and the arguments by the tool's own schema; any other
  // method it meets is answered as not found, as before. The modern lane registers it normally:
  // there a fallback would turn the revision's 404 for unserved methods into in-band errors (200).
  // test/sdk-canary.test.ts pins the SDK behaviour both rely on.
  const toolCaller = createToolCaller(deps);
  registerResourcesAndPrompts(server, deps, toolCaller);
  // How this request can ask its user before a destructive tool runs (D42, mcp/confirmation.ts).
  const askingOf = async (params: ToolCallParams, ctx: ServerContext): Promise<Asking | undefined> => {
    if (!deps.confirmations || typeof params?.name !== 'string' || !deps.catalog.isDestructive(params.name)) return undefined;
    if (!server.getClientCapabilities()?.elicitation) return undefined;
    if (era === 'modern') {
      const state = await ctx.mcpReq.requestState<unknown>();
      return { via: 'input_required', inputResponses: ctx.mcpReq.inputResponses, requestState: typeof state === 'string' ? state : undefined };
    }
    if (!legacyHttp?.listening?.()) return undefined;
    // Sent on the notification stream (no related request): a JSON-response POST cannot carry it.
    return { via: 'elicitation', elicit: (params) => server.elicitInput(params, { timeout: deps.confirmTimeoutMs }) };
  };
  const callTool = async (params: ToolCallParams, ctx: ServerContext): Promise<CallToolResult> => {
    const context = requestContextOf(ctx) ?? deps.stdioContext?.();
    if (!context) throw new Error('tools/call without a request context: the HTTP layer must bind one');
    return toolCaller(params, context, await askingOf(params, ctx));
  };
  if (era === 'modern') {
    server.setRequestHandler('tools/call', (request, ctx) => callTool(request.params, ctx));
  } else {
    server.fallbackRequestHandler = async (request, ctx) => {
      if (request.method !== 'tools/call') throw new ProtocolError(-32601, 'Method not found');
      return callTool(request.params as ToolCallParams, ctx);
    };
  }
  return server;
}
