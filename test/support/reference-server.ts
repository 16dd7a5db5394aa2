// The conformance yardstick (docs/real-clients.md): a small server built the way the official SDK v2
// documents it, with one tool. scripts/real-clients.ts runs the same conformance scenarios against
// it and against ours, so a check both fail is the suite's (or the SDK's) and a check only ours
// fails is ours.
//
// Like ours it serves both lanes on /mcp (docs/decisions.md D27): isLegacyRequest in front of
// createMcpHandler(…, { legacy: 'reject' }) for 2026-07-28, and 2025 clients on sessionful
// transports (the wiring the SDK's isLegacyRequest documentation names), because the suite's
// 2025 session scenarios have nothing to check on createMcpHandler's default session-less 2025
// serving. The SDK's Host/Origin checks stand in front, as D12 has ours do.
// Logs the same "listening" line as the server, which test/support/process.ts waits for.
//   PORT=0 bun run test/support/reference-server.ts
import {
  createMcpHandler,
  fromJsonSchema,
  isJsonContentType,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer,
  originValidationResponse,
  ResourceTemplate,
  validateHostHeader,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

const schema = fromJsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });

const promptArgs = fromJsonSchema<{ arg1: string; arg2: string }>({
  type: 'object',
  properties: { arg1: { type: 'string', description: 'First argument' }, arg2: { type: 'string', description: 'Second argument' } },
  required: ['arg1', 'arg2'],
});

const LIST_HINT = { ttlMs: 60_000, cacheScope: 'public' } as const;

function build(): McpServer {
  const server = new McpServer(
    { name: 'reference', version: '1.0.0' },
    {
      // Resources, prompts and completions declared as ours declares them (D44), so the suite's
      // list, caching and completion checks have the same to judge on both servers.
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} },
      cacheHints: { 'tools/list': LIST_HINT, 'prompts/list': LIST_HINT, 'resources/list': LIST_HINT, 'resources/templates/list': LIST_HINT },
    },
  );
  server.registerTool('echo', { description: 'Echo the text back.', inputSchema: schema }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  // A resource template with a completer, as the SDK documents them: registering it is what makes
  // McpServer answer completion/complete at all (declaring the capability is not enough).
  const items = new ResourceTemplate('reference://items/{id}', {
    list: undefined,
    complete: { id: (value) => ['1', '2', '3'].filter((id) => id.startsWith(value)) },
  });
  server.registerResource('item', items, { description: 'An item by id.', mimeType: 'text/plain' }, (uri, { id }) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `item ${String(id)}` }],
  }));
  // The prompt the suite's completion-complete scenario completes an argument of (the SDK answers an
  // unknown prompt with -32602; ours answers it with no values, D44). Its arguments have no
  // completer, so the SDK completes them to nothing, as ours does for an argument it does not know.
  server.registerPrompt('test_prompt_with_arguments', { description: 'A prompt with two arguments.', argsSchema: promptArgs }, ({ arg1, arg2 }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
  }));
  return server;
}

const modern = createMcpHandler(build, { legacy: 'reject' });

const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

async function legacy(request: Request): Promise<Response> {
  const id = request.headers.get('mcp-session-id');
  if (id) {
    const transport = sessions.get(id);
    if (transport) return transport.handleRequest(request);
    return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
  }
  const server = build();
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (sid) => void sessions.set(sid, transport),
    onsessionclosed: (sid) => void sessions.delete(sid),
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request);
  if (!transport.sessionId) await server.close(); // not an initialize: nothing to keep
  return response;
}

const HOSTS = localhostAllowedHostnames();
const ORIGINS = localhostAllowedOrigins();

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/mcp') return new Response('Not Found', { status: 404 });
    const host = validateHostHeader(request.headers.get('host') ?? url.host, HOSTS);
    if (!host.ok) return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: host.message }, id: null }, { status: 403 });
    const refused = originValidationResponse(request, ORIGINS);
    if (refused) return refused;
    if (request.method === 'POST' && !isJsonContentType(request.headers.get('content-type')))
      return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Unsupported Media Type' }, id: null }, { status: 415 });
    return (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request);
  },
});

process.stderr.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.port}` })}\n`);
process.on('SIGTERM', () => {
  void server.stop(true);
  process.exit(0);
});
