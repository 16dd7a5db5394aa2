// Soak: server RSS must stay flat (within 20% of the post-warm-up figure) over 100k tool calls on
// each lane (legacy: one 2025-06-18 session; modern: 2026-07-28, no session) and over 10k legacy
// sessions created and deleted. Guards against the SDK's JSON-response
// leak (stack-notes.md) and against anything else that grows per call or per session.
//   bun run bench/soak.ts [--calls 100000] [--sessions 10000] [--concurrency 8]
import { parseArgs } from 'node:util';
import { SEED, TOKENS, startFakeForge } from '../test/support/fake-forge';
import { MODERN, McpHttp, rssMiB, runConcurrent, startServerProcess } from './lib';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '100000' }, sessions: { type: 'string', default: '10000' }, concurrency: { type: 'string', default: '8' } },
});
const CALLS = Number(values.calls);
const SESSIONS = Number(values.sessions);
const C = Number(values.concurrency);
const LIMIT = 1.2;
const args = { project_id: String(SEED.project), branch_name: 'main' };
const auth = { 'Private-Token': TOKENS.maintainer };

const forge = await startFakeForge({ record: false });
// startServerProcess sets MAX_REQUESTS_PER_MINUTE to 1,000,000 (the most it takes): the whole soak
// comes from one address and one token, at a few thousand messages a second, far below it.
const server = await startServerProcess({ FORGE_API_URL: forge.apiUrl, MAX_SESSIONS: String(SESSIONS + 100) });
let failed = false;

function report(name: string, samples: [string, number][]) {
  const warm = samples[1][1];
  const last = samples.at(-1)![1];
  const ratio = last / warm;
  const ok = ratio <= LIMIT;
  failed ||= !ok;
  console.log(`\n${name}`);
  for (const [label, rss] of samples) console.log(`  ${label.padEnd(28)} RSS ${rss.toFixed(1)} MiB`);
  console.log(`  final / post-warm-up = ${ratio.toFixed(3)} (limit ${LIMIT}) → ${ok ? 'flat' : 'GROWING'}`);
  // Said beside the verdict, which it does not change: whether the growth went on after the first
  // fifth, or was a heap settling to its working size once.
  if (samples.length > 3) console.log(`  final / after the first fifth = ${(last / samples[2][1]).toFixed(3)} (for reading only)`);
}

/** `CALLS` get_branch calls through one client, RSS sampled after the warm-up and each fifth. */
async function callsPhase(name: string, client: McpHttp) {
  const started = performance.now();
  const samples: [string, number][] = [['start', rssMiB(server.pid)]];
  const warmCalls = Math.min(10_000, Math.floor(CALLS / 10));
  const step = Math.max(1, Math.floor(CALLS / 5));
  await runConcurrent(warmCalls, C, () => client.callTool('get_branch', args));
  Bun.gc(true);
  samples.push([`after ${warmCalls} warm-up calls`, rssMiB(server.pid)]);
  for (let done = 0; done < CALLS; done += step) {
    await runConcurrent(Math.min(step, CALLS - done), C, () => client.callTool('get_branch', args));
    samples.push([`after ${Math.min(done + step, CALLS)} calls`, rssMiB(server.pid)]);
  }
  report(name, samples);
  console.log(`  ${Math.round(((CALLS + warmCalls) / (performance.now() - started)) * 1000)} calls/s`);
}

try {
  // 1. Legacy lane: one session, many calls.
  const session = new McpHttp(server.url, auth);
  await session.initialize();
  await callsPhase(`${CALLS} get_branch calls on the legacy lane, one session, concurrency ${C}`, session);
  await session.close();

  // 2. Modern lane (2026-07-28): no session, every call self-contained.
  await callsPhase(`${CALLS} get_branch calls on the modern lane (${MODERN}), concurrency ${C}`, new McpHttp(server.url, auth, true));

  // 3. Many legacy sessions: initialize + initialized + tools/list + call + DELETE each.
  const churn = async () => {
    const s = new McpHttp(server.url, auth);
    await s.initialize();
    await s.request('tools/list');
    await s.callTool('get_branch', args);
    await s.close();
  };
  const sessionSamples: [string, number][] = [['start', rssMiB(server.pid)]];
  const warmSessions = Math.min(1000, Math.floor(SESSIONS / 10));
  const sessionStep = Math.max(1, Math.floor(SESSIONS / 5));
  await runConcurrent(warmSessions, C, churn);
  sessionSamples.push([`after ${warmSessions} warm-up sessions`, rssMiB(server.pid)]);
  for (let done = 0; done < SESSIONS; done += sessionStep) {
    await runConcurrent(Math.min(sessionStep, SESSIONS - done), C, churn);
    sessionSamples.push([`after ${Math.min(done + sessionStep, SESSIONS)} sessions`, rssMiB(server.pid)]);
  }
  report(`${SESSIONS} sessions created and deleted, concurrency ${C}`, sessionSamples);
} finally {
  await server.stop();
  await forge.stop();
}
process.exit(failed ? 1 : 0);
