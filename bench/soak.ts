// Soak: server RSS must stay flat over 100k tool calls on each lane (legacy: one 2025-06-18
// session; modern: 2026-07-28, no session) and over 10k legacy sessions created and deleted.
// Guards against a leak like SDK v1's, which kept an entry per JSON response on a session for
// ever, and against anything else that grows per call or per session.
// RSS moves with the garbage collector's timing (±15% between one reading and the next), and the
// legacy lane's heap takes 10k–20k calls to grow to its working size, so one reading against one
// other flips its verdict from run to run. So: a warm-up of a fifth of the run (20k calls, 2k
// sessions), then ten readings over the run, and the verdict on their trend: the least-squares
// line through them, its rise from the first reading to the last, relative to their mean, at most
// 20%. A leak rises every reading (the SDK v1 one: 70 → 587 MiB over 80k calls); GC noise does not.
//   bun run bench/soak.ts [--calls 100000] [--sessions 10000] [--concurrency 8]
import { parseArgs } from 'node:util';
import { SEED, TOKENS, startFakeForge } from '../test/support/fake-forge';
import { MODERN, McpHttp, rssMiB, runConcurrent, startServerProcess } from './lib';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '100000' }, sessions: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '8' } },
});
for (const name of ['calls', 'sessions', 'concurrency'] as const) {
  if (!/^[0-9]{1,7}$/.test(values[name]!) || Number(values[name]) < 1) {
    console.error(`--${name} must be a whole number of at least 1 (got ${JSON.stringify(values[name])})`);
    process.exit(2);
  }
}
const CALLS = Number(values.calls);
const SESSIONS = Number(values.sessions);
const C = Number(values.concurrency);
/** Most the trend may rise over the measured run, relative to the mean reading. */
const LIMIT = 0.2;
const READINGS = 10;
const args = { project_id: String(SEED.project), branch_name: 'main' };
const auth = { 'Private-Token': TOKENS.maintainer };

const forge = await startFakeForge({ record: false });
// startServerProcess sets MAX_REQUESTS_PER_MINUTE to 1,000,000 (the most it takes): the whole soak
// comes from one address and one token, at a few thousand messages a second, far below it.
const server = await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'branches', MAX_SESSIONS: String(SESSIONS + 100) });
let failed = false;

type Sample = [string, number];

/** Rise of the least-squares line through `ys` (taken at equal steps) from first to last, over their mean. */
function trend(ys: number[]): number {
  const n = ys.length;
  const meanX = (n - 1) / 2;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return den === 0 ? 0 : ((num / den) * (n - 1)) / meanY;
}

/** The verdict on the measured readings (those after `warm`). */
function report(name: string, warm: Sample[], measured: Sample[]) {
  const rise = trend(measured.map(([, rss]) => rss));
  const ok = rise <= LIMIT;
  failed ||= !ok;
  console.log(`\n${name}`);
  for (const [label, rss] of [...warm, ...measured]) console.log(`  ${label.padEnd(28)} RSS ${rss.toFixed(1)} MiB`);
  const first = measured[0][1];
  const last = measured.at(-1)![1];
  console.log(
    `  trend over the measured run: ${rise >= 0 ? '+' : ''}${(rise * 100).toFixed(1)}% (limit +${LIMIT * 100}%) → ${ok ? 'flat' : 'GROWING'}; last / first reading ${(last / first).toFixed(3)}`,
  );
}

/** A warm-up of `total / 5` units, then `total` in READINGS steps, RSS read after each; the verdict on those. */
async function phase(name: string, total: number, unit: string, run: (n: number) => Promise<unknown>) {
  const warm: Sample[] = [['start', rssMiB(server.pid)]];
  const warmUp = Math.max(1, Math.floor(total / 5));
  await run(warmUp);
  warm.push([`after ${warmUp} warm-up ${unit}`, rssMiB(server.pid)]);
  const measured: Sample[] = [];
  const step = Math.max(1, Math.floor(total / READINGS));
  const started = performance.now();
  for (let done = 0; done < total; done += step) {
    await run(Math.min(step, total - done));
    measured.push([`after ${Math.min(done + step, total)} ${unit}`, rssMiB(server.pid)]);
  }
  report(name, warm, measured);
  console.log(`  ${Math.round((total / (performance.now() - started)) * 1000)} ${unit}/s (measured)`);
}

try {
  // 1. Legacy lane: one session, many calls.
  const session = new McpHttp(server.url, auth);
  await session.initialize();
  await phase(`${CALLS} get_branch calls on the legacy lane, one session, concurrency ${C}`, CALLS, 'calls', (n) =>
    runConcurrent(n, C, () => session.callTool('get_branch', args)),
  );
  await session.close();

  // 2. Modern lane (2026-07-28): no session, every call self-contained.
  const modern = new McpHttp(server.url, auth, true);
  await phase(`${CALLS} get_branch calls on the modern lane (${MODERN}), concurrency ${C}`, CALLS, 'calls', (n) =>
    runConcurrent(n, C, () => modern.callTool('get_branch', args)),
  );

  // 3. Many legacy sessions: initialize + initialized + tools/list + call + DELETE each.
  const churn = async () => {
    const s = new McpHttp(server.url, auth);
    await s.initialize();
    await s.request('tools/list');
    await s.callTool('get_branch', args);
    await s.close();
  };
  await phase(`${SESSIONS} sessions created and deleted, concurrency ${C}`, SESSIONS, 'sessions', (n) => runConcurrent(n, C, churn));
} finally {
  await server.stop();
  await forge.stop();
}
process.exit(failed ? 1 : 0);
