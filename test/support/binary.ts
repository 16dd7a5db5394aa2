// The compiled single binary, built with exactly the flags of `bun run build` but into a
// temporary directory, so a test run never replaces a developer's dist/forge-mcp.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const PREFIX = 'forge-mcp-bin-';
/** One directory per test process; the pid in its name lets a later run spot leftovers. */
const DIR = join(tmpdir(), `${PREFIX}${process.pid}`);

/** The `build` script of package.json, split into arguments (it has no quoting). */
export async function buildCommand(): Promise<string[]> {
  const pkg = (await Bun.file(join(ROOT, 'package.json')).json()) as { scripts: Record<string, string> };
  return pkg.scripts.build.split(/\s+/);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A binary is over 100 MB: remove what runs that were killed mid-way left behind. */
function removeLeftovers(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(PREFIX.length));
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

let built: Promise<string> | undefined;

/** Path of the binary; the first call builds it (a second or two), later calls reuse it. */
export function builtBinary(): Promise<string> {
  built ??= (async () => {
    removeLeftovers();
    const command = await buildCommand();
    const out = command.indexOf('--outfile');
    if (out === -1) throw new Error('the build script names no --outfile');
    mkdirSync(DIR, { recursive: true });
    command[out + 1] = join(DIR, 'forge-mcp');
    const proc = Bun.spawn(command, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`build failed (${code}):\n${stdout}${stderr}`);
    return command[out + 1];
  })();
  return built;
}

/** Deletes the binary (call from afterAll: bun test emits no process exit event to hook). */
export function removeBuiltBinary(): void {
  built = undefined;
  rmSync(DIR, { recursive: true, force: true });
}
