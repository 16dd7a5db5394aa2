// Load: the shared driver (../shared/bench/mcp-load.mjs) against this server and, in the same run,
// directly against the same fake forge, so the figures are ratios to a direct upstream call.
//   bun run bench/load.ts [--tool get_branch] [-n 5000] [-c 8] [--repeat 3]
// The fake forge runs in its own process so the server's CPU figure is the server's alone.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SEED, TOKENS } from '../test/support/fake-forge';
import { freePort, startServerProcess } from './lib';

const DRIVER = resolve(import.meta.dir, '../../shared/bench/mcp-load.mjs');
const { values } = parseArgs({
  options: {
    tool: { type: 'string', default: 'get_branch' },
    n: { type: 'string', short: 'n', default: '5000' },
    c: { type: 'string', short: 'c', default: '8' },
    repeat: { type: 'string', default: '3' },
  },
});
if (!existsSync(DRIVER)) {
  console.error(`load driver not found at ${DRIVER} (it lives in the shared folder beside this repository)`);
  process.exit(2);
}

const TOOL_ARGS: Record<string, unknown> = {
  get_branch: { project_id: String(SEED.project), branch_name: 'main' },
  list_branches: { project_id: String(SEED.project), per_page: 20 },
  get_commit: { project_id: String(SEED.project), sha: SEED.headSha },
};
const DIRECT_PATH: Record<string, string> = {
  get_branch: `/projects/${SEED.project}/repository/branches/main`,
  list_branches: `/projects/${SEED.project}/repository/branches?per_page=20`,
  get_commit: `/projects/${SEED.project}/repository/commits/${SEED.headSha}`,
};
const tool = values.tool!;
if (!TOOL_ARGS[tool]) throw new Error(`no arguments known for ${tool}`);

const forgePort = freePort();
const forgeProc = Bun.spawn(['bun', 'run', resolve(import.meta.dir, '../test/support/fake-forge/serve.ts'), '--port', String(forgePort)], { stdout: 'pipe', stderr: 'inherit' });
const apiUrl = `http://127.0.0.1:${forgePort}/api/v4`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${apiUrl}/user`, { headers: { 'Private-Token': TOKENS.maintainer } })).ok) break;
  } catch {
    if (i > 300) throw new Error('fake forge did not start');
    await Bun.sleep(20);
  }
}
const server = await startServerProcess({ FORGE_API_URL: apiUrl });

async function drive(mode: 'call' | 'direct', extra: string[]): Promise<Record<string, unknown>> {
  const args = ['node', DRIVER, '--mode', mode, '-n', values.n!, '-c', values.c!, '--repeat', values.repeat!, '--json', '--token', TOKENS.maintainer, ...extra];
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'inherit' });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`driver failed: ${out}`);
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  return lines.at(-1);
}

try {
  const direct = await drive('direct', ['--url', `${server.url}/mcp`, '--direct-url', `${apiUrl}${DIRECT_PATH[tool]}`, '--pid', String(forgeProc.pid)]);
  const call = await drive('call', ['--url', `${server.url}/mcp`, '--tool', tool, '--args', JSON.stringify(TOOL_ARGS[tool]), '--pid', String(server.pid)]);
  console.log(JSON.stringify({ direct, call }, null, 2));
} finally {
  await server.stop();
  forgeProc.kill('SIGTERM');
  await forgeProc.exited;
}
