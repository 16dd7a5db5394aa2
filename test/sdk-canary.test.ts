// Canaries: SDK v2 behaviour the server relies on, pinned so an SDK upgrade that changes it fails
// here with a message saying what to revisit (src/mcp/server.ts, src/mcp/request-context.ts).
// The unserializable-result canary lives in test/transport.test.ts.
import { describe, expect, test } from 'bun:test';
import { createMcpHandler, Server, WebStandardStreamableHTTPServerTransport, type ServerContext } from '@modelcontextprotocol/server';
import { createApp } from '../src/app';
import { testConfig } from './support/config';
import { INITIALIZE, modernHeaders, modernMessage, modernRpc, rpc } from './support/mcp-client';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function legacySession(server: Server) {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'canary', enableJsonResponse: true });
  await server.connect(transport);
  const post = (
    body: unknown,
    request = new Request('http://localhost/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': 'canary' }, body: JSON.stringify(body) }),
  ) => transport.handleRequest(request, { parsedBody: body });
  await transport.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) }), {
    parsedBody: INITIALIZE,
  });
  return post;
}

describe('the request context rides on the web Request (mcp/request-context.ts)', () => {
  test('ctx.http.req is the very Request handed to the SDK, on the legacy transport and the modern handler', async () => {
    const seen: unknown[] = [];
    const build = () => {
      const server = new Server({ name: 'canary', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', async (_request, ctx: ServerContext) => {
        seen.push(ctx.http?.req);
        return { content: [] };
      });
      return server;
    };
    const post = await legacySession(build());
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: {} } };
    const legacyRequest = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { ...HEADERS, 'mcp-session-id': 'canary' },
      body: JSON.stringify(call),
    });
    expect((await post(call, legacyRequest)).status).toBe(200);

    const message = modernMessage(3, 'tools/call', { name: 'x', arguments: {} });
    const modernRequest = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { ...HEADERS, ...modernHeaders(message) },
      body: JSON.stringify(message),
    });
    expect((await createMcpHandler(build, { legacy: 'reject', responseMode: 'auto' }).fetch(modernRequest, { parsedBody: message })).status).toBe(200);
    // If this fails, the per-request context no longer reaches handlers: src/mcp/request-context.ts.
    expect(seen[0]).toBe(legacyRequest);
    expect(seen[1]).toBe(modernRequest);
  });
});

describe("fallbackRequestHandler (the legacy lane's tools/call, src/mcp/server.ts)", () => {
  test("gets the raw request, unvalidated, and its result is passed on without the SDK's result validation", async () => {
    let got: unknown;
    const server = new Server({ name: 'canary', version: '1' }, { capabilities: { tools: {} } });
    server.fallbackRequestHandler = async (request) => {
      got = request.params;
      return { content: [{ type: 'not-a-content-type' }] } as never;
    };
    const post = await legacySession(server);
    const response = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 42 } });
    expect(got).toEqual({ name: 42 });
    // If the SDK starts validating here, the fallback saves nothing over setRequestHandler: switch back.
    expect(((await response.json()) as { result: unknown }).result).toEqual({ content: [{ type: 'not-a-content-type' }] });
  });

  test('so the server checks the tool name itself, on both lanes', async () => {
    const app = createApp(testConfig('http://127.0.0.1:9/api/v4'));
    const sid = (await rpc(app, INITIALIZE, { 'Private-Token': 'glpat-canary-token-00000' })).headers.get('mcp-session-id')!;
    for (const name of [42, null, undefined, { x: 1 }]) {
      const legacy = await rpc(app, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name, arguments: {} } }, { 'mcp-session-id': sid });
      expect(((await legacy.json()) as { error: { code: number } }).error.code).toBe(-32602);
      const modern = await modernRpc(app, 6, 'tools/call', { name, arguments: {} }, { 'Private-Token': 'glpat-canary-token-00000', 'mcp-name': 'x' });
      const answer = (await modern.json()) as { id: number; error: { code: number } };
      expect(answer.id).toBe(6);
      expect([-32602, -32020]).toContain(answer.error.code);
    }
    await app.close();
  });
});
