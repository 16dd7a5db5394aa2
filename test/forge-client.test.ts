// The forge client on its own against the fake forge on a port: credentials, error kinds,
// retries of reads (never writes), Retry-After, timeouts, redirects and pagination.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ForgeClient } from '../src/forge/client';
import { createEndpoint } from '../src/forge/endpoint';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { failure } from './support/tool-error';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => forge.reset());
afterAll(() => forge.stop());

const client = (token: string = TOKENS.maintainer, kind: 'private' | 'bearer' | 'job' = 'private', timeoutMs = 5000) =>
  new ForgeClient(createEndpoint(forge.apiUrl, { rejectUnauthorized: true, timeoutMs }), { kind, token });

const getProject = { method: 'GET' as const, path: `/projects/${SEED.project}` };

describe('credentials', () => {
  test.each([
    ['private', 'private-token', TOKENS.maintainer],
    ['bearer', 'authorization', `Bearer ${TOKENS.maintainer}`],
    ['job', 'job-token', TOKENS.job],
  ] as const)('%s credentials go in the %s header', async (kind, header, value) => {
    // A job token reaches only some endpoints (D38): a merge request list is one of them.
    await client(kind === 'job' ? TOKENS.job : TOKENS.maintainer, kind).json(
      kind === 'job' ? { method: 'GET', path: `/projects/${SEED.project}/merge_requests` } : getProject,
    );
    expect(forge.requests[0].headers.get(header)).toBe(value);
  });

  test('a token the forge does not know → permission 401', async () => {
    const error = await failure(client('glpat-unknown-token-000000').json(getProject));
    expect([error.kind, error.status, error.message]).toEqual(['permission', 401, '401 Unauthorized']);
  });
});

describe('error kinds (D17)', () => {
  test.each([
    [400, { error: 'title is missing' }, 'validation', 'title is missing'],
    [400, { message: { title: ['has already been taken'], base: ['is bad'] } }, 'validation', 'title has already been taken; is bad'],
    // A list of sentences (e.g. a refused protected branch's full_messages) reads as the sentences, not "0 a; 1 b".
    [
      422,
      { message: ['Name has already been taken', 'Push access levels is invalid'] },
      'validation',
      'Name has already been taken; Push access levels is invalid',
    ],
    [403, { message: '403 Forbidden' }, 'permission', '403 Forbidden'],
    [404, { message: '404 Project Not Found' }, 'not_found', '404 Project Not Found'],
    [409, { message: 'Issue(s) already assigned' }, 'conflict', 'Issue(s) already assigned'],
    [422, { message: 'cannot be related to itself' }, 'validation', 'cannot be related to itself'],
    [500, 'Internal Server Error', 'upstream', 'Internal Server Error'],
  ])('%d %p → %s', async (status, body, kind, message) => {
    forge.failNext({ method: 'POST', status, body });
    const error = await failure(client().json({ method: 'POST', path: `/projects/${SEED.project}/repository/branches`, body: { branch: 'x', ref: 'main' } }));
    expect([error.kind, error.status, error.message]).toEqual([kind, status, message]);
  });
});

describe('retries (D18)', () => {
  test('a read is retried on 502/503/504 and succeeds', async () => {
    forge.failNext({ method: 'GET', status: 503 });
    forge.failNext({ method: 'GET', status: 502 });
    const project = await client().json<{ id: number }>(getProject);
    expect(project.id).toBe(SEED.project);
    expect(forge.requests).toHaveLength(3);
  });

  test('at most two retries, then the failure is reported', async () => {
    forge.failNext({ method: 'GET', status: 504, times: 5 });
    const error = await failure(client().json(getProject));
    expect(error.kind).toBe('upstream');
    expect(forge.requests).toHaveLength(3);
  });

  test('a read honours Retry-After on 429', async () => {
    forge.failNext({ method: 'GET', status: 429, headers: { 'Retry-After': '1' } });
    const started = Date.now();
    await client().json(getProject);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(forge.requests).toHaveLength(2);
  });

  test('a Retry-After longer than the timeout is not waited for: rate_limited with retry_after', async () => {
    forge.failNext({
      method: 'GET',
      status: 429,
      headers: { 'Retry-After': '120' },
      body: { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
    });
    const started = Date.now();
    const error = await failure(client(TOKENS.maintainer, 'private', 2000).json(getProject));
    expect(Date.now() - started).toBeLessThan(1000);
    expect([error.kind, error.status, error.retryAfter]).toEqual(['rate_limited', 429, 120]);
    expect(error.message).toBe('This endpoint has been requested too many times. Try again later.');
  });

  test('writes are never retried', async () => {
    forge.failNext({ method: 'POST', status: 503 });
    const error = await failure(client().json({ method: 'POST', path: `/projects/${SEED.project}/repository/branches`, body: { branch: 'x', ref: 'main' } }));
    expect(error.kind).toBe('upstream');
    expect(forge.requests).toHaveLength(1);
    expect(forge.model.findProject(String(SEED.project))!.branches.has('x')).toBe(false);
  });

  test('a dropped connection is retried for reads', async () => {
    let calls = 0;
    const flaky = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request, server) {
        calls++;
        if (calls === 1) {
          server.requestIP(request); // first call: drop the socket without answering
          return new Promise<Response>(() => {
            setTimeout(() => flaky.stop(true).then(() => undefined), 0);
          });
        }
        return Response.json({ id: 1 });
      },
    });
    const port = flaky.port;
    // The first server dies mid-request; a second one on the same port answers the retry.
    const endpoint = createEndpoint(`http://127.0.0.1:${port}/api/v4`, { rejectUnauthorized: true, timeoutMs: 5000 });
    const second = new Promise<ReturnType<typeof Bun.serve>>((resolve) =>
      setTimeout(() => resolve(Bun.serve({ hostname: '127.0.0.1', port, fetch: () => Response.json({ id: 2 }) })), 50),
    );
    const result = await new ForgeClient(endpoint, { kind: 'private', token: TOKENS.maintainer }).json<{ id: number }>({ method: 'GET', path: '/x' });
    expect(result.id).toBe(2);
    (await second).stop(true);
  });
});

describe('timeouts', () => {
  test('a forge slower than FORGE_REQUEST_TIMEOUT_MS → timeout', async () => {
    const slow = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>((r) => setTimeout(() => r(Response.json({})), 2000)) });
    const c = new ForgeClient(createEndpoint(`http://127.0.0.1:${slow.port}/api/v4`, { rejectUnauthorized: true, timeoutMs: 300 }), {
      kind: 'private',
      token: TOKENS.maintainer,
    });
    const started = Date.now();
    const error = await failure(c.json({ method: 'GET', path: '/projects/1' }));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
    slow.stop(true);
  });
});

describe('redirects', () => {
  test('same-origin redirects of reads are followed; other origins are not', async () => {
    const target = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ stolen: true }) });
    const origin = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request) {
        const path = new URL(request.url).pathname;
        if (path === '/api/v4/projects/old') return new Response(null, { status: 301, headers: { location: '/api/v4/projects/new' } });
        if (path === '/api/v4/projects/new') return Response.json({ id: 7 });
        return new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${target.port}/x` } });
      },
    });
    const c = new ForgeClient(createEndpoint(`http://127.0.0.1:${origin.port}/api/v4`, { rejectUnauthorized: true, timeoutMs: 2000 }), {
      kind: 'private',
      token: TOKENS.maintainer,
    });
    expect(await c.json<{ id: number }>({ method: 'GET', path: '/projects/old' })).toEqual({ id: 7 });
    expect((await failure(c.json({ method: 'GET', path: '/elsewhere' }))).kind).toBe('upstream');
    origin.stop(true);
    target.stop(true);
  });
});

describe('pagination', () => {
  test('list() turns x-* headers into the pagination object; allPages() follows x-next-page', async () => {
    const c = client();
    const page = await c.list({ method: 'GET', path: `/projects/${SEED.project}/repository/branches`, query: { per_page: 10 } });
    expect(page.pagination).toEqual({ page: 1, per_page: 10, next_page: 2, total: SEED.branchCount, total_pages: 3 });
    const all = await c.allPages({ method: 'GET', path: `/projects/${SEED.project}/repository/branches` });
    expect(all.items).toHaveLength(SEED.branchCount);
  });
});
