// Real MCP clients against the running server: the conformance suite's generic server scenarios
// and MCP Inspector CLI calls. Starts the fake forge on a loopback port and two servers from the
// sources: one in static-token HTTP mode for the suite, which cannot send a credential header,
// and one with REMOTE_AUTHORIZATION for the Inspector, which sends the caller's Private-Token
// (docs/real-clients.md). Prints one line per check and exits 1 if any fails.
//   bun run scripts/real-clients.ts
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeForge, TOKENS, type FakeForge } from '../test/support/fake-forge';
import { startServer, type Started } from '../test/support/process';

const ROOT = resolve(import.meta.dir, '..');
const BIN = join(ROOT, 'node_modules/.bin');

export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-session-lifecycle', 'dns-rebinding-protection'] as const;

interface Outcome {
  name: string;
  ok: boolean;
  detail: string;
}

/** Runs a client under Bun (both packages want a newer Node than this machine has). */
async function runClient(args: string[], env: Record<string, string>, timeoutMs = 90_000) {
  const proc = Bun.spawn(['bun', '--bun', ...args], { cwd: env.HOME, env: { PATH: process.env.PATH ?? '', ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** checks.json files the suite wrote under dir (one directory per scenario run). */
function readChecks(dir: string): Promise<Check[][]> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('checks.json'));
  return Promise.all(files.map((f) => Bun.file(join(dir, f)).json() as Promise<Check[]>));
}

/** A scenario passes when the suite exits 0 and every scored check is SUCCESS (a WARNING counts as a failure). */
async function scenario(name: string, url: string, home: string): Promise<Outcome> {
  const out = join(home, `results-${name}`);
  const run = await runClient([join(BIN, 'conformance'), 'server', '--url', url, '--scenario', name, '-o', out], { HOME: home });
  const checks = (await readChecks(out).catch(() => [])).flat();
  const scored = checks.filter((c) => c.status !== 'INFO');
  const bad = scored.filter((c) => c.status !== 'SUCCESS');
  const ok = run.code === 0 && scored.length > 0 && bad.length === 0;
  const detail = ok
    ? `${scored.length}/${scored.length} checks: ${scored.map((c) => c.id).join(', ')}`
    : `exit ${run.code}; ${bad.map((c) => `${c.id} ${c.status} ${c.errorMessage ?? ''}`).join('; ') || run.stdout.slice(-2000) + run.stderr.slice(-2000)}`;
  return { name: `conformance ${name}`, ok, detail };
}

/** One Inspector CLI call; `accept` checks its JSON output and returns a summary, or throws. */
async function inspector(label: string, url: string, home: string, args: string[], accept: (result: any) => string): Promise<Outcome> {
  const run = await runClient([join(BIN, 'mcp-inspector'), '--cli', url, ...args], { HOME: home });
  try {
    if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stdout.slice(-1000)}${run.stderr.slice(-1000)}`);
    return { name: `inspector ${label}`, ok: true, detail: accept(JSON.parse(run.stdout)) };
  } catch (error) {
    return { name: `inspector ${label}`, ok: false, detail: (error as Error).message };
  }
}

function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** The client runs: conformance against the static-token server, the Inspector as a caller. */
async function runClients(staticToken: Started, remoteAuth: Started, forge: FakeForge, home: string): Promise<Outcome[]> {
  const toolCount = Number(/"tools":(\d+)/.exec(remoteAuth.stderr())?.[1] ?? NaN);
  const url = `${remoteAuth.url}/mcp`;
  const asCaller = ['--header', `Private-Token: ${TOKENS.developer}`];
  const outcomes: Outcome[] = [];
  for (const name of SCENARIOS) outcomes.push(await scenario(name, `${staticToken.url}/mcp`, home));
  outcomes.push(
    await inspector('tools/list', url, home, [...asCaller, '--method', 'tools/list'], (r) => {
      const names = (r.tools as { name: string }[]).map((t) => t.name);
      expectThat(names.length === toolCount && names.includes('get_branch'), `expected ${toolCount} tools with get_branch, got ${names.length}`);
      return `${names.length} tools`;
    }),
    await inspector('tools/call get_branch', url, home, [...asCaller, '--method', 'tools/call', '--tool-name', 'get_branch', '--tool-arg', 'project_id=42', '--tool-arg', 'branch_name=main'], (r) => {
      expectThat(r.isError !== true && r.structuredContent?.name === 'main', `unexpected result ${JSON.stringify(r).slice(0, 500)}`);
      return `branch "main", commit ${r.structuredContent.commit.short_id}`;
    }),
    // A numeric argument typed on the command line must reach the tool as an integer.
    await inspector('tools/call list_branches', url, home, [...asCaller, '--method', 'tools/call', '--tool-name', 'list_branches', '--tool-arg', 'project_id=42', '--tool-arg', 'per_page=2'], (r) => {
      const page = r.structuredContent;
      expectThat(r.isError !== true && page?.items?.length === 2 && page.pagination?.per_page === 2, `unexpected result ${JSON.stringify(r).slice(0, 500)}`);
      return `2 items, next_page ${page.pagination.next_page}`;
    }),
  );
  // The Inspector's credential, not the static one, must have reached the forge.
  const tokens = new Set(forge.requests.filter((r) => r.path.endsWith('/repository/branches/main')).map((r) => r.headers.get('private-token')));
  outcomes.push({ name: 'inspector acted with its Private-Token', ok: tokens.size === 1 && tokens.has(TOKENS.developer), detail: `forge saw ${tokens.size} token(s)` });
  return outcomes;
}

export async function realClients(): Promise<Outcome[]> {
  const home = mkdtempSync(join(tmpdir(), 'forge-mcp-real-clients-'));
  const forge = await startFakeForge();
  const servers: Started[] = [];
  try {
    // Every client connects from 127.0.0.1; the per-address limit has tests of its own.
    const common = { FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_REQUESTS_PER_MINUTE: '100000' };
    servers.push(await startServer({ ...common, FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.maintainer }));
    servers.push(await startServer({ ...common, REMOTE_AUTHORIZATION: 'true' }));
    const outcomes = await runClients(servers[0], servers[1], forge, home);
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
  for (const o of outcomes) console.log(`${o.ok ? 'PASS' : 'FAIL'}  ${o.name}  (${o.detail})`);
  const failed = outcomes.filter((o) => !o.ok).length;
  console.log(failed === 0 ? `all ${outcomes.length} passed` : `${failed} of ${outcomes.length} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
