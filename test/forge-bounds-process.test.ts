// Memory stays bounded when the forge answers huge bodies (D30), measured on a real
// server process started with the defaults (FORGE_MAX_RESPONSE_BYTES 16 MiB): four tool calls whose
// forge answers are 300 MB issues (valid JSON, two declared and two streamed, written from one
// reused 1 MiB buffer so the fake forge allocates nothing per byte) are all answered with an
// upstream tool error naming the setting, and the server's RSS (GET /metrics.json) comes back
// within 50 MB of where it started.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { TOKENS } from './support/fake-forge';
import { briefToolError, startHugeBodyForge, type HostileForge } from './support/hostile-forge';
import { connect } from './support/mcp-client';
import { startServer, type Started } from './support/process';

setDefaultTimeout(60_000);
const MB = 1000 * 1000;
const HUGE = 300 * MB;

let forge: HostileForge;
let server: Started;
beforeAll(async () => {
  // Issue 1 and 3 declare their length; 2 and 4 stream chunked; any other issue is a small (non-JSON) body.
  forge = await startHugeBodyForge((request) => {
    const iid = Number(request.url?.split('/').pop());
    return iid >= 1 && iid <= 4 ? { bytes: HUGE, declare: iid % 2 === 1, fill: 'json' } : { bytes: 64, declare: true };
  });
  server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl });
});
afterAll(async () => {
  await server?.stop();
  await forge?.stop();
});

const rss = async () => ((await (await fetch(`${server.url}/metrics.json`)).json()) as { memoryUsage: { rss: number } }).memoryUsage.rss;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

test('four 300 MB forge answers: each call answered with upstream naming FORGE_MAX_RESPONSE_BYTES, RSS back within 50 MB', async () => {
  const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
  // Warm up the whole path once (a small body that is not JSON) before the first measure.
  expect(briefToolError(await session.call('get_issue', { project_id: '1', issue_iid: 99 })).kind).toBe('upstream');
  const before = await rss();

  let peak = before;
  let calling = true;
  const sampling = (async () => {
    while (calling) {
      peak = Math.max(peak, await rss());
      await Bun.sleep(50);
    }
  })();
  const results = await Promise.all([1, 2, 3, 4].map((iid) => session.call('get_issue', { project_id: '1', issue_iid: iid })));
  calling = false;
  await sampling;
  // Kept short: a result made from a 300 MB answer must not end up printed.
  const outcomes = results.map((result) => (result.isError ? briefToolError(result) : { kind: 'ok', message: 'a successful result' }));
  const peakWritten = Math.max(...forge.written.slice(-4));

  // Freed memory is returned to the system lazily: give it a few seconds, then take the last figure.
  let after = await rss();
  for (let i = 0; i < 25 && after - before > 50 * MB; i++) {
    await Bun.sleep(200);
    after = await rss();
  }
  console.log(
    `server RSS before ${mb(before)} MB, highest seen during the calls ${mb(peak)} MB, after ${mb(after)} MB (${after >= before ? '+' : ''}${mb(after - before)} MB); most the forge wrote for one answer: ${mb(peakWritten)} MB`,
  );
  for (const outcome of outcomes) {
    expect(outcome.kind).toBe('upstream');
    expect(outcome.message).toContain('FORGE_MAX_RESPONSE_BYTES (16777216 bytes)');
  }
  expect(after - before).toBeLessThan(50 * MB);
  expect(peak - before).toBeLessThan(200 * MB);
  expect(peakWritten).toBeLessThan(HUGE / 4);
  await session.close();
});
