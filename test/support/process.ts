// Runs the real server as a child process (`bun run src/index.ts`), for behaviour that is about
// processes: start-up refusals, exit codes, signals, stdio, a real port.
import { resolve } from 'node:path';

export const ENTRY = resolve(import.meta.dir, '../../src/index.ts');

export interface Started {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  /** Everything written to stderr so far (JSON log lines). */
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** Runs to completion and returns exit code and output (for refusals and --help). */
export async function runToExit(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(['bun', 'run', ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/**
 * Starts an HTTP server on a random port and waits for its "listening" log line. `command` runs
 * something other than the sources, such as the compiled binary.
 */
export async function startServer(env: Record<string, string>, args: string[] = [], command: string[] = ['bun', 'run', ENTRY]): Promise<Started> {
  const proc = Bun.spawn([...command, ...args], {
    // FORGE_TOOLSETS: as in test/support/config.ts, the groups tests were written against (D40);
    // a test of the default set passes FORGE_TOOLSETS: ''.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', STREAMABLE_HTTP: 'true', PORT: '0', FORGE_TOOLSETS: 'branches,issues', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  let log = '';
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      proc.kill(); // a server that never says "listening" must not outlive the caller
      reject(new Error(`server did not start:\n${log}`));
    }, 10_000);
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        log += decoder.decode(value);
        const match = /"event":"listening","url":"([^"]+)"/.exec(log);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      }
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${log}`));
    })().catch(() => {});
  });
  // Keep draining stderr so the child never blocks on a full pipe.
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      log += decoder.decode(value);
    }
  })().catch(() => {});
  return {
    proc,
    url,
    stderr: () => log,
    stop: async (signal = 'SIGTERM') => {
      proc.kill(signal);
      return proc.exited;
    },
  };
}
