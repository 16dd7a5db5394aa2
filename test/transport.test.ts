// The JSON-response transport must not keep per-request state once a response is handed over
// (SDK 1.32.2 does: stack-notes.md). bench/soak.ts measures the same thing as RSS.
import { afterAll, describe, expect, test } from 'bun:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createApp } from '../src/app';
import { pendingStreamEntries } from '../src/mcp/transport';
import { testConfig } from './support/config';
import { INITIALIZE, rpc } from './support/mcp-client';

const TOKEN = 'glpat-transport-test-0001';
const app = createApp(testConfig('http://127.0.0.1:9/api/v4'));
afterAll(() => app.close());

async function pingMany(handler: { handle(r: Request): Promise<Response> }, sid: string, n: number) {
  for (let i = 0; i < n; i++) {
    const response = await rpc(handler, { jsonrpc: '2.0', id: 100 + i, method: 'ping' }, { 'mcp-session-id': sid, 'Private-Token': TOKEN });
    expect(response.status).toBe(200);
    await response.text();
  }
}

describe('per-request state of the session transport', () => {
  test('no entry is left behind after 300 requests', async () => {
    const init = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN });
    const sid = init.headers.get('mcp-session-id')!;
    await pingMany(app, sid, 300);
    expect(pendingStreamEntries(app.sessions.use(sid)!.transport)).toBe(0);
  });

  test('the unpatched SDK transport keeps one entry per request (why the patch exists)', async () => {
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'raw', enableJsonResponse: true });
    const server = new Server({ name: 'raw', version: '1' }, { capabilities: {} });
    await server.connect(transport);
    const raw = { handle: (r: Request) => transport.handleRequest(r) };
    await rpc(raw, INITIALIZE);
    await pingMany(raw, 'raw', 50);
    // If this starts failing, the SDK fixed its leak and src/mcp/transport.ts can go.
    expect(pendingStreamEntries(transport)).toBeGreaterThanOrEqual(50);
    await server.close();
  });
});
