// D46 in process: which server span each route gets (name, route, status), OAuth endpoints
// included, with a recording tracer in place of OpenTelemetry's; a path without a route is named
// by its method alone, and neither the path nor its query reaches a span. And every request the
// forge receives, the checks at the door included, has a client span.
import { describe, expect, test } from 'bun:test';
import { createApp } from '../src/app';
import type { SpanAttributes, TraceSpan, Tracer } from '../src/tracing/span';
import { tracedPath } from '../src/forge/forge-span';
import { testConfig } from './support/config';
import { SEED, TOKENS, WORK_ITEM_SEED, addUpload, startFakeForge } from './support/fake-forge';
import { MCP_URL, connect, structured } from './support/mcp-client';

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

describe('every request to the forge has a client span (D46)', () => {
  test.each(['legacy', 'modern'] as const)(
    '%s lane: the credential check at the door, the instance probe and the tool’s own request, each below the request that made it, each passing its traceparent on',
    async (lane) => {
      const forge = await startFakeForge();
      const tracer = recordingTracer();
      const app = createApp(testConfig(forge.apiUrl), { tracer });
      try {
        const client = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane });
        structured(await client.call('list_todos', { action: 'review_submitted' }));
        await client.close();
        const asked = forge.requests.map((r) => `${r.method} /api/v4${tracedPath(r.path.slice('/api/v4'.length))}`).sort();
        // The door's check (GET /user), what the token may do, the release the action needs, the tool's own list.
        expect(new Set(asked)).toEqual(new Set(['GET /api/v4/user', 'GET /api/v4/personal_access_tokens/self', 'GET /api/v4/metadata', 'GET /api/v4/todos']));
        expect(forge.requests.every((r) => r.headers.get('traceparent') !== null)).toBe(true);
        const clients = tracer.spans.filter((s) => s.kind === 'client');
        const origin = new URL(forge.apiUrl).origin;
        expect(clients.map((s) => `${s.attributes['http.request.method']} ${String(s.attributes['url.full']).slice(origin.length)}`).sort()).toEqual(asked);
        for (const span of clients) {
          expect(span.ended).toBe(true);
          expect(span.attributes['http.response.status_code']).toBe(200);
          let root = span;
          while (root.parent) root = root.parent;
          expect(root).toMatchObject({ kind: 'server', name: 'POST /mcp' });
        }
        // The probe and the list are the tool call's; the check is the request's own.
        const user = clients.find((s) => String(s.attributes['url.full']).endsWith('/user'))!;
        expect(user.parent?.kind).toBe('server');
        const todos = clients.find((s) => String(s.attributes['url.full']).endsWith('/todos'))!;
        const metadata = clients.find((s) => String(s.attributes['url.full']).endsWith('/metadata'))!;
        expect(todos.parent?.name).toBe('tools/call list_todos');
        expect(metadata.parent).toBe(todos.parent);
      } finally {
        await app.close();
        await forge.stop();
      }
    },
  );

  test('an attachment download: its forge request is a client span below the GET /downloads/attachment span', async () => {
    const forge = await startFakeForge();
    const secret = '66dbcd21ec5d24ed6ea225176098d52b';
    addUpload(forge.model.findProject(String(SEED.project))!, secret, 'dk.png', { bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png' });
    const tracer = recordingTracer();
    const app = createApp(testConfig(forge.apiUrl, { MCP_SERVER_URL: 'http://localhost' }), { tracer });
    try {
      const query = new URLSearchParams({ project_id: String(SEED.project), secret, filename: 'dk.png' });
      const response = await app.handle(new Request(`http://localhost/downloads/attachment?${query}`, { headers: { 'Private-Token': TOKENS.guest } }));
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      const [client] = tracer.spans.filter((s) => s.kind === 'client');
      expect(client.attributes['url.full']).toBe(`${new URL(forge.apiUrl).origin}/api/v4/projects/{}/uploads/{}/{}`);
      expect(client.parent).toMatchObject({ kind: 'server', name: 'GET /downloads/attachment' });
      expect(forge.requests.at(-1)!.headers.get('traceparent')).not.toBeNull();
    } finally {
      await app.close();
      await forge.stop();
    }
  });

  test('a completion that asks the forge: its request is a client span below the POST /mcp span', async () => {
    const forge = await startFakeForge();
    const tracer = recordingTracer();
    const app = createApp(testConfig(forge.apiUrl), { tracer });
    try {
      const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
      const ref = { type: 'ref/resource' as const, uri: 'gitlab://projects/{project_id}/-/issues/{issue_iid}' };
      const before = tracer.spans.length;
      expect((await session.client.complete({ ref, argument: { name: 'project_id', value: 'acme/' } })).completion.values).toContain(SEED.projectPath);
      const clients = tracer.spans.slice(before).filter((s) => s.kind === 'client');
      expect(clients).toHaveLength(1);
      expect(clients[0].attributes['url.full']).toBe(`${new URL(forge.apiUrl).origin}/api/v4/projects`);
      expect(clients[0].parent).toMatchObject({ kind: 'server', name: 'POST /mcp', attributes: { 'mcp.method.name': 'completion/complete' } });
      await session.close();
    } finally {
      await app.close();
      await forge.stop();
    }
  });

  test('a GraphQL request (a work item tool): its client span names /api/graphql, below the tool span', async () => {
    const forge = await startFakeForge();
    const tracer = recordingTracer();
    const app = createApp(testConfig(forge.apiUrl, { FORGE_TOOLSETS: 'work_items' }), { tracer });
    try {
      const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
      structured(await session.call('list_work_item_types', { namespace_path: WORK_ITEM_SEED.projectPath }));
      await session.close();
      const graphql = tracer.spans.filter((s) => s.kind === 'client' && s.attributes['http.request.method'] === 'POST');
      expect(graphql.length).toBeGreaterThan(0);
      for (const span of graphql) {
        expect(span.attributes['url.full']).toBe(`${new URL(forge.apiUrl).origin}/api/graphql`);
        expect(span.parent).toMatchObject({ kind: 'internal', name: 'tools/call list_work_item_types' });
      }
      expect(forge.requests.filter((r) => r.path === '/api/graphql').every((r) => r.headers.get('traceparent') !== null)).toBe(true);
    } finally {
      await app.close();
      await forge.stop();
    }
  });
});
