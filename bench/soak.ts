// Soak: server RSS must stay flat (within 20% of the post-warm-up figure) over 100k tool calls on
// one session and over 10k sessions created and deleted. Guards against the SDK's JSON-response
// leak (stack-notes.md) and against anything else that grows per call or per session.
//   bun run bench/soak.ts [--calls 100000] [--sessions 10000] [--concurrency 8]
import { parseArgs } from 'node:util';
import { SEED, TOKENS, startFakeForge } from '../test/support/fake-forge';
import { McpHttp, rssMiB, runConcurrent, startServerProcess } from './lib';

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
}

try {
  // 1. One session, many calls.
  const session = new McpHttp(server.url, auth);
  await session.initialize();
  const callSamples: [string, number][] = [['start', rssMiB(server.pid)]];
  const warmCalls = Math.min(10_000, Math.floor(CALLS / 10));
  const step = Math.max(1, Math.floor(CALLS / 5));
  await runConcurrent(warmCalls, C, () => session.callTool('get_branch', args));
  Bun.gc(true);
  callSamples.push([`after ${warmCalls} warm-up calls`, rssMiB(server.pid)]);
  for (let done = 0; done < CALLS; done += step) {
    await runConcurrent(Math.min(step, CALLS - done), C, () => session.callTool('get_branch', args));
    callSamples.push([`after ${Math.min(done + step, CALLS)} calls`, rssMiB(server.pid)]);
  }
  await session.close();
  report(`${CALLS} get_branch calls on one session, concurrency ${C}`, callSamples);

  // 2. Many sessions: initialize + initialized + tools/list + call + DELETE each.
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
