// D46 end to end: a real server process with OTEL_* pointing at a real OTLP/HTTP receiver on a
// loopback port, a fake forge, and the SDK client sending a W3C traceparent. The spans that arrive
// form the tree client → server span (POST /mcp) → tool span → forge client span, carry the HTTP
// and MCP attributes, and hold neither the token, nor an argument value, nor the exporter's header;
// the forge receives the client span as its parent in traceparent.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { connect, structured, toolError } from './support/mcp-client';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver';
import { startServer, type Started } from './support/process';

setDefaultTimeout(30_000);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const NEEDLE = 'needle-in-the-query-7';
const RECEIVER_KEY = 'receiver-api-key-9f8e7d';

let forge: FakeForge;
let receiver: OtlpReceiver;
let server: Started;
let serverLog = '';

const P = String(SEED.project);

beforeAll(async () => {
  forge = await startFakeForge();
  receiver = startOtlpReceiver();
  server = await startServer({
    REMOTE_AUTHORIZATION: 'true',
    FORGE_API_URL: forge.apiUrl,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_HEADERS: `x-receiver-key=${RECEIVER_KEY}`,
    OTEL_SERVICE_NAME: 'forge-mcp-under-test',
  });
  const traceparent = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;
  for (const lane of ['modern', 'legacy'] as const) {
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer, traceparent }, `${server.url}/mcp`, { lane });
    structured(await session.call('list_issues', { project_id: P, search: NEEDLE }));
    expect(toolError(await session.call('get_issue', { project_id: P, issue_iid: 987654 })).kind).toBe('not_found');
    await session.close();
  }
  // Graceful shutdown sends what is still batched (D46).
  expect(await server.stop()).toBe(0);
  serverLog = server.stderr();
});

afterAll(async () => {
  await server?.stop();
  await forge?.stop();
  receiver?.stop();
});

const byId = (id: string | undefined) => receiver.spans.find((s) => s.spanId === id);
const toolSpans = (name: string) => receiver.spans.filter((s) => s.name === name);

describe('the span tree of a tool call (D46)', () => {
  test('every span continues the client trace; the resource names the service', () => {
    expect(receiver.spans.length).toBeGreaterThan(0);
    expect(new Set(receiver.spans.map((s) => s.traceId))).toEqual(new Set([TRACE_ID]));
    expect(new Set(receiver.spans.map((s) => s.service))).toEqual(new Set(['forge-mcp-under-test']));
  });

  test.each(['modern', 'legacy'])('%s lane: client traceparent → POST /mcp (server) → tools/call list_issues → GET to the forge (client)', (lane) => {
    const tool = toolSpans('tools/call list_issues').find((s) => s.attributes['forge_mcp.lane'] === lane);
    expect(tool).toBeDefined();
    expect(tool!.kind).toBe(1);
    expect(tool!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'list_issues',
      'gen_ai.operation.name': 'execute_tool',
      'forge_mcp.outcome': 'ok',
    });
    expect(tool!.status).not.toBe(2);

    const server = byId(tool!.parentSpanId)!;
    expect(server).toMatchObject({ name: 'POST /mcp', kind: 2, parentSpanId: CLIENT_SPAN_ID });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/mcp',
      'http.response.status_code': 200,
      'mcp.method.name': 'tools/call',
      'forge_mcp.lane': lane,
    });

    const calls = receiver.spans.filter((s) => s.parentSpanId === tool!.spanId);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'GET', kind: 3 });
    const port = Number(new URL(forge.apiUrl).port);
    expect(calls[0].attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `${new URL(forge.apiUrl).origin}/api/v4/projects/{}/issues`,
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.response.status_code': 200,
    });
  });

  test('the forge gets the client span as the parent of its own work (traceparent passed on)', () => {
    const calls = forge.requests.filter((r) => r.path === `/api/v4/projects/${P}/issues`);
    expect(calls).toHaveLength(2);
    const clientSpans = new Set(receiver.spans.filter((s) => s.kind === 3 && s.attributes['url.full']?.toString().endsWith('/issues')).map((s) => s.spanId));
    for (const call of calls) {
      const [version, trace, span, flags] = (call.headers.get('traceparent') ?? '').split('-');
      expect([version, trace, flags]).toEqual(['00', TRACE_ID, '01']);
      expect(clientSpans.has(span)).toBe(true);
    }
  });

  test('the credential check at the door (GET /user) is a client span below the server span of the request that made it, passing its traceparent on', () => {
    const checks = forge.requests.filter((r) => r.path === '/api/v4/user');
    expect(checks.length).toBeGreaterThan(0);
    for (const check of checks) {
      const [, trace, spanId] = (check.headers.get('traceparent') ?? '').split('-');
      expect(trace).toBe(TRACE_ID);
      const span = byId(spanId)!;
      expect(span).toMatchObject({ name: 'GET', kind: 3 });
      expect(span.attributes).toMatchObject({ 'url.full': `${new URL(forge.apiUrl).origin}/api/v4/user`, 'http.response.status_code': 200 });
      expect(byId(span.parentSpanId)).toMatchObject({ name: 'POST /mcp', kind: 2 });
    }
  });

  test('a tool failure: the tool span is an error of type tool_error with its kind; the forge span has its status', () => {
    const failed = toolSpans('tools/call get_issue');
    expect(failed).toHaveLength(2);
    for (const tool of failed) {
      expect(tool.status).toBe(2);
      expect(tool.attributes).toMatchObject({ 'error.type': 'tool_error', 'forge_mcp.outcome': 'not_found' });
      const call = receiver.spans.find((s) => s.parentSpanId === tool.spanId)!;
      expect(call.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
      expect(call.attributes['url.full']).toEndWith('/api/v4/projects/{}/issues/{}');
      expect(call.status).toBe(2);
    }
  });

  test('the initialize/discover and session requests have server spans of their own, with their MCP method', () => {
    const methods = new Set(receiver.spans.filter((s) => s.kind === 2).map((s) => s.attributes['mcp.method.name']));
    expect(methods.has('tools/call')).toBe(true);
    expect(methods.has('initialize')).toBe(true);
  });

  test('no span holds the token, an argument value, the project path, or the exporter header; the log does not either', () => {
    const everything = receiver.bodies.join('\n');
    for (const secret of [TOKENS.maintainer, NEEDLE, SEED.projectPath, SEED.projectPathEncoded, '987654', RECEIVER_KEY]) {
      expect(everything).not.toContain(secret);
    }
    expect(serverLog).not.toContain(RECEIVER_KEY);
    // The receiver got the header, as configured.
    expect(receiver.headers.every((h) => h.get('x-receiver-key') === RECEIVER_KEY)).toBe(true);
  });
});
