// Fetching Client ID Metadata Documents (D28) for real, from a Bun.serve on 127.0.0.1 with the
// insecure-loopback allowance: limits of size (declared and streamed) and time, what a valid
// document is, redirects refused, caching per the document's headers (capped at 24 h), and one
// fetch for concurrent lookups.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createLogger } from '../src/logging/logger';
import { CIMD_LIMITS, FAILURE_TTL_SECONDS, MetadataDocuments, type FetchOutcome } from '../src/oauth/cimd';
import { MAX_CACHED_DOCUMENTS, MemoryDocumentCache, freshnessSeconds } from '../src/oauth/cimd-cache';

type Route = () => Response | Promise<Response>;
const routes = new Map<string, Route>();
const hits = new Map<string, number>();
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      return routes.get(path)?.() ?? new Response('not found', { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

let clock = 0;
let lines: string[] = [];
let outcomes: FetchOutcome[] = [];
const now = () => Date.now() + clock;
let documents: MetadataDocuments;
beforeEach(() => {
  routes.clear();
  hits.clear();
  clock = 0;
  lines = [];
  outcomes = [];
  documents = newDocuments();
});

function newDocuments(limits = CIMD_LIMITS): MetadataDocuments {
  return new MetadataDocuments({
    allowLoopback: true,
    cache: new MemoryDocumentCache(now),
    logger: createLogger('debug', (line) => lines.push(line)),
    now,
    limits,
    onFetch: (outcome) => outcomes.push(outcome),
  });
}

const doc = (path: string, extra: Record<string, unknown> = {}) => ({
  client_id: `${base}${path}`,
  client_name: 'Loop Client',
  redirect_uris: ['http://127.0.0.1/callback'],
  ...extra,
});
const serveJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  routes.set(path, () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', ...headers } }));
const refusal = async (path: string) => {
  const result = await documents.resolve(`${base}${path}`);
  expect(result.ok).toBe(false);
  return result.ok ? undefined : result.reason;
};

test("the limits are D28's: 5 s and 64 KB", () => {
  expect(CIMD_LIMITS).toEqual({ timeoutMs: 5_000, maxBytes: 65_536 });
});

describe('valid documents', () => {
  test('a document whose client_id is its URL gives its redirect URIs and name, stripped of invisible characters', async () => {
    serveJson('/ok.json', doc('/ok.json', { client_name: 'Loop\u200B \u202EClient', logo_uri: 'https://x.example/l.png' }));
    expect(await documents.resolve(`${base}/ok.json`)).toEqual({ ok: true, value: { clientName: 'Loop Client', redirectUris: ['http://127.0.0.1/callback'] } });
    expect(outcomes).toEqual(['ok']);
  });

  test('logs name the host, never the client id URL', async () => {
    serveJson('/secret-path.json', doc('/secret-path.json'));
    await documents.resolve(`${base}/secret-path.json`);
    routes.delete('/secret-path.json');
    await newDocuments().resolve(`${base}/secret-path.json`);
    expect(lines.length).toBe(2);
    for (const line of lines) {
      expect(line).not.toContain('secret-path');
      expect(JSON.parse(line).host).toBe(`127.0.0.1:${server.port}`);
    }
  });
});

describe('refused documents', () => {
  test('declared larger than 64 KB', async () => {
    routes.set('/big.json', () => new Response('x'.repeat(65_537), { headers: { 'content-type': 'application/json' } }));
    expect(await refusal('/big.json')).toBe('the client metadata document is larger than 65536 bytes');
    expect(outcomes).toEqual(['refused']);
  });

  test('streamed past 64 KB without a length: cut off as soon as it passes', async () => {
    let sent = 0;
    routes.set(
      '/stream.json',
      () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              // Endless unless the reader stops: only cutting it off ends this test.
              await Bun.sleep(1);
              sent += 8192;
              controller.enqueue(new Uint8Array(8192).fill(32));
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    );
    expect(await refusal('/stream.json')).toBe('the client metadata document is larger than 65536 bytes');
    expect(sent).toBeLessThan(65_536 * 4);
  });

  test('slower than the deadline', async () => {
    documents = newDocuments({ ...CIMD_LIMITS, timeoutMs: 200 });
    routes.set('/slow.json', async () => {
      await Bun.sleep(1_000);
      return Response.json(doc('/slow.json'));
    });
    const started = Date.now();
    expect(await refusal('/slow.json')).toBe('the client metadata document did not arrive within 0.2 seconds');
    expect(Date.now() - started).toBeLessThan(900);
    expect(outcomes).toEqual(['failed']);
  });

  test('not JSON', async () => {
    routes.set('/html', () => new Response('<html>hi</html>', { headers: { 'content-type': 'text/html' } }));
    expect(await refusal('/html')).toBe('the client metadata document is not JSON');
  });

  test.each([
    ['an array', []],
    ['a string', 'x'],
    ['null', null],
  ])('JSON but %s', async (_, body) => {
    serveJson('/notobject.json', body);
    expect(await refusal('/notobject.json')).toBe('the client metadata document is not a JSON object');
  });

  test('for another client_id (another path, or a near miss)', async () => {
    serveJson('/other.json', doc('/different.json'));
    expect(await refusal('/other.json')).toBe("the client metadata document's client_id is not the URL it was fetched from");
    serveJson('/slash.json', { ...doc('/slash.json'), client_id: `${base}/slash.json/` });
    expect(await refusal('/slash.json')).toBe("the client metadata document's client_id is not the URL it was fetched from");
    expect(outcomes).toEqual(['refused', 'refused']);
  });

  test('without redirect_uris, or with one that may not be used', async () => {
    serveJson('/nouris.json', doc('/nouris.json', { redirect_uris: [] }));
    expect(await refusal('/nouris.json')).toBe('the client metadata document has no redirect_uris');
    serveJson('/httpuri.json', doc('/httpuri.json', { redirect_uris: ['http://app.example/cb'] }));
    expect(await refusal('/httpuri.json')).toBe(
      "the client metadata document's redirect_uris[0] http is allowed only for loopback addresses (localhost, 127.0.0.1, [::1]); use https",
    );
  });

  test('a redirect elsewhere is not followed', async () => {
    serveJson('/target.json', doc('/moved.json'));
    routes.set('/moved.json', () => new Response(null, { status: 302, headers: { location: `${base}/target.json` } }));
    expect(await refusal('/moved.json')).toBe("the client metadata document's URL answered with a redirect (HTTP 302); redirects are not followed");
    expect(hits.get('/target.json')).toBeUndefined();
    expect(outcomes).toEqual(['refused']);
  });

  test('an error status', async () => {
    expect(await refusal('/missing.json')).toBe("the client metadata document's URL answered HTTP 404");
    expect(outcomes).toEqual(['failed']);
  });

  test('nobody listening', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const url = `http://127.0.0.1:${closed.port}/gone.json`;
    await closed.stop(true);
    expect(await documents.resolve(url)).toEqual({ ok: false, reason: 'the client metadata document could not be fetched (connection failed)' });
  });
});

describe('caching', () => {
  const path = '/cached.json';
  const resolveTwice = async (advanceMs: number) => {
    expect((await documents.resolve(`${base}${path}`)).ok).toBe(true);
    clock += advanceMs;
    expect((await documents.resolve(`${base}${path}`)).ok).toBe(true);
    return hits.get(path);
  };

  test('max-age is honoured: fresh from the cache, fetched again once stale', async () => {
    serveJson(path, doc(path), { 'cache-control': 'public, max-age=60' });
    expect(await resolveTwice(59_000)).toBe(1);
    clock += 2_000;
    await documents.resolve(`${base}${path}`);
    expect(hits.get(path)).toBe(2);
  });

  test('no-store is never kept', async () => {
    serveJson(path, doc(path), { 'cache-control': 'no-store' });
    expect(await resolveTwice(0)).toBe(2);
  });

  test('a longer max-age is capped at 24 h', async () => {
    serveJson(path, doc(path), { 'cache-control': 'max-age=31536000' });
    expect(await resolveTwice(24 * 3600_000 - 1_000)).toBe(1);
    clock += 2_000;
    await documents.resolve(`${base}${path}`);
    expect(hits.get(path)).toBe(2);
  });

  test('a refused document is not kept as a document: its refusal is answered for FAILURE_TTL_SECONDS, then it is fetched again', async () => {
    serveJson(path, doc('/elsewhere.json'), { 'cache-control': 'max-age=600' });
    const reason = await refusal(path);
    expect(reason).toBeDefined();
    serveJson(path, doc(path), { 'cache-control': 'max-age=600' });
    // A second sign-in within the window: the same refusal, no second fetch.
    clock += FAILURE_TTL_SECONDS * 1000 - 1_000;
    expect(await refusal(path)).toBe(reason);
    expect(hits.get(path)).toBe(1);
    // One after it: fetched again, and the (now valid) document kept.
    clock += 2_000;
    expect(await resolveTwice(0)).toBe(2);
    expect(outcomes).toEqual(['refused', 'ok']);
  });

  test('a document that could not be fetched is fetched again only once FAILURE_TTL_SECONDS have passed', async () => {
    routes.set(path, () => new Response('busy', { status: 503 }));
    const reason = await refusal(path);
    expect(reason).toBe("the client metadata document's URL answered HTTP 503");
    expect(await refusal(path)).toBe(reason);
    clock += FAILURE_TTL_SECONDS * 1000 - 1_000;
    expect(await refusal(path)).toBe(reason);
    expect(hits.get(path)).toBe(1);
    clock += 2_000;
    expect(await refusal(path)).toBe(reason);
    expect(hits.get(path)).toBe(2);
    expect(outcomes).toEqual(['failed', 'failed']);
  });

  test('remembered failures are bounded (MAX_CACHED_DOCUMENTS by default): past it the oldest is forgotten', async () => {
    const few = new MetadataDocuments({
      allowLoopback: true,
      cache: new MemoryDocumentCache(now),
      logger: createLogger('error', () => {}),
      now,
      maxFailures: 3,
    });
    routes.set('/gone.json', () => new Response('no', { status: 404 }));
    for (let i = 0; i <= 3; i++) await few.resolve(`${base}/gone.json?n=${i}`);
    expect(hits.get('/gone.json')).toBe(4);
    await few.resolve(`${base}/gone.json?n=3`);
    expect(hits.get('/gone.json')).toBe(4);
    await few.resolve(`${base}/gone.json?n=0`);
    expect(hits.get('/gone.json')).toBe(5);
    expect(MAX_CACHED_DOCUMENTS).toBe(1_000);
  });

  test('concurrent lookups of one URL share one fetch', async () => {
    routes.set(path, async () => {
      await Bun.sleep(50);
      return new Response(JSON.stringify(doc(path)), { headers: { 'cache-control': 'no-store' } });
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => documents.resolve(`${base}${path}`)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(hits.get(path)).toBe(1);
    expect(outcomes).toEqual(['ok']);
  });

  test('freshness from headers: max-age over Expires, Expires against Date, no-cache, default, cap', () => {
    const t = Date.parse('2026-11-01T00:00:00Z');
    const h = (headers: Record<string, string>) => freshnessSeconds(new Headers(headers), t);
    expect(h({ 'cache-control': 'max-age=120', expires: new Date(t + 3600_000).toUTCString() })).toBe(120);
    expect(h({ expires: new Date(t + 3600_000).toUTCString() })).toBe(3600);
    expect(h({ expires: 'Sun, 01 Nov 2026 02:00:00 GMT', date: 'Sun, 01 Nov 2026 01:00:00 GMT' })).toBe(3600);
    expect(h({ expires: '0' })).toBe(0);
    expect(h({ 'cache-control': 'no-cache, max-age=600' })).toBe(0);
    expect(h({ 'cache-control': 'max-age=abc' })).toBe(0);
    expect(h({})).toBe(300);
    expect(h({ 'cache-control': 'max-age=999999' })).toBe(86_400);
  });

  test('the cache is bounded: past its size the oldest entry goes', async () => {
    const cache = new MemoryDocumentCache(now, 2);
    for (const u of ['a', 'b', 'c']) await cache.set(u, { redirectUris: [u] }, 60);
    expect(cache.size).toBe(2);
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('c')).toEqual({ redirectUris: ['c'] });
  });
});
