// /downloads/attachment: issue attachments streamed from the fake forge with the caller's
// credentials or a link's sealed token; links in tool results; refusals that never reach the forge;
// per-token rate limit; large files streamed with bounded memory.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { Sealer } from '../src/sealing/sealer';
import { sealerFromConfig } from '../src/sealing/from-config';
import { testConfig } from './support/config';
import { SEED, TOKENS, addUpload, startFakeForge, type FakeForge } from './support/fake-forge';
import { connect, structured } from './support/mcp-client';

const SECRET = '66dbcd21ec5d24ed6ea225176098d52b';
// A real 1×1 PNG, so the bytes are binary (not UTF-8 safe).
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
const P = String(SEED.project);
let forge: FakeForge;
let app: ForgeApp;

beforeAll(async () => {
  forge = await startFakeForge();
  const config = testConfig(forge.apiUrl, { MCP_SERVER_URL: 'http://localhost', MAX_REQUESTS_PER_MINUTE: '1000' });
  app = createApp(config, { sealer: await sealerFromConfig(config) });
});
beforeEach(() => {
  forge.reset();
  addUpload(forge.model.findProject(P)!, SECRET, 'dk.png', { bytes: PNG, contentType: 'image/png' });
  forge.model
    .findProject(P)!
    .issues.get(1)!.description = `Screenshot: ![dk](/uploads/${SECRET}/dk.png) and [log](/uploads/${'a'.repeat(32)}/build%20log.txt).`;
});
afterAll(async () => {
  await app.close();
  await forge.stop();
});

const url = (q: Record<string, string>) => `http://localhost/downloads/attachment?${new URLSearchParams(q)}`;
const get = (q: Record<string, string>, headers: Record<string, string> = {}) => app.handle(new Request(url(q), { headers }));

describe('download with credential headers', () => {
  test('a binary PNG round-trips byte for byte with its content type and disposition', async () => {
    const response = await get({ project_id: SEED.projectPath, secret: SECRET, filename: 'dk.png' }, { 'Private-Token': TOKENS.guest });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toContain('dk.png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    expect(forge.requests.at(-1)!.path).toBe(`/api/v4/projects/${SEED.projectPathEncoded}/uploads/${SECRET}/dk.png`);
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.guest);
  });

  test('upstream errors come back as clear JSON errors with the upstream status', async () => {
    const missing = await get({ project_id: P, secret: SECRET, filename: 'nope.png' }, { 'Private-Token': TOKENS.maintainer });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { kind: 'not_found', status: 404, message: '404 Upload Not Found' } });
    const hidden = await get({ project_id: String(SEED.privateProject), secret: SECRET, filename: 'dk.png' }, { 'Private-Token': TOKENS.guest });
    expect(hidden.status).toBe(404);
  });

  test('no credentials → 401 without reaching the forge', async () => {
    const response = await get({ project_id: P, secret: SECRET, filename: 'dk.png' });
    expect(response.status).toBe(401);
    expect(forge.requests).toHaveLength(0);
  });

  test('a value this server sealed, sent as a credential header → 401 saying so, never sent to the forge (D23)', async () => {
    const sealed: Record<string, string>[] = [
      { 'Private-Token': `v1.sid.${'A'.repeat(40)}` },
      { 'JOB-TOKEN': `v1.dl.${'A'.repeat(40)}` },
      { Authorization: `Bearer v1.at.${'A'.repeat(40)}` },
    ];
    for (const headers of sealed) {
      const response = await get({ project_id: P, secret: SECRET, filename: 'dk.png' }, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(await response.json()).toEqual({
        error: {
          kind: 'permission',
          status: 401,
          message:
            'Authentication required: the credential is a value this server issued (a session id, a download or OAuth token), not a forge token; it was not sent to the forge',
        },
      });
    }
    expect(forge.requests).toHaveLength(0);
  });
});

describe('links in tool results', () => {
  test('get_issue exposes a ready download URL for each attachment; following it needs no headers', async () => {
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const issue = structured<{ attachments: { filename: string; url: string }[] }>(await session.call('get_issue', { project_id: P, issue_iid: '1' }));
    expect(issue.attachments.map((a) => a.filename)).toEqual(['dk.png', 'build log.txt']);
    const link = new URL(issue.attachments[0].url);
    expect(link.origin + link.pathname).toBe('http://localhost/downloads/attachment');
    expect(link.searchParams.get('_token')).toStartWith('v1.dl.');
    expect(link.href).not.toContain(TOKENS.maintainer);
    const response = await app.handle(new Request(link.href));
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.maintainer);
    await session.close();
  });

  test('an upload whose name the route would refuse gets no link; the others still do', async () => {
    forge.model
      .findProject(P)!
      .issues.get(
        1,
      )!.description = `[up](/uploads/${SECRET}/..) [dot](/uploads/${SECRET}/.) [slash](/uploads/${SECRET}/a%2Fb.txt) [back](/uploads/${SECRET}/a%5Cb.txt) [nul](/uploads/${SECRET}/a%00b) ![dk](/uploads/${SECRET}/dk.png)`;
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const issue = structured<{ attachments: { filename: string; url: string }[] }>(await session.call('get_issue', { project_id: P, issue_iid: '1' }));
    expect(issue.attachments.map((a) => a.filename)).toEqual(['dk.png']);
    await session.close();
  });

  test('an upper-case secret in a link reaches the forge in lower case, as GitLab names uploads', async () => {
    forge.model.findProject(P)!.issues.get(1)!.description = `![dk](/uploads/${SECRET.toUpperCase()}/dk.png)`;
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const issue = structured<{ attachments: { url: string }[] }>(await session.call('get_issue', { project_id: P, issue_iid: '1' }));
    await session.close();
    const link = new URL(issue.attachments[0].url);
    expect(link.searchParams.get('secret')).toBe(SECRET);
    for (const query of [
      link.searchParams,
      new URLSearchParams({ project_id: P, secret: SECRET.toUpperCase(), filename: 'dk.png', _token: link.searchParams.get('_token')! }),
    ]) {
      forge.requests.length = 0;
      const response = await app.handle(new Request(`http://localhost/downloads/attachment?${query}`));
      expect(response.status).toBe(200);
      expect(forge.requests.map((r) => r.path)).toEqual([`/api/v4/projects/${P}/uploads/${SECRET}/dk.png`]);
    }
    forge.requests.length = 0;
    expect((await get({ project_id: P, secret: SECRET.toUpperCase(), filename: 'dk.png' }, { 'Private-Token': TOKENS.guest })).status).toBe(200);
    expect(forge.requests.map((r) => r.path)).toEqual([`/api/v4/projects/${P}/uploads/${SECRET}/dk.png`]);
  });

  test('a result without attachment links is left as it is', async () => {
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const issue = structured<Record<string, unknown>>(await session.call('get_issue', { project_id: P, issue_iid: '2' }));
    expect(issue.attachments).toBeUndefined();
    await session.close();
  });
});

describe('refusals that never reach the forge', () => {
  async function tokenFor(projectId: string, filename = 'dk.png') {
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    forge.model.findProject(P)!.issues.get(1)!.description = `![x](/uploads/${SECRET}/${filename})`;
    const issue = structured<{ attachments: { url: string }[] }>(await session.call('get_issue', { project_id: projectId, issue_iid: '1' }));
    await session.close();
    return new URL(issue.attachments[0].url).searchParams.get('_token')!;
  }

  test.each([
    ['a ".." file name', { project_id: P, secret: SECRET, filename: '..' }, 400],
    ['a file name with a slash', { project_id: P, secret: SECRET, filename: '../../etc/passwd' }, 400],
    ['an encoded slash (decoded to a slash)', { project_id: P, secret: SECRET, filename: 'a%2Fb' }, 400],
    ['a project path with ..', { project_id: 'acme/../secret', secret: SECRET, filename: 'dk.png' }, 400],
    ['an encoded .. project path', { project_id: 'acme%2F%2e%2e%2Fsecret', secret: SECRET, filename: 'dk.png' }, 400],
    ['a project id of %2e%2e', { project_id: '%2e%2e', secret: SECRET, filename: 'dk.png' }, 400],
    ['a secret that is not 32 hex characters', { project_id: P, secret: '../uploads', filename: 'dk.png' }, 400],
  ])('%s → %d', async (_, query, status) => {
    const q = { ...query, filename: decodeURIComponent(query.filename) };
    const response = await get(q, { 'Private-Token': TOKENS.maintainer });
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^(project_id|secret|filename): /);
    expect(forge.requests).toHaveLength(0);
  });

  test('a token used for another project, file or secret → 403', async () => {
    const token = await tokenFor(P);
    forge.requests.length = 0;
    for (const q of [
      { project_id: String(SEED.privateProject), secret: SECRET, filename: 'dk.png' },
      { project_id: P, secret: SECRET, filename: 'other.png' },
      { project_id: P, secret: 'b'.repeat(32), filename: 'dk.png' },
    ])
      expect((await get({ ...q, _token: token })).status).toBe(403);
    expect(forge.requests).toHaveLength(0);
  });

  test.each([
    ['empty', ''],
    ['another kind of sealed value', 'v1.sid.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['no prefix', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['100 KB', `v1.dl.${'A'.repeat(100 * 1024)}`],
    ['control characters', 'v1.dl.AAAA\u0000\r\nAAAA'],
    ['spaces', 'v1.dl.AAAA AAAA'],
    ['non-ASCII characters', 'v1.dl.AAAAé\u202EAAAA'],
  ])('a _token that is not a sealed v1.dl. value (%s) → 401, nothing sent', async (_, bad) => {
    const response = await get({ project_id: P, secret: SECRET, filename: 'dk.png', _token: bad });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { kind: string } }).error.kind).toBe('permission');
    expect(forge.requests).toHaveLength(0);
  });

  test('a tampered, foreign or expired token → 401', async () => {
    const token = await tokenFor(P);
    forge.requests.length = 0;
    const tampered = token.slice(0, 12) + (token[12] === 'A' ? 'B' : 'A') + token.slice(13);
    const foreign = await (
      await Sealer.create({ secret: Buffer.alloc(32, 3).toString('base64url'), ttlSeconds: { cid: 1, ps: 1, pc: 1, sid: 1, dl: 900 } })
    ).seal('dl', { k: 'private', t: TOKENS.maintainer, u: forge.apiUrl, p: P, s: SECRET, f: 'dk.png' });
    for (const bad of [tampered, foreign, 'v1.dl.garbage']) {
      expect((await get({ project_id: P, secret: SECRET, filename: 'dk.png', _token: bad })).status).toBe(401);
    }
    expect(forge.requests).toHaveLength(0);
  });
});

describe('limits', () => {
  test('per-token fixed window: 429 "Rate limit exceeded" with Retry-After', async () => {
    const limited = createApp(testConfig(forge.apiUrl, { MAX_REQUESTS_PER_MINUTE: '2' }));
    // Each request from its own address, so only the per-token window can refuse.
    let address = 0;
    const send = (token: string) =>
      limited.handle(new Request(url({ project_id: P, secret: SECRET, filename: 'dk.png' }), { headers: { 'Private-Token': token } }), `10.1.0.${++address}`);
    expect((await send(TOKENS.maintainer)).status).toBe(200);
    expect((await send(TOKENS.maintainer)).status).toBe(200);
    const refused = await send(TOKENS.maintainer);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Rate limit exceeded');
    expect((await send(TOKENS.developer)).status).toBe(200); // another token has its own window
    await limited.close();
  });

  test('per client IP (D10): a flood of made-up tokens from one address reaches the forge at most MAX_REQUESTS_PER_MINUTE times', async () => {
    const limited = createApp(testConfig(forge.apiUrl, { MAX_REQUESTS_PER_MINUTE: '3' }));
    const send = (token: string, ip: string) =>
      limited.handle(new Request(url({ project_id: P, secret: SECRET, filename: 'dk.png' }), { headers: { 'Private-Token': token } }), ip);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await send(`made-up-token-${String(i).padStart(8, '0')}`, '203.0.113.5')).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]));
    expect(forge.requests).toHaveLength(3);
    // Refused before the query is even looked at: a download link (no headers) from there is refused too.
    expect((await limited.handle(new Request(url({ project_id: P, secret: SECRET, filename: 'dk.png', _token: 'v1.dl.x' })), '203.0.113.5')).status).toBe(429);
    expect(limited.metrics.rejectedByRateLimit).toBe(18);
    // Another address is not affected.
    expect((await send(TOKENS.maintainer, '198.51.100.20')).status).toBe(200);
    await limited.close();
  });

  test('stateless mode runs no in-app limiter (SPEC stateless rule 7)', async () => {
    const config = testConfig(forge.apiUrl, {
      MAX_REQUESTS_PER_MINUTE: '1',
      OAUTH_STATELESS_MODE: 'true',
      OAUTH_STATELESS_SECRET: Buffer.alloc(32, 5).toString('base64url'),
    });
    const free = createApp(config, { sealer: await sealerFromConfig(config) });
    for (let i = 0; i < 3; i++) {
      const response = await free.handle(
        new Request(url({ project_id: P, secret: SECRET, filename: 'dk.png' }), { headers: { 'Private-Token': TOKENS.maintainer } }),
        '203.0.113.5',
      );
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    await free.close();
  });

  test('a declared size over DOWNLOAD_MAX_BYTES → 413; an undeclared one is cut off at the cap', async () => {
    const small = createApp(testConfig(forge.apiUrl, { DOWNLOAD_MAX_BYTES: '4096' }));
    const big = new Uint8Array(10_000);
    addUpload(forge.model.findProject(P)!, SECRET, 'big.bin', {
      bytes: () => new Response(big).body!,
      contentType: 'application/octet-stream',
      size: big.length,
    });
    // A pulled stream is sent chunked, without a length: the cap has to cut it off mid-way.
    addUpload(forge.model.findProject(P)!, SECRET, 'chunked.bin', {
      bytes: () => new ReadableStream({ pull: (c) => (c.enqueue(big), c.close()) }),
      contentType: 'application/octet-stream',
    });
    const declared = await small.handle(
      new Request(url({ project_id: P, secret: SECRET, filename: 'big.bin' }), { headers: { 'Private-Token': TOKENS.maintainer } }),
    );
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { message: string } }).error.message).toContain('10000 bytes');
    const chunked = await small.handle(
      new Request(url({ project_id: P, secret: SECRET, filename: 'chunked.bin' }), { headers: { 'Private-Token': TOKENS.maintainer } }),
    );
    expect(chunked.status).toBe(200);
    expect(chunked.headers.get('content-length')).toBeNull();
    await expect(chunked.arrayBuffer()).rejects.toThrow('larger than 4096 bytes');
    await small.close();
  });

  test('a 200 MB attachment streams through with bounded memory', async () => {
    const CHUNK = new Uint8Array(1024 * 1024).fill(7);
    const TOTAL = 200;
    let sent = 0;
    addUpload(forge.model.findProject(P)!, SECRET, 'huge.bin', {
      contentType: 'application/octet-stream',
      size: TOTAL * CHUNK.length,
      bytes: () => new ReadableStream({ pull: (c) => (sent++ < TOTAL ? c.enqueue(CHUNK) : c.close()) }, { highWaterMark: 0 }),
    });
    const roomy = createApp(testConfig(forge.apiUrl, { DOWNLOAD_MAX_BYTES: String(1024 * 1024 * 1024) }));
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    const response = await roomy.handle(
      new Request(url({ project_id: P, secret: SECRET, filename: 'huge.bin' }), { headers: { 'Private-Token': TOKENS.maintainer } }),
    );
    expect(response.status).toBe(200);
    let received = 0;
    let peak = 0;
    let aheadWhilePaused = -1;
    let nextGc = 0;
    for await (const chunk of response.body!) {
      received += chunk.byteLength;
      if (aheadWhilePaused < 0 && received >= 8 * CHUNK.length) {
        // A slow reader: while it pauses, the forge may only run ahead by what sockets and stream
        // queues hold, never by the rest of the file (a buffered proxy would read all 200 MB now).
        await Bun.sleep(300);
        aheadWhilePaused = sent - Math.ceil(received / CHUNK.length);
      }
      // Memory still in use, not garbage a busy machine has not collected yet.
      if (received >= nextGc) Bun.gc(true), (nextGc += 16 * CHUNK.length);
      peak = Math.max(peak, process.memoryUsage().rss - before);
    }
    expect(received).toBe(TOTAL * CHUNK.length);
    expect(aheadWhilePaused).toBeGreaterThanOrEqual(0);
    expect(aheadWhilePaused).toBeLessThan(64);
    expect(peak).toBeLessThan(100 * 1024 * 1024); // far below the 200 MB passed through
    await roomy.close();
  }, 60_000);
});

// A forge answering what the fake forge never does: a redirect to another host (object storage),
// a 304, a body it compressed on the wire.
describe('forge answers outside the happy path', () => {
  const ODD_SECRET = '0123456789abcdef0123456789abcdef';
  let odd: ReturnType<typeof Bun.serve>;
  let oddApp: ForgeApp;
  const TEXT = 'a'.repeat(10_000);
  beforeAll(() => {
    const gz = Bun.gzipSync(Buffer.from(TEXT));
    odd = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(request) {
        const name = new URL(request.url).pathname.split('/').pop();
        if (name === 'moved.png') return new Response(null, { status: 302, headers: { location: 'https://storage.example/upload?signature=x' } });
        if (name === 'same.png') return new Response(null, { status: 304 });
        return new Response(gz, { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(gz.length) } });
      },
    });
    oddApp = createApp(testConfig(`http://127.0.0.1:${odd.port}/api/v4`));
  });
  afterAll(async () => {
    await oddApp.close();
    odd.stop(true);
  });
  const fetchOdd = (filename: string) =>
    oddApp.handle(new Request(url({ project_id: P, secret: ODD_SECRET, filename }), { headers: { 'Private-Token': TOKENS.maintainer } }));

  // The forge's 3xx is not an answer this route can pass on: a redirect without its Location (the
  // credential is never sent to another host), or a 304 to a request that asked for no revalidation.
  test.each([
    ['moved.png', 302],
    ['same.png', 304],
  ])('a forge %s answering %d → 502 naming that status', async (filename, status) => {
    const response = await fetchOdd(filename);
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { kind: string; status: number } }).error).toMatchObject({ kind: 'upstream', status });
  });

  // The runtime decodes a gzip body; the forge's Content-Length counts the encoded bytes, so passed on
  // it would promise 46 bytes of a 10,000-byte body.
  test('a body the forge gzipped arrives decoded, with no Content-Length of the encoded bytes', async () => {
    const response = await fetchOdd('log.txt');
    expect(response.status).toBe(200);
    const length = response.headers.get('content-length');
    const text = await response.text();
    expect(text).toBe(TEXT);
    if (length !== null) expect(Number(length)).toBe(text.length);
  });
});
