// D46 in process: which server span each route gets (name, route, status), OAuth endpoints
// included, with a recording tracer in place of OpenTelemetry's; a path without a route is named
// by its method alone, and neither the path nor its query reaches a span.
import { describe, expect, test } from 'bun:test';
import { createApp } from '../src/app';
import type { SpanAttributes, TraceSpan, Tracer } from '../src/tracing/span';
import { testConfig } from './support/config';

interface Recorded {
  name: string;
  kind: 'server' | 'internal' | 'client';
  attributes: SpanAttributes;
  errorType?: string;
  parent?: Recorded;
  ended: boolean;
}

function recordingTracer(): Tracer & { spans: Recorded[] } {
  const spans: Recorded[] = [];
  const spanOf = (record: Recorded): TraceSpan => ({
    recording: true,
    set: (attributes) => Object.assign(record.attributes, attributes),
    fail: (errorType) => {
      record.errorType = errorType;
    },
    end: () => {
      record.ended = true;
    },
    child: (name, kind, attributes = {}) => {
      const child: Recorded = { name, kind, attributes: { ...attributes }, parent: record, ended: false };
      spans.push(child);
      return spanOf(child);
    },
    traceparent: () => '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  });
  return {
    spans,
    server: (name, _traceparent, _tracestate, attributes) => {
      const record: Recorded = { name, kind: 'server', attributes: { ...attributes }, ended: false };
      spans.push(record);
      return spanOf(record);
    },
    flush: async () => {},
    shutdown: async () => {},
  };
}

const OAUTH_MODE = { REMOTE_AUTHORIZATION: 'false', FORGE_MCP_OAUTH: 'true', MCP_SERVER_URL: 'http://localhost', FORGE_OAUTH_CLIENT_ID: 'forge-app-id' };

describe('server spans per route (D46)', () => {
  test.each([
    ['GET', '/healthz', {}, 'GET /healthz', '/healthz', 200],
    ['GET', '/metrics', {}, 'GET /metrics', '/metrics', 200],
    ['POST', '/mcp?glpat-inthequery=1', {}, 'POST /mcp', '/mcp', 401],
    ['POST', '/mcp/readonly', {}, 'POST /mcp/readonly', '/mcp/readonly', 401],
    ['POST', '/mcp/x/issues', {}, 'POST /mcp/x/*', '/mcp/x/*', 401],
    ['POST', '/token', OAUTH_MODE, 'POST /token', '/token', 400],
    ['POST', '/register', OAUTH_MODE, 'POST /register', '/register', 400],
    [
      'GET',
      '/.well-known/oauth-authorization-server',
      OAUTH_MODE,
      'GET /.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server',
      200,
    ],
    ['GET', '/glpat-inthepath0000000/x?token=glpat-inthequery', {}, 'GET', undefined, 404],
  ])('%s %s → %s', async (method, path, env, name, route, status) => {
    const tracer = recordingTracer();
    const app = createApp(testConfig('http://127.0.0.1:9/api/v4', env), { tracer });
    const response = await app.handle(
      new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined }),
    );
    expect(response.status).toBe(status);
    const [span] = tracer.spans;
    expect(tracer.spans).toHaveLength(1);
    expect(span).toMatchObject({ name, kind: 'server', ended: true });
    expect(span.attributes['http.route']).toBe(route);
    expect(span.attributes['http.request.method']).toBe(method);
    expect(span.attributes['http.response.status_code']).toBe(status);
    expect(JSON.stringify(span)).not.toContain('glpat');
    await app.close();
  });

  test('a 5xx marks the server span failed with its status', async () => {
    const tracer = recordingTracer();
    // No forge listens on port 9: the credential check cannot be made (503 on the modern lane).
    const app = createApp(testConfig('http://127.0.0.1:9/api/v4'), { tracer });
    const response = await app.handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'private-token': 'glpat-aaaaaaaaaaaaaaaaaaaa' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        }),
      }),
    );
    const [span] = tracer.spans;
    expect(span.attributes['http.response.status_code']).toBe(response.status);
    expect(span.attributes['mcp.method.name']).toBe('initialize');
    expect(span.attributes['forge_mcp.lane']).toBe('legacy');
    if (response.status >= 500) expect(span.errorType).toBe(String(response.status));
    else expect(span.errorType).toBeUndefined();
    await app.close();
  });
});
