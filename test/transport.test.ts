// What the server relies on in the SDK's transports, pinned: a long legacy session keeps no
// per-request state once each response is handed over (SDK 1.32.2 did; bench/soak.ts measures
// the same as RSS), and a result the SDK cannot serialize is never answered by the SDK (so tool
// results must be serializable by construction: tools/result.ts). If a canary here fails, the SDK
// changed and the comment beside it says what to revisit.
import { afterAll, describe, expect, test } from 'bun:test';
import { createMcpHandler, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { createApp, type ForgeApp } from '../src/app';
import { sealerFromConfig } from '../src/sealing/from-config';
import { successResult } from '../src/tools/result';
import { testConfig } from './support/config';
import { capturingLogger } from './support/log-capture';
import { INITIALIZE, modernMessage, modernHeaders, rpc } from './support/mcp-client';

const TOKEN = 'glpat-transport-test-0001';
const app = createApp(testConfig('http://127.0.0.1:9/api/v4'));
afterAll(() => app.close());

/** The v2 transport's private per-request maps (a canary on SDK internals, not an API). */
interface TransportInternals {
  _streamMapping: Map<unknown, unknown>;
  _requestToStreamMapping: Map<unknown, unknown>;
  _requestResponseMap: Map<unknown, unknown>;
}

function pendingEntries(transport: WebStandardStreamableHTTPServerTransport): number {
  const internals = transport as unknown as TransportInternals;
  for (const map of [internals._streamMapping, internals._requestToStreamMapping, internals._requestResponseMap]) {
    if (!(map instanceof Map)) throw new Error('SDK transport internals renamed: update this canary (bench/soak.ts still measures RSS)');
  }
  return internals._streamMapping.size + internals._requestToStreamMapping.size + internals._requestResponseMap.size;
}

async function pingMany(handler: { handle(r: Request): Promise<Response> }, sid: string, n: number) {
  for (let i = 0; i < n; i++) {
    const response = await rpc(handler, { jsonrpc: '2.0', id: 100 + i, method: 'ping' }, { 'mcp-session-id': sid, 'Private-Token': TOKEN });
    expect(response.status).toBe(200);
    await response.text();
  }
}

function answeredWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not answered within ${ms} ms`)), ms))]);
}

describe('per-request state of the session transport', () => {
  test('no entry is left behind after 300 requests on one session', async () => {
    const init = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN });
    const sid = init.headers.get('mcp-session-id')!;
    await pingMany(app, sid, 300);
    expect(pendingEntries(app.sessions.use(sid)!.transport)).toBe(0);
  });
});

describe('a result that cannot be serialized', () => {
  const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_branch', arguments: { project_id: '1', branch_name: 'main' } } };

  /** Tool results that JSON cannot hold (a BigInt), built by the one result builder. */
  function unserializableValues(target: ForgeApp): void {
    (target.catalog as unknown as { call: () => Promise<unknown> }).call = async () => ({ result: successResult({ big: 10n }), outcome: 'ok' });
  }

  test('stateful: the builder refuses it, so the call is answered with a JSON-RPC internal error and logged', async () => {
    const capture = capturingLogger();
    const stateful = createApp(testConfig('http://127.0.0.1:9/api/v4'), { logger: capture.logger });
    unserializableValues(stateful);
    const init = await rpc(stateful, INITIALIZE, { 'Private-Token': TOKEN });
    const sid = init.headers.get('mcp-session-id')!;
    const response = await answeredWithin(rpc(stateful, CALL, { 'mcp-session-id': sid, 'Private-Token': TOKEN }), 5000);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; error: { code: number } };
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32603);
    expect(pendingEntries(stateful.sessions.use(sid)!.transport)).toBe(0);
    await pingMany(stateful, sid, 3); // the session goes on serving
    expect(capture.entries().filter((e) => e.event === 'tool_call_failed')).toEqual([
      expect.objectContaining({ level: 'error', tool: 'get_branch', error: 'TypeError' }),
    ]);
    expect(capture.lines.join('')).not.toContain(TOKEN);
    await stateful.close();
  });

  test('stateless: answered with a JSON-RPC internal error too', async () => {
    const config = testConfig('http://127.0.0.1:9/api/v4', { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 7).toString('base64url') });
    const stateless = createApp(config, { sealer: await sealerFromConfig(config) });
    unserializableValues(stateless);
    const response = await answeredWithin(rpc(stateless, CALL, { 'Private-Token': TOKEN, 'mcp-protocol-version': '2025-06-18' }), 5000);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32603);
    await stateless.close();
  });

  // Canary: the SDK itself still leaves the HTTP request unanswered when a handler's result cannot
  // be serialized, on both lanes. If this starts failing, the SDK answers such results now and the
  // by-construction guarantee is no longer the only guard.
  test('canary: the SDK alone never answers such a result, on the legacy and the modern lane', async () => {
    const build = () => {
      const server = new Server({ name: 'canary', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', async () => ({ content: [{ type: 'text', text: 'x' }], structuredContent: { big: 10n } as never }));
      return server;
    };
    const legacyServer = build();
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await legacyServer.connect(transport);
    const legacy = transport.handleRequest(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(CALL),
      }),
    );
    await expect(answeredWithin(legacy, 300)).rejects.toThrow('not answered');

    const modern = createMcpHandler(build, { legacy: 'reject', responseMode: 'auto', onerror: () => {} });
    const message = modernMessage(8, 'tools/call', { name: 'get_branch', arguments: {} });
    const controller = new AbortController();
    const pending = modern.fetch(
      new Request('http://localhost/mcp', {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modernHeaders(message) },
        body: JSON.stringify(message),
      }),
    );
    await expect(answeredWithin(pending, 300)).rejects.toThrow('not answered');
    controller.abort();
    await legacyServer.close();
  });
});

describe("what the SDK refuses is the client's fault", () => {
  test('logged at debug, not as an error', async () => {
    const capture = capturingLogger();
    const refusing = createApp(testConfig('http://127.0.0.1:9/api/v4'), { logger: capture.logger });
    const init = await rpc(refusing, INITIALIZE, { 'Private-Token': TOKEN });
    const sid = init.headers.get('mcp-session-id')!;
    const refused = await rpc(
      refusing,
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { 'mcp-session-id': sid, 'Private-Token': TOKEN, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(refused.status).toBe(400);
    const events = capture.entries().filter((e) => String(e.event).startsWith('mcp_'));
    expect(events).toEqual([expect.objectContaining({ level: 'debug', event: 'mcp_request_refused' })]);
    expect(String(events[0].message)).toStartWith('Bad Request: Unsupported protocol version');
    await refusing.close();
  });
});
