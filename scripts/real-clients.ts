// Real MCP clients against running servers: the official conformance suite on both protocol lanes
// (docs/decisions.md D27) and MCP Inspector CLI calls. Starts the fake forge on a loopback port,
// two servers of ours from the sources — one in static-token HTTP mode for the suite, which cannot
// send a credential header, and one with REMOTE_AUTHORIZATION for the Inspector, which sends the
// caller's Private-Token — and the SDK v2 reference server (test/support/reference-server.ts),
// which runs the same scenarios as the yardstick. Checks the suite cannot pass against a
// tools-only server are listed in test/conformance-baseline.yml (docs/real-clients.md says why).
// Prints one line per client run and exits 1 if any fails.
//   bun run scripts/real-clients.ts
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeForge, TOKENS, type FakeForge } from '../test/support/fake-forge';
import { startServer, type Started } from '../test/support/process';

const ROOT = resolve(import.meta.dir, '..');
const BIN = join(ROOT, 'node_modules/.bin');
const REFERENCE = join(ROOT, 'test/support/reference-server.ts');
export const BASELINE_FILE = join(ROOT, 'test/conformance-baseline.yml');

export const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
export type Revision = (typeof REVISIONS)[number];

/** The issue's scenario set per revision; the suite's other scenarios need its own fixture tools, prompts and resources. */
export const SCENARIOS: Record<Revision, readonly string[]> = {
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'caching',
    'http-header-validation',
    'dns-rebinding-protection',
    'server-sse-multiple-streams',
    'input-required-result-unsupported-methods',
    'input-required-result-validate-input',
    // Resources, prompts and completions (D44): the scenarios that need none of the suite's fixtures.
    'resources-list',
    'prompts-list',
    'completion-complete',
    'sep-2164-resource-not-found',
  ],
  '2025-11-25': [
    'server-initialize',
    'ping',
    'tools-list',
    'server-session-lifecycle',
    'dns-rebinding-protection',
    'server-sse-multiple-streams',
    'resources-list',
    'prompts-list',
    'completion-complete',
  ],
};

export const TARGETS = ['ours', 'reference'] as const;
export type Target = (typeof TARGETS)[number];

/** Inspector runs, in the order they are reported: `era` is the Inspector's --protocol-era. */
export const INSPECTOR_ERAS = ['legacy', 'modern'] as const;
export const INSPECTOR_CALLS = ['tools/list', 'tools/call get_branch', 'tools/call list_branches'] as const;

/** Every client run's name, in the order the script reports them. */
export function runNames(): string[] {
  return [
    ...TARGETS.flatMap((target) => REVISIONS.flatMap((rev) => SCENARIOS[rev].map((s) => `conformance ${target} ${rev} ${s}`))),
    'conformance baseline',
    ...INSPECTOR_ERAS.flatMap((era) => INSPECTOR_CALLS.map((call) => `inspector ${era} ${call}`)),
    'inspector modern reference tools/call echo',
    'inspector acted with its Private-Token',
  ];
}

const CONFORMANCE_TIMEOUT_MS = 60_000;
const INSPECTOR_TIMEOUT_MS = 60_000;
/** Client processes at once: the runs are independent, and the machines here have two cores. */
const CONCURRENCY = 4;

export interface Outcome {
  name: string;
  ok: boolean;
  detail: string;
}

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Started client processes, so an interrupted run leaves none behind. */
const running = new Set<ReturnType<typeof Bun.spawn>>();

/** Runs a client under Bun (both packages want a newer Node than this machine has). */
async function runClient(args: string[], env: Record<string, string>, timeoutMs: number) {
  const proc = Bun.spawn(['bun', '--bun', ...args], {
    cwd: env.HOME,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  running.add(proc);
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr, timedOut: proc.signalCode === 'SIGKILL' };
  } finally {
    clearTimeout(timer);
    running.delete(proc);
  }
}

/** Runs the tasks at most `limit` at a time; results keep the tasks' order. */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** The baseline as the suite's --expected-failures file has it: `server:` a list of `scenario:check-id`. */
export function parseBaseline(text: string): Map<string, Set<string>> {
  const doc = Bun.YAML.parse(text) as { server?: unknown } | null;
  const entries = doc?.server;
  if (!Array.isArray(entries)) throw new Error('baseline: `server:` must be a list of scenario:check-id entries');
  const byScenario = new Map<string, Set<string>>();
  for (const entry of entries) {
    const match = typeof entry === 'string' ? /^([a-z0-9-]+):([A-Za-z0-9_.-]+)$/.exec(entry) : null;
    if (!match) throw new Error(`baseline: ${JSON.stringify(entry)} is not scenario:check-id`);
    const ids = byScenario.get(match[1]) ?? new Set<string>();
    if (ids.has(match[2])) throw new Error(`baseline: ${entry} is listed twice`);
    byScenario.set(match[1], ids.add(match[2]));
  }
  return byScenario;
}

export interface Score {
  ok: boolean;
  passed: number;
  /** Checks with a verdict: SUCCESS, FAILURE or WARNING (INFO and SKIPPED carry none). */
  total: number;
  skipped: number;
  info: number;
  /** Baselined checks that failed as the baseline says. */
  excepted: string[];
  problems: string[];
}

/**
 * Scores one scenario run from the suite's checks.json. Every FAILURE or WARNING fails the run
 * unless baselined. A baselined check that the suite no longer reports, or reports as anything but
 * a failure, also fails it, so the baseline cannot outlive what it excuses.
 */
export function score(checks: Check[], baselined: ReadonlySet<string> = new Set()): Score {
  const problems: string[] = [];
  const excepted = new Set<string>();
  let passed = 0;
  let skipped = 0;
  let info = 0;
  for (const c of checks) {
    if (c.status === 'SUCCESS') passed++;
    else if (c.status === 'SKIPPED') skipped++;
    else if (c.status === 'INFO') info++;
    else if (baselined.has(c.id)) excepted.add(c.id);
    else problems.push(`${c.id} ${c.status}: ${c.errorMessage ?? ''}`.trim());
  }
  for (const id of baselined) {
    const seen = checks.filter((c) => c.id === id);
    if (seen.length === 0) problems.push(`${id} is baselined but the suite no longer reports it`);
    else if (seen.some((c) => c.status !== 'FAILURE' && c.status !== 'WARNING'))
      problems.push(`${id} is baselined but now ${[...new Set(seen.map((c) => c.status))].join('/')}: remove it from the baseline`);
  }
  if (passed === 0) problems.push('no check succeeded');
  const total = checks.length - skipped - info;
  return { ok: problems.length === 0, passed, total, skipped, info, excepted: [...excepted], problems };
}

/** checks.json files the suite wrote under dir (one directory per scenario run). */
function readChecks(dir: string): Check[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('checks.json'));
  return files.flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Check[]);
}

/** One scenario at one revision: the suite must exit 0 given the baseline, and every check must score. */
async function scenario(target: Target, url: string, rev: Revision, name: string, baseline: Map<string, Set<string>>, home: string): Promise<Outcome> {
  const label = `conformance ${target} ${rev} ${name}`;
  const out = join(home, `results-${target}-${rev}-${name}`);
  const args = [join(BIN, 'conformance'), 'server', '--url', url, '--scenario', name, '--spec-version', rev];
  args.push('--expected-failures', BASELINE_FILE, '--timeout', String(CONFORMANCE_TIMEOUT_MS / 2), '-o', out);
  const run = await runClient(args, { HOME: home }, CONFORMANCE_TIMEOUT_MS);
  let checks: Check[] = [];
  try {
    checks = readChecks(out);
  } catch {
    // no results directory: reported below with the suite's output
  }
  const s = score(checks, baseline.get(name));
  const counts = `${s.passed}/${s.total} passed${s.excepted.length ? `, baselined: ${s.excepted.join(', ')}` : ''}${s.skipped ? `, ${s.skipped} skipped` : ''}${s.info ? `, ${s.info} info` : ''}`;
  if (run.code === 0 && s.ok) return { name: label, ok: true, detail: counts };
  const why = run.timedOut ? `killed after ${CONFORMANCE_TIMEOUT_MS} ms` : `exit ${run.code}`;
  const output = checks.length === 0 ? `; ${run.stdout.slice(-1500)}${run.stderr.slice(-1500)}` : '';
  return { name: label, ok: false, detail: `${why}; ${counts}; ${s.problems.join('; ')}${output}` };
}

/** A baseline entry whose scenario no run covers would never be checked. */
function baselineCovered(baseline: Map<string, Set<string>>): Outcome {
  const run = new Set(REVISIONS.flatMap((rev) => SCENARIOS[rev]));
  const orphans = [...baseline].filter(([name]) => !run.has(name)).flatMap(([name, ids]) => [...ids].map((id) => `${name}:${id}`));
  const count = [...baseline.values()].reduce((n, ids) => n + ids.size, 0);
  return orphans.length === 0
    ? { name: 'conformance baseline', ok: true, detail: `${count} entries, each in a scenario that runs` }
    : { name: 'conformance baseline', ok: false, detail: `entries for scenarios that do not run: ${orphans.join(', ')}` };
}

/** One Inspector CLI call; `accept` checks its JSON output and returns a summary, or throws. */
async function inspector(label: string, url: string, home: string, args: string[], accept: (result: any) => string): Promise<Outcome> {
  const run = await runClient([join(BIN, 'mcp-inspector'), '--cli', url, ...args], { HOME: home }, INSPECTOR_TIMEOUT_MS);
  try {
    if (run.code !== 0)
      throw new Error(`${run.timedOut ? `killed after ${INSPECTOR_TIMEOUT_MS} ms` : `exit ${run.code}`}: ${run.stdout.slice(-1000)}${run.stderr.slice(-1000)}`);
    return { name: `inspector ${label}`, ok: true, detail: accept(JSON.parse(run.stdout)) };
  } catch (error) {
    return { name: `inspector ${label}`, ok: false, detail: (error as Error).message };
  }
}

function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/**
 * Which lane answered a tools/call, from its result: on 2026-07-28 the SDK names the server in
 * every result's `_meta` (the suite's sep-2575-server-identifies-in-result-meta), on 2025 it never does.
 */
function laneOf(result: any): 'modern' | 'legacy' {
  return result?._meta?.['io.modelcontextprotocol/serverInfo'] === undefined ? 'legacy' : 'modern';
}

/**
 * The Inspector's three calls with one protocol era, as a caller of the remote-authorization server.
 * Its modern era pins 2026-07-28 through server/discover with no fallback, so it cannot end up on
 * the legacy lane unnoticed; the tool calls also check which lane answered.
 */
function inspectorCalls(era: (typeof INSPECTOR_ERAS)[number], url: string, home: string, toolCount: number): (() => Promise<Outcome>)[] {
  const base = ['--protocol-era', era, '--header', `Private-Token: ${TOKENS.developer}`];
  return [
    () =>
      inspector(`${era} tools/list`, url, home, [...base, '--method', 'tools/list'], (r) => {
        const names = (r.tools as { name: string }[]).map((t) => t.name);
        expectThat(names.length === toolCount && names.includes('get_branch'), `expected ${toolCount} tools with get_branch, got ${names.length}`);
        return `${names.length} tools`;
      }),
    () =>
      inspector(
        `${era} tools/call get_branch`,
        url,
        home,
        [...base, '--method', 'tools/call', '--tool-name', 'get_branch', '--tool-arg', 'project_id=42', '--tool-arg', 'branch_name=main'],
        (r) => {
          expectThat(r.isError !== true && r.structuredContent?.name === 'main', `unexpected result ${JSON.stringify(r).slice(0, 500)}`);
          expectThat(laneOf(r) === era, `answered by the ${laneOf(r)} lane`);
          return `${era} lane: branch "main", commit ${r.structuredContent.commit.short_id}`;
        },
      ),
    // A numeric argument typed on the command line must reach the tool as an integer.
    () =>
      inspector(
        `${era} tools/call list_branches`,
        url,
        home,
        [...base, '--method', 'tools/call', '--tool-name', 'list_branches', '--tool-arg', 'project_id=42', '--tool-arg', 'per_page=2'],
        (r) => {
          const page = r.structuredContent;
          expectThat(
            r.isError !== true && page?.items?.length === 2 && page.pagination?.per_page === 2,
            `unexpected result ${JSON.stringify(r).slice(0, 500)}`,
          );
          expectThat(laneOf(r) === era, `answered by the ${laneOf(r)} lane`);
          return `${era} lane: 2 items, next_page ${page.pagination.next_page}`;
        },
      ),
  ];
}

interface Servers {
  staticToken: Started;
  remoteAuth: Started;
  reference: Started;
}

async function runClients(servers: Servers, forge: FakeForge, home: string): Promise<Outcome[]> {
  const baseline = parseBaseline(readFileSync(BASELINE_FILE, 'utf8'));
  const toolCount = Number(/"tools":(\d+)/.exec(servers.remoteAuth.stderr())?.[1] ?? NaN);
  const urls: Record<Target, string> = { ours: `${servers.staticToken.url}/mcp`, reference: `${servers.reference.url}/mcp` };
  const inspectorUrl = `${servers.remoteAuth.url}/mcp`;
  const conformance = TARGETS.flatMap((target) =>
    REVISIONS.flatMap((rev) => SCENARIOS[rev].map((name) => () => scenario(target, urls[target], rev, name, baseline, home))),
  );
  const inspectors = [
    ...INSPECTOR_ERAS.flatMap((era) => inspectorCalls(era, inspectorUrl, home, toolCount)),
    // The Inspector's modern era against the SDK's own server: tells an Inspector fault from ours.
    () =>
      inspector(
        'modern reference tools/call echo',
        urls.reference,
        home,
        ['--protocol-era', 'modern', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=hi'],
        (r) => {
          expectThat(r.content?.[0]?.text === 'hi', `unexpected result ${JSON.stringify(r).slice(0, 500)}`);
          expectThat(laneOf(r) === 'modern', 'answered by the legacy lane');
          return 'modern lane: "hi"';
        },
      ),
  ];
  const results = await pooled([...conformance, ...inspectors], CONCURRENCY);
  const outcomes = [...results.slice(0, conformance.length), baselineCovered(baseline), ...results.slice(conformance.length)];
  // The Inspector's credential, not the static one, must have reached the forge, on both lanes.
  const tokens = new Set(forge.requests.filter((r) => r.path.endsWith('/repository/branches/main')).map((r) => r.headers.get('private-token')));
  const calls = forge.requests.filter((r) => r.path.endsWith('/repository/branches/main')).length;
  outcomes.push({
    name: 'inspector acted with its Private-Token',
    ok: calls === INSPECTOR_ERAS.length && tokens.size === 1 && tokens.has(TOKENS.developer),
    detail: `forge saw ${calls} get_branch call(s) with ${tokens.size} token(s)`,
  });
  return outcomes;
}

export async function realClients(): Promise<Outcome[]> {
  const home = mkdtempSync(join(tmpdir(), 'forge-mcp-real-clients-'));
  const forge = await startFakeForge();
  const servers: Started[] = [];
  const stopAll = () => {
    for (const proc of running) proc.kill('SIGKILL');
    for (const s of servers) s.proc.kill('SIGKILL');
  };
  process.once('SIGINT', () => (stopAll(), process.exit(130)));
  process.once('SIGTERM', () => (stopAll(), process.exit(143)));
  try {
    // Every client connects from 127.0.0.1; the per-address limit has tests of its own.
    const common = { FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_REQUESTS_PER_MINUTE: '100000' };
    const started = await Promise.allSettled([
      startServer({ ...common, FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.maintainer }),
      startServer({ ...common, REMOTE_AUTHORIZATION: 'true' }),
      startServer({}, [], ['bun', 'run', REFERENCE]),
    ]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const refused = started.find((s) => s.status === 'rejected');
    if (refused) throw refused.reason; // the finally below stops the ones that did start
    const [staticToken, remoteAuth, reference] = servers;
    const outcomes = await runClients({ staticToken, remoteAuth, reference }, forge, home);
    if (outcomes.some((o) => !o.ok)) process.stderr.write(`server logs:\n${servers.map((s) => s.stderr()).join('\n')}\n`);
    return outcomes;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await forge.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const outcomes = await realClients();
  for (const o of outcomes) console.log(`${o.ok ? 'PASS' : 'FAIL'}  ${o.name}  (${o.detail.replace(/\s*\n\s*/g, ' ')})`);
  const failed = outcomes.filter((o) => !o.ok).length;
  console.log(failed === 0 ? `all ${outcomes.length} passed` : `${failed} of ${outcomes.length} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
