// The v1 SDK client (@modelcontextprotocol/sdk 1.32.2, kept as a devDependency for this): how
// clients built on the previous SDK line meet the legacy lane (D27).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_URL, inProcessFetch, type Handler } from './mcp-client';

export interface ConnectedV1 {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectV1(app: Handler, headers: Record<string, string> = {}, url: string = MCP_URL): Promise<ConnectedV1> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: url === MCP_URL ? inProcessFetch(app) : undefined, requestInit: { headers } });
  const client = new Client({ name: 'test-client-v1', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}
