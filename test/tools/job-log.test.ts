// get_pipeline_job_output: cleaning (section markers, ANSI, carriage returns, invisible characters),
// the line reader on its own (tail, offset, range, long lines, chunk boundaries), the tool through
// the SDK client, and a 50 MB log streamed through with flat memory and, for a range near the
// start, without reading the forge's answer to its end.
import { describe, expect, test } from 'bun:test';
import { createApp } from '../../src/app';
import { testConfig } from '../support/config';
import { CI_SEED, SEED, TOKENS, ciOf } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { connect, MCP_URL, structured, toolError } from '../support/mcp-client';
import { cleanLine, lineText } from '../../src/tools/pipelines/log-text';
import { LINE_BYTES, readLogLines, type LogWindow } from '../../src/tools/pipelines/log-lines';
import type { JobLog } from '../../src/tools/pipelines/job-log';

const ESC = '\x1b';
const encoder = new TextEncoder();

describe('cleanLine', () => {
  test.each([
    [`${ESC}[32;1m$ bun test${ESC}[0;m`, '$ bun test'],
    [`section_start:1706000011:step_script\r${ESC}[0K${ESC}[0K${ESC}[36;1mExecuting "step_script"${ESC}[0;m`, 'Executing "step_script"'],
    [`section_start:1706000000:prepare_executor[collapsed=true]\r${ESC}[0KPreparing`, 'Preparing'],
    [`section_end:1706000040:step_script\r${ESC}[0K`, ''],
    ['Downloading 10%\rDownloading 60%\rDownloading 100%', 'Downloading 100%'],
    ['Fetching changes...\r', 'Fetching changes...'],
    [`title${ESC}]0;window title\x07 and ${ESC}]8;;https://x.test${ESC}\\link${ESC}]8;;${ESC}\\`, 'title and link'],
    ['a\u200Bb\u202Ec\u2066d\uFEFFe\u{E0041}f', 'abcdef'],
    ['bell\x07 back\x08space\ttab', 'bell backspace\ttab'],
  ])('%j → %j', (raw, clean) => {
    expect(cleanLine(raw)).toBe(clean);
  });

  test('a line cut at LINE_BYTES says how much was left out, without a broken character', () => {
    const bytes = encoder.encode('é'.repeat(10)).slice(0, 7); // cut inside the fourth é
    expect(lineText({ bytes, cut: 1234 })).toBe('ééé [… 1234 more bytes]');
  });
});

/** A reader over the given chunks (strings or bytes), counting how many were taken. */
function chunks(parts: (string | Uint8Array)[]) {
  let taken = 0;
  const reader = {
    read: async () =>
      taken < parts.length
        ? { done: false as const, value: typeof parts[taken] === 'string' ? encoder.encode(parts[taken++] as string) : (parts[taken++] as Uint8Array) }
        : { done: true as const },
    get taken() {
      return taken;
    },
  };
  return reader;
}

const texts = (read: Awaited<ReturnType<typeof readLogLines>>) => read.lines.map((line) => lineText(line));
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('readLogLines', () => {
  test('tail: the last lines, with their numbers and the total', async () => {
    const read = await readLogLines(chunks([numbered(10)]), { mode: 'tail', limit: 3, offset: 0 });
    expect([texts(read), read.first_line, read.total_lines, read.more]).toEqual([['line 8', 'line 9', 'line 10'], 8, 10, false]);
  });

  test('tail with offset skips lines from the end', async () => {
    const read = await readLogLines(chunks([numbered(10)]), { mode: 'tail', limit: 3, offset: 2 });
    expect([texts(read), read.first_line, read.total_lines, read.more]).toEqual([['line 6', 'line 7', 'line 8'], 6, 10, true]);
  });

  test('tail longer than the log returns all of it; an offset past the start returns nothing', async () => {
    expect(texts(await readLogLines(chunks([numbered(2)]), { mode: 'tail', limit: 5, offset: 0 }))).toEqual(['line 1', 'line 2']);
    const none = await readLogLines(chunks([numbered(2)]), { mode: 'tail', limit: 5, offset: 7 });
    expect([none.lines, none.first_line, none.total_lines]).toEqual([[], 0, 2]);
  });

  test('range: the lines asked for, and reading stops once past them', async () => {
    const parts = [numbered(3), numbered(3), numbered(3), numbered(3)];
    const reader = chunks(parts);
    const read = await readLogLines(reader, { mode: 'range', start: 2, limit: 3 });
    expect([texts(read), read.first_line, read.total_lines, read.more]).toEqual([['line 2', 'line 3', 'line 1'], 2, null, true]);
    expect(reader.taken).toBe(2);
  });

  test('range reaching the end knows the total; a range past the end is empty', async () => {
    const read = await readLogLines(chunks([numbered(4)]), { mode: 'range', start: 3, limit: 10 });
    expect([texts(read), read.total_lines, read.more]).toEqual([['line 3', 'line 4'], 4, false]);
    const past = await readLogLines(chunks([numbered(4)]), { mode: 'range', start: 9, limit: 10 });
    expect([past.lines, past.first_line, past.total_lines]).toEqual([[], 0, 4]);
  });

  test('lines split across chunks at every byte, CRLF ends and a last line without a newline', async () => {
    const log = 'first\r\nsécond\r\n\r\nlast';
    const bytes = encoder.encode(log);
    const oneByOne = Array.from(bytes, (b) => Uint8Array.of(b));
    const read = await readLogLines(chunks(oneByOne), { mode: 'tail', limit: 10, offset: 0 });
    expect([texts(read), read.total_lines]).toEqual([['first', 'sécond', '', 'last'], 4]);
  });

  test('a line longer than LINE_BYTES is kept only up to it, across chunks too', async () => {
    const long = 'x'.repeat(LINE_BYTES * 3);
    const read = await readLogLines(chunks([long.slice(0, 1500), long.slice(1500), '\nshort\n']), { mode: 'tail', limit: 2, offset: 0 });
    expect(read.lines.map((l) => [l.bytes.byteLength, l.cut])).toEqual([
      [LINE_BYTES, LINE_BYTES * 2],
      [5, 0],
    ]);
  });

  test('an empty log has no lines', async () => {
    for (const window of [
      { mode: 'tail', limit: 5, offset: 0 },
      { mode: 'range', start: 1, limit: 5 },
    ] as LogWindow[]) {
      const read = await readLogLines(chunks([]), window);
      expect([read.lines, read.first_line, read.total_lines]).toEqual([[], 0, 0]);
    }
  });
});

const h = useHarness({ FORGE_TOOLSETS: 'pipelines' });
const P = SEED.projectPath;
const J = CI_SEED.jobs;
const job = (id: number) => ciOf(h.forge.model.findProject(P)!).jobs.find((j) => j.id === id)!;

describe('get_pipeline_job_output', () => {
  test('the tail of a failed job, cleaned, with line numbers', async () => {
    const log = structured<JobLog>(await (await h.as()).call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, limit: 4 }));
    expect(log).toEqual({
      job_id: J.featureUnitFailed,
      first_line: 52,
      last_line: 55,
      total_lines: 55,
      log: ['  ✕ rejects an empty user name (3 ms)', 'Tests: 1 failed, 41 passed, 42 total', '', 'ERROR: Job failed: exit code 1'].join('\n'),
    });
    expect(log.log).not.toContain(ESC);
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/jobs/${J.featureUnitFailed}/trace`]);
  });

  test('full_response: the same lines as GitLab sent them, colour codes and section markers kept', async () => {
    const raw = structured<JobLog>(
      await (await h.as()).call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, start_line: 1, limit: 2, full_response: true }),
    );
    expect([raw.first_line, raw.last_line]).toEqual([1, 2]);
    expect(raw.log).toContain(ESC);
    expect(raw.log).toContain('section_start:');
  });

  test('default: the last 200 lines; a line range from start_line; offset from the end (modern lane)', async () => {
    const c = await connect(h.app, { 'Private-Token': TOKENS.developer }, MCP_URL, { lane: 'modern' });
    const whole = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed }));
    expect([whole.first_line, whole.last_line, whole.log.split('\n').length]).toEqual([1, 55, 55]);
    expect(whole.log.split('\n').slice(0, 3)).toEqual([
      'Running with gitlab-runner 17.5.0 (abc123)',
      'Preparing the "docker" executor',
      'Using Docker executor with image oven/bun:1.4 ...',
    ]);
    const range = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, start_line: 6, limit: 2 }));
    expect(range).toEqual({
      job_id: J.featureUnitFailed,
      first_line: 6,
      last_line: 7,
      total_lines: null,
      log: 'Fetching changes with git depth set to 20...\nDownloading 100%',
    });
    const offset = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, limit: 1, offset: 3 }));
    expect([offset.first_line, offset.log]).toEqual([52, '  ✕ rejects an empty user name (3 ms)']);
    await c.close();
  });

  test('a job with no log: an empty result that says so', async () => {
    const log = structured<JobLog>(await (await h.as()).call('get_pipeline_job_output', { project_id: P, job_id: J.featureDeploySkipped }));
    expect(log).toEqual({
      job_id: J.featureDeploySkipped,
      first_line: 0,
      last_line: 0,
      total_lines: 0,
      log: '',
      note: 'the job has no log (not started yet, or erased)',
    });
  });

  test('an unknown job → not_found; a private project for a stranger → not_found', async () => {
    expect(toolError(await (await h.as()).call('get_pipeline_job_output', { project_id: P, job_id: 31337 }))).toMatchObject({ kind: 'not_found', status: 404 });
    h.forge.failNext({ status: 403, pathIncludes: '/trace' });
    expect(toolError(await (await h.as()).call('get_pipeline_job_output', { project_id: P, job_id: J.featureBuild })).kind).toBe('permission');
  });

  test('lines that do not fit one result are dropped from the far end, with a way to read them', async () => {
    job(J.featureBuild).trace = Array.from({ length: 300 }, (_, i) => `${String(i + 1).padStart(4, '0')} ${'y'.repeat(493)}`).join('\n');
    const c = await h.as();
    const tail = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureBuild, limit: 300 }));
    expect(Buffer.byteLength(JSON.stringify(tail.log))).toBeLessThanOrEqual(60_000);
    expect([tail.first_line, tail.last_line, tail.total_lines, tail.log.slice(0, 4)]).toEqual([181, 300, 300, '0181']);
    expect([tail.truncated, tail.truncation]).toEqual([true, '180 older lines did not fit; read them with start_line 1 and limit 180']);
    const head = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureBuild, start_line: 1, limit: 300 }));
    expect([head.first_line, head.last_line, head.truncation]).toEqual([1, 120, '180 more lines did not fit; continue with start_line 121']);
  });

  test("a log that stops arriving ends at the call's deadline with timeout, not a hung call", async () => {
    let pulled = 0;
    job(J.featureUnitFailed).trace = () =>
      new ReadableStream<Uint8Array>(
        {
          // One line, then nothing more and no end.
          pull: (controller) => (pulled++ === 0 ? controller.enqueue(encoder.encode('started\n')) : new Promise<void>(() => {})),
        },
        { highWaterMark: 0 },
      );
    const app = createApp(testConfig(h.forge.apiUrl, { FORGE_TOOLSETS: 'pipelines', FORGE_TOOL_TIMEOUT_MS: '300' }));
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const error = toolError(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('FORGE_TOOL_TIMEOUT_MS');
    await c.close();
    await app.close();
  });

  test.each([
    [{ limit: 100000 }, 'limit: must be an integer from 1 to 1000'],
    [{ limit: 0 }, 'limit: must be an integer from 1 to 1000'],
    [{ offset: 1e9 }, 'offset: must be an integer from 0 to 5000; use start_line to read further back'],
    [{ start_line: 0 }, 'start_line: must be a line number, 1 or more'],
    [{ start_line: 1e308 }, 'start_line: must be a line number, 1 or more'],
    [{ start_line: 5, offset: 1 }, 'offset: counts from the end; give offset or start_line, not both'],
    [{ job_id: '..' }, 'job_id: must be a positive integer job id such as 42'],
    [{ job_id: '1006/../../1' }, 'job_id: must be a positive integer job id such as 42'],
  ])('refuses %j before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, ...args }))).toEqual({
      kind: 'validation',
      status: null,
      message,
    });
    expect(h.upstream()).toEqual([]);
  });
});

describe('a 50 MB log', () => {
  const MIB = 1024 * 1024;
  const CHUNKS = 50;
  const LINE = 64; // bytes, newline included
  const LINES_PER_CHUNK = MIB / LINE;
  // One MiB of coloured lines, the same bytes in every chunk: the forge side allocates nothing per chunk.
  const line = `${ESC}[32mok${ESC}[0m build step output`;
  const CHUNK = encoder.encode(`${line}${' '.repeat(LINE - 1 - line.length)}\n`.repeat(LINES_PER_CHUNK));
  const LAST = 'ERROR: Job failed: exit code 1';

  /** Serves the log as a pulled stream (sent chunked, no length), counting chunks pulled and sampling live memory. */
  function serveLog(onPull: (pulled: number) => void) {
    let pulled = 0;
    let canceledByClient: () => void = () => {};
    const canceled = new Promise<void>((resolve) => (canceledByClient = resolve));
    job(J.featureUnitFailed).trace = () =>
      new ReadableStream<Uint8Array>(
        {
          cancel: () => canceledByClient(),
          pull(controller) {
            if (pulled < CHUNKS) controller.enqueue(CHUNK);
            else if (pulled === CHUNKS) controller.enqueue(encoder.encode(`${LAST}\n`));
            else controller.close();
            onPull(++pulled);
          },
        },
        { highWaterMark: 0 },
      );
    return { pulled: () => pulled, canceled };
  }

  test('the tail streams through with memory flat (peak live memory above the baseline far below the log)', async () => {
    const c = await h.as();
    // Warm the whole path first (compiled code, pools), so the baseline is a process that has made this call.
    structured(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, limit: 5 }));
    Bun.gc(true);
    const baseline = process.memoryUsage();
    // RSS, and the heap in use (Bun counts array buffers in it): RSS also holds pages the allocator
    // keeps after a collection, which on a loaded machine adds noise the heap figure does not have.
    let peak = 0;
    let peakHeap = 0;
    const measure = () => {
      Bun.gc(true);
      const now = process.memoryUsage();
      peak = Math.max(peak, now.rss - baseline.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed - baseline.heapUsed);
    };
    // Every 4 MiB pulled: collect, then measure what is still in use.
    const source = serveLog((pulled) => pulled % 4 === 0 && measure());
    const log = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, limit: 5 }));
    measure();
    const total = CHUNKS * LINES_PER_CHUNK + 1;
    expect([log.first_line, log.last_line, log.total_lines]).toEqual([total - 4, total, total]);
    expect(log.log.split('\n')).toEqual(['ok build step output', 'ok build step output', 'ok build step output', 'ok build step output', LAST]);
    expect(source.pulled()).toBeGreaterThan(CHUNKS); // all of it went through
    console.log(
      `job log: ${CHUNKS} MiB tail read, peak above the baseline: RSS ${(peak / MIB).toFixed(1)} MiB, heap in use ${(peakHeap / MIB).toFixed(1)} MiB`,
    );
    // Streamed: heap in use under 1 MiB; reading the body whole first: 45 MiB. The heap counts array
    // buffers, so it is the live memory this test is about. RSS is logged, not judged: it was 8-28 MiB
    // alone, but in the whole suite's one process the allocator keeps pages other files freed, and
    // it read 53.6 MiB once with the heap at 0.2 MiB, while the whole-body read gives 45-48 MiB.
    expect(peakHeap).toBeLessThan(8 * MIB);
  }, 60_000);

  test("a range near the start stops reading: the forge's answer is abandoned far before its end", async () => {
    const c = await h.as();
    const source = serveLog(() => {});
    const log = structured<JobLog>(await c.call('get_pipeline_job_output', { project_id: P, job_id: J.featureUnitFailed, start_line: 10, limit: 3 }));
    expect([log.first_line, log.last_line, log.total_lines, log.log]).toEqual([
      10,
      12,
      null,
      'ok build step output\nok build step output\nok build step output',
    ]);
    const atAnswer = source.pulled();
    // Whatever socket buffers and stream queues held before the cancel reached the forge, never the rest.
    expect(atAnswer).toBeLessThan(CHUNKS / 2);
    // The server's stream is cancelled: the connection was closed rather than left to its timeout.
    await source.canceled;
    expect(source.pulled()).toBeLessThan(CHUNKS / 2);
  }, 60_000);
});
