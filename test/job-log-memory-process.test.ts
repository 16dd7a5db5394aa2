// Job-log memory under concurrency (D30, issue 32), measured on a real server process started with
// the defaults (JOB_LOG_MEMORY_BYTES 64 MiB): a forge serves job logs of 100 MB and 30 MB generated
// on the fly (lines written from one reused buffer, so the forge itself holds nothing per byte), and
// eight concurrent tails of the 100 MB log, sixteen of the 30 MB one and thirty-two of it with the
// widest window must grow the server's RSS (/proc VmRSS) by a bounded amount that does not depend
// on the log's size: the same tails of a 10 MB log are the control.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { TOKENS } from './support/fake-forge';
import { connect } from './support/mcp-client';
import { startServer, type Started } from './support/process';

setDefaultTimeout(240_000);
const MB = 1000 * 1000;
/** The control's log: large enough that the runtime's own streaming buffers reach their steady size. */
const CONTROL = 10;

// 1 MB of log lines with ANSI colour, as GitLab's runner writes them.
// Lines of ~1,500 bytes, longer than the LINE_BYTES kept of a line, so every line is cut too.
const LINE = `\u001b[32;1m$ make test\u001b[0;m ok: ${'compiling module '.repeat(90)}\n`;
const BLOCK = Buffer.from(LINE.repeat(Math.ceil(MB / Buffer.byteLength(LINE))));

interface LogForge {
  apiUrl: string;
  stop(): Promise<void>;
}

/** Answers GET …/jobs/{size in MB}/trace with a log of that many MB (chunked), and `/user`. */
function startLogForge(): Promise<LogForge> {
  const user = JSON.stringify({ id: 1, username: 'maria', name: 'Maria' });
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.endsWith('/user')) return void response.writeHead(200, { 'content-type': 'application/json' }).end(user);
    const match = /\/jobs\/(\d+)\/trace$/.exec(request.url ?? '');
    if (!match) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not found"}');
    const bytes = Number(match[1]) * MB;
    response.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    let closed = false;
    response.on('close', () => (closed = true));
    const pump = () => {
      while (!closed && sent < bytes) {
        const piece = BLOCK.subarray(0, Math.min(BLOCK.length, bytes - sent));
        sent += piece.length;
        if (!response.write(piece)) return void response.once('drain', pump);
      }
      if (!closed) response.end('\nlast line without a newline');
    };
    pump();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        apiUrl: `http://127.0.0.1:${port}/api/v4`,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

let forge: LogForge;
let server: Started;
beforeAll(async () => {
  forge = await startLogForge();
  server = await startServer({
    REMOTE_AUTHORIZATION: 'true',
    FORGE_API_URL: forge.apiUrl,
    FORGE_TOOLSETS: 'pipelines',
    MAX_REQUESTS_PER_MINUTE: '10000',
    FORGE_REQUEST_TIMEOUT_MS: '120000',
    FORGE_TOOL_TIMEOUT_MS: '200000',
  });
});
afterAll(async () => {
  await server?.stop();
  await forge?.stop();
});

/** VmRSS of the server process, from /proc (the figure the red team read). */
async function rss(): Promise<number> {
  const status = await Bun.file(`/proc/${server.proc.pid}/status`).text();
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/** `count` concurrent tails of a log of `size` MB: the highest RSS growth seen while they ran. */
async function tails(session: Awaited<ReturnType<typeof connect>>, count: number, size: number, window: { limit: number; offset?: number } = { limit: 200 }) {
  const before = await rss();
  let peak = before;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, await rss());
      await Bun.sleep(25);
    }
  })();
  const results = await Promise.all(Array.from({ length: count }, () => session.call('get_pipeline_job_output', { project_id: '1', job_id: size, ...window })));
  running = false;
  await sampling;
  for (const result of results) {
    if (result.isError) throw new Error(`tail of ${size} MB failed: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
    const log = result.structuredContent as { total_lines: number; last_line: number; log: string };
    expect(log.total_lines).toBe(log.last_line + (window.offset ?? 0));
    if (!window.offset) expect(log.log.endsWith('last line without a newline')).toBe(true);
  }
  return { before, peak, growth: peak - before };
}

test('8 tails of a 100 MB log, 16 and 32 wide ones of a 30 MB log: RSS growth bounded, and as for a 10 MB log', async () => {
  const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
  await tails(session, 2, 1); // warm the path up
  const start = await rss();
  const control8 = await tails(session, 8, CONTROL);
  const huge8 = await tails(session, 8, 100);
  const control16 = await tails(session, 16, CONTROL);
  const huge16 = await tails(session, 16, 30);
  // The widest window (1,000 lines 5,000 from the end: 6 MB of line slots each), 32 at once: the
  // process-wide budget (JOB_LOG_MEMORY_BYTES, 64 MiB by default) lets a few run at a time.
  const wide32 = await tails(session, 32, 30, { limit: 1000, offset: 5000 });
  const line = (name: string, r: { before: number; peak: number; growth: number }) =>
    `${name}: RSS ${mb(r.before)} → peak ${mb(r.peak)} MB (+${mb(r.growth)} MB)`;
  console.log(
    [
      `after warm-up: RSS ${mb(start)} MB`,
      line(`8 × ${CONTROL} MB (control)`, control8),
      line('8 × 100 MB', huge8),
      line(`16 × ${CONTROL} MB (control)`, control16),
      line('16 × 30 MB', huge16),
      line('32 × 30 MB, limit 1000 offset 5000', wide32),
    ].join('\n'),
  );
  // The runtime's fetch alone grows the process by ~50 MB for eight concurrent streams that keep
  // nothing (bench/README.md), so the bounds are that floor and the 64 MiB budget, with room for a
  // loaded machine.
  expect(huge8.growth).toBeLessThan(120 * MB);
  expect(huge16.growth).toBeLessThan(120 * MB);
  // Independent of the log's size: within 60 MB of what the 10 MB control needed.
  expect(huge8.growth - control8.growth).toBeLessThan(60 * MB);
  expect(huge16.growth - control16.growth).toBeLessThan(60 * MB);
  // Before the budget and the reused pages: +1,074 MB (issue 32); the budget's 64 MiB and the floor now.
  expect(wide32.growth).toBeLessThan(160 * MB);
  expect(Math.max(control8.peak, huge8.peak, control16.peak, huge16.peak, wide32.peak) - start).toBeLessThan(250 * MB);
  await session.close();
});
