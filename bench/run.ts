// Every benchmark figure in one run, each beside the floor and a direct call to the same fake forge
// measured in the same run (the figures are ratios, so the machine's speed cancels out). Drives the
// servers with the shared load driver (../../shared/bench/mcp-load.mjs) and prints Markdown tables.
//   bun run bench [--tool get_issue] [-n 5000] [-c 8] [--repeat 5] [--prewarm 1] [--prewarm-max 8] [--churn 1000]
//                 [--lanes-only]
//                 [--audit] [--issue17-base <commit>] [--traced]
// BENCH_SHARED_DIR names the folder of the shared driver and floor when this checkout is not beside
// ../shared (a worktree elsewhere).
// Processes: the fake forge; the floor (../../shared/bench/floor-proxy.ts: the least work any Bun
// MCP server must do for get_issue, no SDK); a stateful server for the legacy lane (one 2025-06-18
// session), the same settings again in a process of its own for the modern lane (2026-07-28, no
// session), a stateless server (legacy lane, sealed session ids), each measured path in its own
// process as the floor and the SDK v1 build are (one lane's garbage, collected later, would
// otherwise be counted in the other lane's round); and, for cold start, the compiled binary
// dist/forge-mcp when it exists (`bun run build`).
// Each round measures direct, floor, modern, legacy session and legacy stateless, in an order that
// rotates from round to round, so drift in the machine's speed hits all alike; ratios to the floor
// are taken within a round and the figures are medians over rounds, with the range over rounds.
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TOOL_GROUPS } from '../src/tools/groups';
import { SEED, TOKENS } from '../test/support/fake-forge';
import { MODERN, cpuMs, freePort, jitMsByThread, jitMsSince, rssMiB, startServerProcess } from './lib';

const SHARED = process.env.BENCH_SHARED_DIR ?? resolve(import.meta.dir, '../../shared/bench');
const DRIVER = resolve(SHARED, 'mcp-load.mjs');
const FLOOR = resolve(SHARED, 'floor-proxy.ts');
const BINARY = resolve(import.meta.dir, '../dist/forge-mcp');
const { values } = parseArgs({
  options: {
    tool: { type: 'string', default: 'get_issue' },
    n: { type: 'string', short: 'n', default: '5000' },
    c: { type: 'string', short: 'c', default: '8' },
    repeat: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '500' },
    // Whole rounds run first and not counted: every server JIT-compiles and grows its heap to its
    // working size in them. At least --prewarm of them, then more, up to --prewarm-max, until each
    // server has had an uncounted round in which its JIT compiler threads used at most 2% of its
    // CPU: this server's compiler is still busy in its second and third rounds (~15–20% of its CPU,
    // then 5–10%), the floor's, a few lines, never is; counted before its first compiling is over,
    // a one-time cost would be read as a per-call one.
    prewarm: { type: 'string', default: '1' },
    'prewarm-max': { type: 'string', default: '8' },
    churn: { type: 'string', default: '1000' },
    // The last commit on SDK v1, measured in the same run as "before" for the legacy lane's "no
    // slower than before" (its src/ from `git archive`, run with this checkout's node_modules, which
    // still hold @modelcontextprotocol/sdk 1.32.2 as a dev dependency). --before '' skips it.
    before: { type: 'string', default: '14ad5cc' },
    // Issue 17's cost: the modern lane again with every call's audit line appended to a file
    // (AUDIT_LOG_PATH), and the modern lane of this commit (the last before issue 17's lean results,
    // policy, sanitising and audit), each in its own process in the same rounds. '' skips them.
    'issue17-base': { type: 'string', default: '' },
    audit: { type: 'boolean', default: false },
    // D46's cost when on: the modern lane again with tracing on at the default sampling (every call
    // traced), exporting over OTLP/HTTP to a sink in this process that reads and drops each batch.
    traced: { type: 'boolean', default: false },
    // With --traced: the traced server samples this ratio of requests without a traceparent
    // (parentbased_traceidratio) instead of every one.
    'trace-ratio': { type: 'string', default: '' },
    // Only the per-lane rounds and the new session (no cold start, RSS or tools/list size).
    'lanes-only': { type: 'boolean', default: false },
  },
});
// Counts must be whole numbers (at least 1, --warmup and --prewarm at least 0), or the run would
// divide by nothing or silently skip its rounds.
for (const [name, least] of [
  ['n', 1],
  ['c', 1],
  ['repeat', 1],
  ['churn', 1],
  ['warmup', 0],
  ['prewarm', 0],
  ['prewarm-max', 0],
] as const) {
  const value = values[name] as string;
  if (!/^[0-9]{1,7}$/.test(value) || Number(value) < least) {
    console.error(`--${name} must be a whole number of at least ${least} (got ${JSON.stringify(value)})`);
    process.exit(2);
  }
}
for (const [what, path] of [
  ['load driver', DRIVER],
  ['floor proxy', FLOOR],
]) {
  if (!existsSync(path)) {
    console.error(`${what} not found at ${path} (it lives in the shared folder beside this repository)`);
    process.exit(2);
  }
}

const P = String(SEED.project);
const TOOLS: Record<string, { args: Record<string, unknown>; direct: string }> = {
  get_issue: { args: { project_id: P, issue_iid: '1' }, direct: `/projects/${P}/issues/1` },
  get_branch: { args: { project_id: P, branch_name: 'main' }, direct: `/projects/${P}/repository/branches/main` },
  list_branches: { args: { project_id: P }, direct: `/projects/${P}/repository/branches` },
};
const tool = TOOLS[values.tool!];
if (!tool) throw new Error(`no arguments known for ${values.tool}`);
// The floor proxy only knows get_issue (it always GETs /projects/:id/issues/:iid).
const withFloor = values.tool === 'get_issue';
const SECRET = Buffer.alloc(32, 5).toString('base64url');

async function waitFor(url: string, init: RequestInit, what: string) {
  for (let i = 0; ; i++) {
    try {
      const response = await fetch(url, init);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (i > 500) throw new Error(`${what} did not start`);
    await Bun.sleep(20);
  }
}

async function startForge() {
  const port = freePort();
  const proc = Bun.spawn(['bun', 'run', resolve(import.meta.dir, '../test/support/fake-forge/serve.ts'), '--port', String(port)], {
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const apiUrl = `http://127.0.0.1:${port}/api/v4`;
  await waitFor(`${apiUrl}/user`, { headers: { 'Private-Token': TOKENS.maintainer } }, 'fake forge');
  return { apiUrl, pid: proc.pid, stop: async () => (proc.kill('SIGTERM'), await proc.exited) };
}

async function startFloor(upstream: string) {
  const port = freePort();
  const proc = Bun.spawn(['bun', FLOOR, '--port', String(port), '--upstream', upstream], { stdout: 'ignore', stderr: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/mcp`, { method: 'DELETE' }, 'floor proxy');
  // The floor answers whatever the upstream said: check it is the issue, not a 404 body.
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': TOKENS.maintainer },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_issue', arguments: tool!.args } }),
  });
  const body = (await response.json()) as { result?: { structuredContent?: { iid?: number } } };
  if (body.result?.structuredContent?.iid !== 1) throw new Error(`floor proxy does not reach the issue: ${JSON.stringify(body).slice(0, 300)}`);
  return { url, pid: proc.pid, stop: async () => (proc.kill('SIGTERM'), await proc.exited) };
}

/** The source tree of `commit` in a temporary folder, runnable with this checkout's node_modules. */
function checkoutBefore(commit: string | undefined): string | undefined {
  if (!commit) return undefined;
  const repo = resolve(import.meta.dir, '..');
  const rev = Bun.spawnSync(['git', '-C', repo, 'rev-parse', '--short', `${commit}^{commit}`]);
  if (rev.exitCode !== 0) return void console.error(`--before ${commit}: no such commit; the legacy lane is judged without it`);
  const dir = resolve(tmpdir(), `forge-bench-before-${rev.stdout.toString().trim()}`);
  if (!existsSync(resolve(dir, 'src/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const archive = Bun.spawnSync(['sh', '-c', `git -C '${repo}' archive '${commit}' src package.json tsconfig.json | tar -x -C '${dir}'`]);
    if (archive.exitCode !== 0) return void console.error(`--before ${commit}: git archive failed: ${archive.stderr}`);
  }
  // The link is this checkout's: one left by a checkout since removed dangles, and is replaced.
  const modules = resolve(dir, 'node_modules');
  if (!existsSync(modules)) {
    rmSync(modules, { force: true });
    symlinkSync(resolve(repo, 'node_modules'), modules);
  }
  return resolve(dir, 'src/index.ts');
}

type Summary = { median: Record<string, number>; runs: Record<string, any>[] } & Record<string, unknown>;

async function drive(mode: string, extra: string[], repeat = '1'): Promise<Summary> {
  const args = ['node', DRIVER, '--mode', mode, '-c', values.c!, '--repeat', repeat, '--json', '--token', TOKENS.maintainer, ...extra];
  // The driver rounds CPU per call to 0.01 ms, too coarse for ratios near 1.3 at ~0.1 ms a call: for
  // call and direct runs the server's CPU is read here over the whole run (warm-up included) instead.
  const pidAt = extra.indexOf('--pid');
  const pid = pidAt >= 0 && (mode === 'call' || mode === 'direct') ? Number(extra[pidAt + 1]) : undefined;
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const jitBefore = pid ? jitMsByThread(pid) : undefined;
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'inherit' });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`driver failed (${mode}): ${out}`);
  const cpuUsed = pid ? cpuMs(pid) - cpuBefore : 0;
  const jitUsed = pid && jitBefore ? jitMsSince(pid, jitBefore) : 0;
  const lines = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const last = lines.at(-1);
  const runs = lines.filter((l) => l.repeat !== undefined);
  const errors = runs.reduce((sum, r) => sum + (r.errors ?? 0), 0);
  if (errors) console.error(`warning: ${errors} failed requests (${mode} ${extra.join(' ')}): ${JSON.stringify(runs.map((r) => r.errorKinds))}`);
  const summary: Summary = last.median ? { ...last, runs } : { ...last, median: { ...last }, runs };
  if (pid) {
    const ops = (Number(values.n) + Number(values.warmup)) * Number(repeat);
    summary.median.serverCpuMsPerOp = cpuUsed / ops;
    // Already inside serverCpuMsPerOp: shown beside it, and what ends the warm-up.
    summary.median.jitCpuMsPerOp = jitUsed / ops;
  }
  return summary;
}

const forge = await startForge();
const floor = withFloor ? await startFloor(forge.apiUrl) : undefined;
const stateful = await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_SESSIONS: '100000' });
const modern = await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_SESSIONS: '100000' });
const stateless = await startServerProcess({
  FORGE_API_URL: forge.apiUrl,
  FORGE_TOOLSETS: 'all',
  OAUTH_STATELESS_MODE: 'true',
  OAUTH_STATELESS_SECRET: SECRET,
});
const beforeEntry = values.before ? checkoutBefore(values.before) : undefined;
const before = beforeEntry
  ? await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_SESSIONS: '100000' }, ['bun', 'run', beforeEntry])
  : undefined;
const beforeStateless = beforeEntry
  ? await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET }, [
      'bun',
      'run',
      beforeEntry,
    ])
  : undefined;
const auditFile = resolve(tmpdir(), `forge-bench-audit-${process.pid}.jsonl`);
const audited = values.audit
  ? await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_SESSIONS: '100000', AUDIT_LOG_PATH: auditFile })
  : undefined;
// An OTLP/HTTP receiver that reads each batch and answers as a collector does.
const sink = values.traced
  ? Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: async (request) => {
        await request.arrayBuffer();
        return Response.json({ partialSuccess: {} });
      },
    })
  : undefined;
const traced = sink
  ? await startServerProcess({
      FORGE_API_URL: forge.apiUrl,
      FORGE_TOOLSETS: 'all',
      MAX_SESSIONS: '100000',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`,
      ...(values['trace-ratio'] ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: values['trace-ratio'] } : {}),
    })
  : undefined;
const baseEntry = checkoutBefore(values['issue17-base']);
const base17 = baseEntry
  ? await startServerProcess({ FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_SESSIONS: '100000' }, ['bun', 'run', baseEntry])
  : undefined;
const toolArgs = ['--tool', values.tool!, '--args', JSON.stringify(tool.args), '-n', values.n!, '--warmup', values.warmup!];

type Kind = 'direct' | 'floor' | 'modern' | 'legacy' | 'stateless' | 'before' | 'beforeStateless' | 'audited' | 'base17' | 'traced';
const KINDS: { kind: Kind; label: string; run: () => Promise<Summary> }[] = [
  {
    kind: 'direct',
    label: 'direct upstream call (same fake forge)',
    run: () => drive('direct', ['--direct-url', `${forge.apiUrl}${tool.direct}`, '-n', values.n!, '--warmup', values.warmup!, '--pid', String(forge.pid)]),
  },
  // The floor is driven with the modern request (envelope and headers), the same bytes the modern lane gets.
  ...(floor
    ? [
        {
          kind: 'floor' as Kind,
          label: 'floor (floor-proxy.ts)',
          run: () => drive('call', ['--url', `${floor.url}/mcp`, '--protocol-version', MODERN, ...toolArgs, '--pid', String(floor.pid)]),
        },
      ]
    : []),
  {
    kind: 'modern',
    label: `modern lane (${MODERN}, no session)`,
    run: () => drive('call', ['--url', `${modern.url}/mcp`, '--protocol-version', MODERN, ...toolArgs, '--pid', String(modern.pid)]),
  },
  ...(audited
    ? [
        {
          kind: 'audited' as Kind,
          label: 'modern lane, every call audited to AUDIT_LOG_PATH',
          run: () => drive('call', ['--url', `${audited.url}/mcp`, '--protocol-version', MODERN, ...toolArgs, '--pid', String(audited.pid)]),
        },
      ]
    : []),
  ...(traced
    ? [
        {
          kind: 'traced' as Kind,
          label: values['trace-ratio']
            ? `modern lane, traced (OTLP/HTTP, ratio ${values['trace-ratio']})`
            : 'modern lane, traced (OTLP/HTTP, default sampling: every call)',
          run: () => drive('call', ['--url', `${traced.url}/mcp`, '--protocol-version', MODERN, ...toolArgs, '--pid', String(traced.pid)]),
        },
      ]
    : []),
  ...(base17
    ? [
        {
          kind: 'base17' as Kind,
          label: `modern lane at ${values['issue17-base']} (before issue 17)`,
          run: () => drive('call', ['--url', `${base17.url}/mcp`, '--protocol-version', MODERN, ...toolArgs, '--pid', String(base17.pid)]),
        },
      ]
    : []),
  {
    kind: 'legacy',
    label: 'legacy lane, one session (2025-06-18, stateful)',
    run: () => drive('call', ['--url', `${stateful.url}/mcp`, ...toolArgs, '--pid', String(stateful.pid)]),
  },
  {
    kind: 'stateless',
    label: 'legacy lane, stateless mode (sealed session id)',
    run: () => drive('call', ['--url', `${stateless.url}/mcp`, ...toolArgs, '--pid', String(stateless.pid)]),
  },
  ...(before && beforeStateless
    ? [
        {
          kind: 'before' as Kind,
          label: `before (${values.before}, SDK v1): one session`,
          run: () => drive('call', ['--url', `${before.url}/mcp`, ...toolArgs, '--pid', String(before.pid)]),
        },
        {
          kind: 'beforeStateless' as Kind,
          label: `before (${values.before}, SDK v1): stateless mode`,
          run: () => drive('call', ['--url', `${beforeStateless.url}/mcp`, ...toolArgs, '--pid', String(beforeStateless.pid)]),
        },
      ]
    : []),
];

const r2 = (x: number) => Math.round(x * 100) / 100;
const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs: number[], digits = 2) => {
  const f = (x: number) => x.toFixed(digits);
  return `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
};
const pct = (x: number) => `${Math.round(x * 100)}%`;
/** A server's JIT compiler has settled when its threads used at most this share of its CPU in a round. */
const JIT_SETTLED = 0.02;
const pctRange = (xs: number[]) => `${Math.round(Math.min(...xs) * 100)}–${Math.round(Math.max(...xs) * 100)}%`;
const table = (head: string[], rows: string[][]) => {
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
};

try {
  const idle = rssMiB(stateful.pid);
  const list = values['lanes-only'] ? undefined : await drive('list', ['--url', `${stateful.url}/mcp`]);
  // Uncounted rounds: at least --prewarm, then until every server's JIT compiler has settled, that
  // is, has had one round at ≤ JIT_SETTLED of its CPU. Once is enough: later rounds see the compiler
  // come back now and then (recompiling, 0–10% of a round), which belongs to the steady state.
  let prewarmed = 0;
  const unsettled = new Set<Kind>(KINDS.map(({ kind }) => kind).filter((kind) => kind !== 'direct'));
  while (prewarmed < Math.max(Number(values.prewarm), Number(values['prewarm-max'])) && !(prewarmed >= Number(values.prewarm) && unsettled.size === 0)) {
    const busy: string[] = [];
    for (const { kind, run } of KINDS) {
      const { median } = await run();
      const share = median.jitCpuMsPerOp / median.serverCpuMsPerOp;
      if (!unsettled.has(kind)) continue;
      if (share <= JIT_SETTLED) unsettled.delete(kind);
      else busy.push(`${kind} ${pct(share)}`);
    }
    prewarmed++;
    process.stderr.write(
      `prewarm round ${prewarmed} done (not counted): ${busy.length === 0 ? 'every JIT compiler has settled' : `JIT compiler still busy in ${busy.join(', ')}`}\n`,
    );
  }
  const settled = unsettled.size === 0;
  if (!settled)
    console.error(`warning: after ${prewarmed} uncounted rounds some JIT compiler had not settled; counted rounds include compile time (--prewarm-max)`);
  const rounds: Record<Kind, Summary>[] = [];
  for (let i = 0; i < Number(values.repeat); i++) {
    const round = {} as Record<Kind, Summary>;
    for (let k = 0; k < KINDS.length; k++) {
      const { kind, run } = KINDS[(i + k) % KINDS.length];
      round[kind] = await run();
    }
    rounds.push(round);
    process.stderr.write(
      `round ${i + 1}/${values.repeat}: ${KINDS.map(({ kind }) => `${kind} ${round[kind].median.rps} req/s ${round[kind].median.serverCpuMsPerOp.toFixed(3)} ms`).join(', ')}\n`,
    );
  }
  const series = (kind: Kind, key: string) => rounds.map((r) => r[kind].median[key]);
  const ratios = (kind: Kind, base: Kind, key: string) => rounds.map((r) => r[kind].median[key] / r[base].median[key]);
  const churn = await drive(
    'churn',
    ['--url', `${stateful.url}/mcp`, ...toolArgs.slice(0, 4), '-n', values.churn!, '--warmup', '50', '--pid', String(stateful.pid)],
    '3',
  );
  const churnCpu = churn.runs.map((r) => r.serverCpuMsPerOp as number);
  const churnBefore = before
    ? await drive('churn', ['--url', `${before.url}/mcp`, ...toolArgs.slice(0, 4), '-n', values.churn!, '--warmup', '50', '--pid', String(before.pid)], '3')
    : undefined;
  const churnBeforeCpu = churnBefore?.runs.map((r) => r.serverCpuMsPerOp as number);

  console.log(
    `\n${values.tool} at concurrency ${values.c}, ${rounds.length} interleaved rounds of ${values.n} requests (after ${values.warmup} warm-up) per row, after ${prewarmed} uncounted round(s) of the same (at least ${values.prewarm}, then until each server's JIT compiler threads had a round at ≤ ${pct(JIT_SETTLED)} of its CPU: ${settled ? 'each had' : 'not each had'}); median over rounds, range over rounds in brackets.\n`,
  );
  const base: Kind = floor ? 'floor' : 'direct';
  table(
    ['path', 'req/s', `% of ${base}'s rate`, 'p50 ms', 'p99 ms', 'server CPU ms/call', 'of it JIT compiler', `× ${base}'s CPU`],
    KINDS.map(({ kind, label }) => [
      label,
      `${r2(med(series(kind, 'rps')))} (${range(series(kind, 'rps'), 0)})`,
      kind === base ? '100%' : `${pct(med(ratios(kind, base, 'rps')))} (${pctRange(ratios(kind, base, 'rps'))})`,
      `${r2(med(series(kind, 'p50')))} (${range(series(kind, 'p50'))})`,
      `${r2(med(series(kind, 'p99')))} (${range(series(kind, 'p99'))})`,
      `${med(series(kind, 'serverCpuMsPerOp')).toFixed(3)} (${range(series(kind, 'serverCpuMsPerOp'), 3)})${kind === 'direct' ? ' (fake forge)' : ''}`,
      `${med(series(kind, 'jitCpuMsPerOp')).toFixed(3)} (${range(series(kind, 'jitCpuMsPerOp'), 3)})`,
      kind === base || kind === 'direct' ? '' : `${r2(med(ratios(kind, base, 'serverCpuMsPerOp')))}× (${range(ratios(kind, base, 'serverCpuMsPerOp'))})`,
    ]),
  );

  // The targets of issue 14 (and the earlier ones, kept).
  const targets: string[][] = [];
  const target = (figure: string, value: string, goal: string, met: boolean | undefined, note = '') =>
    targets.push([figure, value, goal, met === undefined ? 'not measured' : met ? 'met' : '**not met**', note]);
  if (floor) {
    const mRate = med(ratios('modern', 'floor', 'rps'));
    const mCpu = med(ratios('modern', 'floor', 'serverCpuMsPerOp'));
    target('modern lane rate', `${pct(mRate)} of the floor's (${pctRange(ratios('modern', 'floor', 'rps'))})`, '≥ 90% of the floor', mRate >= 0.9);
    target(
      'modern lane server CPU per call',
      `${med(series('modern', 'serverCpuMsPerOp')).toFixed(3)} ms = ${r2(mCpu)}× the floor's ${med(series('floor', 'serverCpuMsPerOp')).toFixed(3)} ms (${range(ratios('modern', 'floor', 'serverCpuMsPerOp'))}×)`,
      '≤ 1.3× the floor',
      mCpu <= 1.3,
    );
  }
  if (audited) {
    const r = med(ratios('audited', 'modern', 'serverCpuMsPerOp'));
    target(
      'audit lines to a file (D35): modern CPU per call',
      `${med(series('audited', 'serverCpuMsPerOp')).toFixed(3)} ms = ${r2(r)}× the modern lane's without (${range(ratios('audited', 'modern', 'serverCpuMsPerOp'))})`,
      '≤ 1.1× (issue 17)',
      r <= 1.1,
    );
  }
  if (traced) {
    const r = med(ratios('traced', 'modern', 'serverCpuMsPerOp'));
    target(
      `tracing on (D46): modern CPU per call, ${values['trace-ratio'] ? `ratio ${values['trace-ratio']} traced` : 'every call traced'}`,
      `${med(series('traced', 'serverCpuMsPerOp')).toFixed(3)} ms = ${r2(r)}× the modern lane's untraced (${range(ratios('traced', 'modern', 'serverCpuMsPerOp'))})`,
      '≤ 1.1× (issue 40)',
      r <= 1.1,
    );
  }
  if (base17) {
    const against = audited ? 'audited' : 'modern';
    const r = med(ratios(against, 'base17', 'serverCpuMsPerOp'));
    target(
      `lean results, policy, sanitising${audited ? ' and audit' : ''} (issue 17): modern CPU per call`,
      `${med(series(against, 'serverCpuMsPerOp')).toFixed(3)} ms = ${r2(r)}× the modern lane at ${values['issue17-base']} (${range(ratios(against, 'base17', 'serverCpuMsPerOp'))})`,
      '≤ 1.1× (issue 17)',
      r <= 1.1,
    );
  }
  // Legacy: no slower than before. Judged against the SDK v1 build measured in this run when there
  // is one (CPU within 5% of it, rate at least 95% of it), else against the issue's figure.
  for (const [kind, was] of [
    ['legacy', 'before'],
    ['stateless', 'beforeStateless'],
  ] as const) {
    const cpu = med(series(kind, 'serverCpuMsPerOp'));
    const name = `${kind === 'legacy' ? 'legacy lane, one session' : 'legacy lane, stateless mode'}: CPU per call and rate`;
    const vsFloor = floor
      ? `; ${r2(med(ratios(kind, 'floor', 'serverCpuMsPerOp')))}× the floor's CPU, ${pct(med(ratios(kind, 'floor', 'rps')))} of its rate`
      : '';
    if (before) {
      const cpuRatio = med(ratios(kind, was, 'serverCpuMsPerOp'));
      const rateRatio = med(ratios(kind, was, 'rps'));
      target(
        name,
        `${cpu.toFixed(3)} ms vs ${med(series(was, 'serverCpuMsPerOp')).toFixed(3)} ms before: ${r2(cpuRatio)}× (${range(ratios(kind, was, 'serverCpuMsPerOp'))}); rate ${pct(rateRatio)} of before's (${pctRange(ratios(kind, was, 'rps'))})`,
        'no slower than before (CPU ≤ 1.05× and rate ≥ 95% of the SDK v1 build, same run)',
        cpuRatio <= 1.05 && rateRatio >= 0.95,
        `issue's figure: 0.40–0.47 ms, ~1.8× the floor${vsFloor}`,
      );
    } else {
      target(name, `${cpu.toFixed(3)} ms${vsFloor}`, 'no slower than before: ≤ 0.47 ms (issue 14)', cpu <= 0.47);
    }
  }
  target(
    'new legacy session (initialize + initialized + tools/list + call + DELETE)',
    `${r2(med(churnCpu))} ms server CPU (${range(churnCpu)}), ${churn.median.rps} sessions/s`,
    '≤ 1.5 ms',
    med(churnCpu) <= 1.5,
    `${values.churn} sessions × 3 runs, c=${values.c}${churnBeforeCpu ? `; before (SDK v1): ${r2(med(churnBeforeCpu))} ms (${range(churnBeforeCpu)}), ${churnBefore!.median.rps} sessions/s` : ''}`,
  );
  const legacyCpu = med(series('legacy', 'serverCpuMsPerOp'));
  target(`server CPU per ${values.tool} call, one session`, `${r2(legacyCpu)} ms`, '≤ 0.3 ms (earlier target)', legacyCpu <= 0.3);
  const vsDirect = med(ratios('legacy', 'direct', 'rps'));
  target(
    `legacy session rate vs direct upstream`,
    `${pct(vsDirect)} (${pctRange(ratios('legacy', 'direct', 'rps'))})`,
    '≥ 50% of direct (earlier target)',
    vsDirect >= 0.5,
  );
  const slVsSf = med(ratios('stateless', 'legacy', 'rps'));
  target('stateless vs stateful legacy rate', `${pct(slVsSf)} (${pctRange(ratios('stateless', 'legacy', 'rps'))})`, '≥ 90% (earlier target)', slVsSf >= 0.9);

  if (!values['lanes-only']) {
    let cold: Summary | undefined;
    if (existsSync(BINARY)) {
      const port = freePort();
      const spawn = `env STREAMABLE_HTTP=true REMOTE_AUTHORIZATION=true PORT=${port} LOG_LEVEL=warn FORGE_API_URL=${forge.apiUrl} ${BINARY}`;
      cold = await drive('cold', ['--url', `http://127.0.0.1:${port}/mcp`, '--spawn', spawn], '5');
    }
    target(
      'start to first initialize, compiled binary',
      cold ? `${cold.median.coldStartMs} ms` : 'run `bun run build` first',
      '≤ 150 ms',
      cold ? cold.median.coldStartMs <= 150 : undefined,
    );
    const binaryRss = cold?.runs.map((r) => r.rssAfterReady?.rssMiB).filter((v) => typeof v === 'number') as number[] | undefined;
    target(
      'RSS idle',
      binaryRss?.length ? `compiled binary after first initialize: ${binaryRss.join(', ')} MiB` : 'compiled binary: not measured',
      '≤ 60 MiB',
      binaryRss?.length ? med(binaryRss) <= 60 : undefined,
      `bun run src/index.ts after start: ${idle} MiB`,
    );
    const bytes = (list as Record<string, any>).resultBytes ?? list!.median.resultBytes;
    // test/catalog.test.ts's budgets: the first three groups within 32 KB, each later one within 12 KB.
    const budget = 32 * 1024 + (TOOL_GROUPS.length - 3) * 12 * 1024;
    target(
      `tools/list, all ${TOOL_GROUPS.length} groups (${(list as Record<string, any>).tools ?? list!.median.tools} tools)`,
      `${bytes} bytes`,
      `≤ ${budget.toLocaleString('en-US')} bytes (32 KB for the first three groups, 12 KB for each later one, as test/catalog.test.ts)`,
      bytes <= budget,
    );
  }
  console.log('');
  table(['target', 'measured', 'goal', 'verdict', 'note'], targets);
} finally {
  await stateful.stop();
  await modern.stop();
  await audited?.stop();
  await traced?.stop();
  sink?.stop(true);
  await base17?.stop();
  rmSync(auditFile, { force: true });
  await stateless.stop();
  await before?.stop();
  await beforeStateless?.stop();
  await floor?.stop();
  await forge.stop();
}
