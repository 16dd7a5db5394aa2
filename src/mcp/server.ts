// The only module that touches the SDK's Server: tools/list answers the catalog's prebuilt list,
// tools/call validates and runs a tool for the caller of the request.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ForgeClient } from '../forge/client';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import type { ToolCatalog } from '../tools/catalog';
import { callerFrom, requestIdFrom, type Caller } from './caller';

export const SERVER_INFO = { name: 'forge-tool-server', version: '0.1.0' };

const INSTRUCTIONS =
  'Tools act on a GitLab forge with the caller\'s own token. project_id takes a numeric id or a full path (group/sub/project). ' +
  'List tools return {items, pagination}; failures come back as isError results whose text starts with a kind ' +
  '(validation, not_found, permission, conflict, rate_limited, upstream, timeout, mismatch).';

export interface McpDeps {
  catalog: ToolCatalog;
  pool: ForgePool;
  logger: Logger;
  /** Caller used when a request carries none (stdio with the static token). */
  defaultCaller?: Caller;
  /** Counts each call by tool and outcome (ok or an error kind). */
  onToolCall?: (tool: string, outcome: string) => void;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export function createMcpServer(deps: McpDeps): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => deps.catalog.listResult);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = callerFrom(extra.authInfo) ?? deps.defaultCaller;
    if (!caller) throw new Error('tools/call without a caller: the HTTP layer must authenticate first');
    const name = request.params.name;
    const started = performance.now();
    let forge: ForgeClient | undefined;
    const result = await deps.catalog.call(name, request.params.arguments, () => {
      forge = new ForgeClient(deps.pool.endpoint(caller.apiUrl), caller.credential);
      return { forge };
    });
    const outcome = result.isError ? ((result.structuredContent as { error?: { kind?: string } })?.error?.kind ?? 'error') : 'ok';
    deps.onToolCall?.(name, outcome);
    if (deps.logger.enabled('info')) {
      deps.logger.info('tool_call', {
        request_id: requestIdFrom(extra.authInfo),
        session: caller.sessionTag,
        tool: name,
        outcome,
        upstream_status: forge?.lastStatus,
        upstream_ms: forge ? round(forge.upstreamMs) : undefined,
        ms: round(performance.now() - started),
      });
    }
    return result;
  });
  return server;
}
