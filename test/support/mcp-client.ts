// The SDK's own MCP client (v2), connected to an app in process: its fetch goes straight into
// app.handle, so tests exercise the real HTTP surface without a port. `lane` picks the protocol
// lane (D27): 'legacy' is the client's default 2025-11-25 session, 'modern' pins
// 2026-07-28 (no session; every request carries the caller's headers). The v2 client keeps a
// tools/list answer for its ttlMs: list again with { cacheMode: 'refresh' } or a new client.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';

export interface Handler {
  handle(request: Request): Promise<Response>;
}

export type Lane = 'legacy' | 'modern';

export const MCP_URL = 'http://localhost/mcp';
export const MODERN_VERSION = '2026-07-28';

export function inProcessFetch(app: Handler) {
  return (input: string | URL | Request, init?: RequestInit) =>
    app.handle(input instanceof Request ? new Request(input, init) : new Request(input instanceof URL ? input.href : input, init));
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** 'auto': the client probes server/discover first and falls back to initialize. */
  lane?: Lane | 'auto';
  /** Legacy lane: the 2025 revisions the client offers (default: the SDK's, 2025-11-25 first). */
  versions?: string[];
}

export function newClient(options: ConnectOptions = {}): Client {
  const info = { name: 'test-client', version: '1.0.0' };
  if (options.lane === 'modern') return new Client(info, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
  if (options.lane === 'auto') return new Client(info, { versionNegotiation: { mode: 'auto' } });
  return options.versions ? new Client(info, { supportedProtocolVersions: options.versions }) : new Client(info);
}

export async function connect(app: Handler, headers: Record<string, string> = {}, url: string = MCP_URL, options: ConnectOptions = {}): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    // In process for /mcp and its policy paths (/mcp/readonly, /mcp/x/…, D34).
    fetch: url === MCP_URL || url.startsWith(`${MCP_URL}/`) ? inProcessFetch(app) : undefined,
    requestInit: { headers },
  });
  const client = newClient(options);
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

/**
 * A 2026-07-28 request as the revision wants it: the `_meta` envelope in the body and the
 * MCP-Protocol-Version, Mcp-Method and Mcp-Name headers that mirror it.
 */
export function modernMessage(id: number | string, method: string, params: Record<string, unknown> = {}) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  };
}

export function modernHeaders(message: { method: string; params?: Record<string, unknown> }): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': message.method };
  if ((message.method === 'tools/call' || message.method === 'prompts/get') && typeof message.params?.name === 'string')
    headers['mcp-name'] = message.params.name;
  if (message.method === 'resources/read' && typeof message.params?.uri === 'string') headers['mcp-name'] = message.params.uri;
  return headers;
}

/** Raw POST of a 2026-07-28 request: envelope and mirrored headers added; `headers` win. */
export function modernRpc(
  app: Handler,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const message = modernMessage(id, method, params);
  return rpc(app, message, { ...modernHeaders(message), ...headers });
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
