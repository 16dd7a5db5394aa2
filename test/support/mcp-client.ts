// The SDK's own MCP client, connected to an app in process: its fetch goes straight into
// app.handle, so tests exercise the real HTTP surface without a port.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface Handler {
  handle(request: Request): Promise<Response>;
}

export const MCP_URL = 'http://localhost/mcp';

export function inProcessFetch(app: Handler) {
  return (input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input instanceof URL ? input.href : (input as string), init));
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connect(app: Handler, headers: Record<string, string> = {}, url: string = MCP_URL): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: url === MCP_URL ? inProcessFetch(app) : undefined,
    requestInit: { headers },
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
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

/** The structured value of a successful tool result (fails the test on an error result). */
export function structured<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

export function toolError(result: CallToolResult): { kind: string; status: number | null; message: string; retry_after?: number } {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  return (result.structuredContent as { error: { kind: string; status: number | null; message: string } }).error;
}

/** Raw JSON-RPC POST to /mcp (for status codes and headers the client hides). */
export function rpc(app: Handler, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return app.handle(
    new Request(MCP_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
