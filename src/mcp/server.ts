// The only module that touches the SDK's Server: tools/list answers the catalog's prebuilt list,
// tools/call validates and runs a tool for the caller of the request.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ForgeClient } from '../forge/client';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import type { ToolCatalog } from '../tools/catalog';
import { callerFrom, type Caller } from './caller';

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
}

export function createMcpServer(deps: McpDeps): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => deps.catalog.listResult);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const caller = callerFrom(extra.authInfo) ?? deps.defaultCaller;
    if (!caller) throw new Error('tools/call without a caller: the HTTP layer must authenticate first');
    const name = request.params.name;
    const started = performance.now();
    const result = await deps.catalog.call(name, request.params.arguments, () => ({
      forge: new ForgeClient(deps.pool.endpoint(caller.apiUrl), caller.credential),
    }));
    if (deps.logger.enabled('info')) {
      const error = result.isError ? (result.structuredContent as { error?: { kind?: string; status?: number | null } })?.error : undefined;
      deps.logger.info('tool_call', {
        tool: name,
        outcome: error?.kind ?? 'ok',
        upstream_status: error?.status ?? undefined,
        ms: Math.round((performance.now() - started) * 10) / 10,
        session: caller.sessionTag,
      });
    }
    return result;
  });
  return server;
}
