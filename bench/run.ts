// Every benchmark figure in one run, each beside a direct call to the same fake forge measured in
// the same run (the figures are ratios, so the machine's speed cancels out). Drives the servers with
// the shared load driver (../../shared/bench/mcp-load.mjs) and prints a Markdown table.
//   bun run bench [--tool get_issue] [-n 5000] [-c 8] [--repeat 3]
// Processes: the fake forge, a stateful server, a stateless server, and (for cold start) the
// compiled binary dist/forge-mcp when it exists (`bun run build`).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SEED, TOKENS } from '../test/support/fake-forge';
import { freePort, rssMiB, startServerProcess } from './lib';

const DRIVER = resolve(import.meta.dir, '../../shared/bench/mcp-load.mjs');
const BINARY = resolve(import.meta.dir, '../dist/forge-mcp');
const { values } = parseArgs({
  options: {
    tool: { type: 'string', default: 'get_issue' },
    n: { type: 'string', short: 'n', default: '5000' },
    c: { type: 'string', short: 'c', default: '8' },
    repeat: { type: 'string', default: '5' },
    churn: { type: 'string', default: '1000' },
  },
});
if (!existsSync(DRIVER)) {
  console.error(`load driver not found at ${DRIVER} (it lives in the shared folder beside this repository)`);
  process.exit(2);
}

const P = String(SEED.project);
const TOOLS: Record<string, { args: Record<string, unknown>; direct: string }> = {
  get_issue: { args: { project_id: P, issue_iid: '1' }, direct: `/projects/${P}/issues/1` },
  get_branch: { args: { project_id: P, branch_name: 'main' }, direct: `/projects/${P}/repository/branches/main` },
  list_branches: { args: { project_id: P }, direct: `/projects/${P}/repository/branches` },
};
const tool = TOOLS[values.tool!];
if (!tool) throw new Error(`no arguments known for ${values.tool}`);
const SECRET = Buffer.alloc(32, 5).toString('base64url');

async function startForge() {
  const port = freePort();
  const proc = Bun.spawn(['bun', 'run', resolve(import.meta.dir, '../test/support/fake-forge/serve.ts'), '--port', String(port)], { stdout: 'ignore', stderr: 'inherit' });
  const apiUrl = `http://127.0.0.1:${port}/api/v4`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${apiUrl}/user`, { headers: { 'Private-Token': TOKENS.maintainer } })).ok) break;
    } catch {
      if (i > 500) throw new Error('fake forge did not start');
      await Bun.sleep(20);
    }
  }
  return { apiUrl, pid: proc.pid, stop: async () => (proc.kill('SIGTERM'), await proc.exited) };
}

type Summary = { median: Record<string, number>; runs: Record<string, any>[] } & Record<string, unknown>;

async function drive(mode: string, extra: string[], repeat = values.repeat!): Promise<Summary> {
  const args = ['node', DRIVER, '--mode', mode, '-c', values.c!, '--repeat', repeat, '--json', '--token', TOKENS.maintainer, ...extra];
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'inherit' });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`driver failed (${mode}): ${out}`);
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  const last = lines.at(-1);
  const runs = lines.filter((l) => l.repeat !== undefined);
  return last.median ? { ...last, runs } : { ...last, median: last, runs };
}

const forge = await startForge();
const stateful = await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_SESSIONS: '100000' });
const stateless = await startServerProcess({ FORGE_API_URL: forge.apiUrl, OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET });
const rows: string[][] = [];
const row = (figure: string, value: string, target: string, note = '') => rows.push([figure, value, target, note]);
const toolArgs = ['--tool', values.tool!, '--args', JSON.stringify(tool.args), '-n', values.n!];

try {
  const idle = rssMiB(stateful.pid);
  const list = await drive('list', ['--url', `${stateful.url}/mcp`], '1');
  // Interleaved rounds (direct, stateful, stateless) so drift in the machine's speed hits all three
  // alike; each figure is the median over rounds, and ratios are taken within a round.
  const rounds: { d: Summary; c: Summary; s: Summary }[] = [];
  for (let i = 0; i < Number(values.repeat); i++) {
    const d = await drive('direct', ['--url', `${stateful.url}/mcp`, '--direct-url', `${forge.apiUrl}${tool.direct}`, '-n', values.n!, '--pid', String(forge.pid)], '1');
    const c = await drive('call', ['--url', `${stateful.url}/mcp`, ...toolArgs, '--pid', String(stateful.pid)], '1');
    const s = await drive('call', ['--url', `${stateless.url}/mcp`, ...toolArgs, '--pid', String(stateless.pid)], '1');
    rounds.push({ d, c, s });
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const pick = (which: 'd' | 'c' | 's', key: string) => med(rounds.map((r) => r[which].median[key]));
  const ratio = (a: 'c' | 's', b: 'd' | 'c') => Math.round(med(rounds.map((r) => r[a].median.rps / r[b].median.rps)) * 100);
  const churn = await drive('churn', ['--url', `${stateful.url}/mcp`, ...toolArgs.slice(0, 4), '-n', values.churn!, '--pid', String(stateful.pid)]);
  let cold: Summary | undefined;
  if (existsSync(BINARY)) {
    const port = freePort();
    const spawn = `env STREAMABLE_HTTP=true REMOTE_AUTHORIZATION=true PORT=${port} LOG_LEVEL=warn FORGE_API_URL=${forge.apiUrl} ${BINARY}`;
    cold = await drive('cold', ['--url', `http://127.0.0.1:${port}/mcp`, '--spawn', spawn], '5');
  }

  const rounds_ = `median of ${rounds.length} interleaved rounds of ${values.n} requests`;
  row('direct upstream (same fake forge)', `${pick('d', 'rps')} req/s, p50 ${pick('d', 'p50')} ms, p99 ${pick('d', 'p99')} ms`, 'baseline', rounds_);
  row(`server CPU per ${values.tool} call, one session, c=${values.c}`, `${pick('c', 'serverCpuMsPerOp')} ms`, '≤ 0.3 ms', `fake forge CPU per direct call: ${pick('d', 'serverCpuMsPerOp')} ms`);
  row(`throughput, ${values.tool}, c=${values.c}`, `${pick('c', 'rps')} req/s (${ratio('c', 'd')}% of direct), p50 ${pick('c', 'p50')} ms, p99 ${pick('c', 'p99')} ms`, '≥ 50% of direct', `per-round ratios: ${rounds.map((r) => Math.round((r.c.median.rps / r.d.median.rps) * 100)).join(', ')}%`);
  row('stateless throughput', `${pick('s', 'rps')} req/s (${ratio('s', 'c')}% of stateful), CPU ${pick('s', 'serverCpuMsPerOp')} ms/call`, '≥ 90% of stateful', `per-round ratios: ${rounds.map((r) => Math.round((r.s.median.rps / r.c.median.rps) * 100)).join(', ')}%`);
  row('new session (initialize + initialized + tools/list + call + DELETE)', `${churn.median.serverCpuMsPerOp} ms server CPU, ${churn.median.rps} sessions/s`, '≤ 1.5 ms');
  row('start to first initialize, compiled binary', cold ? `${cold.median.coldStartMs} ms` : 'not measured (run `bun run build` first)', '≤ 150 ms');
  const binaryRss = cold?.runs.map((r) => r.rssAfterReady?.rssMiB).filter((v) => typeof v === 'number');
  row(
    'RSS idle',
    binaryRss?.length ? `compiled binary after first initialize: ${binaryRss.join(', ')} MiB` : 'compiled binary: not measured',
    '≤ 60 MiB',
    `bun run src/index.ts after start: ${idle} MiB`,
  );
  row(`tools/list, all groups (${list.median.tools ?? (list as Record<string, any>).tools} tools)`, `${(list as Record<string, any>).resultBytes ?? list.median.resultBytes} bytes`, '≤ 32 KB');
  console.log('| figure | measured | target | note |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  await stateful.stop();
  await stateless.stop();
  await forge.stop();
}
