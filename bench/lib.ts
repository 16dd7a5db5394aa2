// Shared pieces of the benchmarks: a free loopback port, the server as a child process, RSS and
// CPU readings from /proc, and a minimal MCP-over-HTTP client with keep-alive (Bun's fetch).
import { resolve } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';

export const ENTRY = resolve(import.meta.dir, '../src/index.ts');

export function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

export interface ServerProcess {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts `bun run src/index.ts` (or another command) and waits for /healthz. */
export async function startServerProcess(env: Record<string, string>, command: string[] = ['bun', 'run', ENTRY]): Promise<ServerProcess> {
  const port = freePort();
  const proc = Bun.spawn(command, {
    env: {
      PATH: process.env.PATH ?? '',
      STREAMABLE_HTTP: 'true',
      REMOTE_AUTHORIZATION: 'true',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // The load comes from one address: the per-IP limit would measure the limiter.
      MAX_REQUESTS_PER_MINUTE: '1000000',
      ...env,
    },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || proc.exitCode !== null) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start (exit code ${proc.exitCode})`);
    }
    await Bun.sleep(20);
  }
  return {
    pid: proc.pid,
    url,
    stop: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** User + system CPU ms in a /proc stat line (utime and stime, in clock ticks of 10 ms: USER_HZ is 100 on Linux). */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** User + system CPU time of a process in milliseconds. */
export function cpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * CPU ms used so far by each of the process's JIT compiler threads (JavaScriptCore names them
 * JITWorker), by thread id. A compiler thread that exits between two readings takes its time with
 * it, so a round's compile time can only be under-read: a warm-up judged by it may then end early,
 * which counts compile time as per-call, against the server.
 */
export function jitMsByThread(pid: number): Map<string, number> {
  const threads = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      if (/^JIT/.test(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')))) threads.set(tid, statCpuMs(stat));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return threads;
}

/** CPU ms the process's JIT compiler threads used since `before` (a jitMsByThread reading). */
export function jitMsSince(pid: number, before: Map<string, number>): number {
  let ms = 0;
  for (const [tid, now] of jitMsByThread(pid)) ms += now - (before.get(tid) ?? 0);
  return ms;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The current MCP revision (the modern lane: no session, each request self-contained). */
export const MODERN = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/**
 * A minimal MCP client. Legacy (the default): initialize, then the session id on every request.
 * `modern: true`: no initialize or session; every request carries the 2026-07-28 `_meta` envelope
 * and the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers.
 */
export class McpHttp {
  private id = 0;
  sessionId: string | undefined;

  constructor(
    private readonly url: string,
    private readonly auth: Record<string, string>,
    private readonly modern = false,
  ) {}

  async post(method: string, params?: unknown, notification = false): Promise<Response> {
    const headers: Record<string, string> = { ...HEADERS, ...this.auth };
    if (this.modern) {
      headers['mcp-protocol-version'] = MODERN;
      headers['mcp-method'] = method;
      const name = (params as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string') headers['mcp-name'] = name;
      params = { ...(params as object | undefined), _meta: MODERN_META };
    }
    const body = notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: ++this.id, method, params };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    const response = await fetch(`${this.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
    const sid = response.headers.get('mcp-session-id');
    if (sid) this.sessionId = sid;
    return response;
  }

  async request(method: string, params?: unknown): Promise<unknown> {
    const response = await this.post(method, params);
    const body = (await response.json()) as { result?: unknown; error?: unknown };
    if (!response.ok || body.error) throw new Error(`${method} failed: ${response.status} ${JSON.stringify(body.error)}`);
    return body.result;
  }

  async initialize(): Promise<void> {
    this.sessionId = undefined;
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    await (await this.post('notifications/initialized', undefined, true)).body?.cancel();
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<void> {
    const result = (await this.request('tools/call', { name, arguments: args })) as { isError?: boolean };
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
  }

  async close(): Promise<void> {
    const response = await fetch(`${this.url}/mcp`, { method: 'DELETE', headers: { ...this.auth, 'mcp-session-id': this.sessionId ?? '' } });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`DELETE failed: ${response.status}`);
    this.sessionId = undefined;
  }
}

/** Runs `task` `total` times with `concurrency` workers. */
export async function runConcurrent(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
}

/** The issue record the in-process benches' stub forge answers every request with; `extra` adds fields. */
export function issueRecord(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 501,
    iid: 1,
    project_id: 42,
    title: 'Login fails with SSO',
    description: 'x'.repeat(600),
    state: 'opened',
    labels: ['bug', 'auth'],
    ...extra,
    author: { id: 1, username: 'maria' },
    web_url: 'http://forge.test/acme/platform/api/-/issues/1',
    updated_at: '2024-01-03T11:00:00.000Z',
  });
}

/**
 * A stub forge on a loopback port answering every request with `body` (JSON), and the settings of
 * an app in process pointed at it: remote authorization over HTTP, warnings only, no rate limit to
 * meet; BENCH_AUDIT names an audit file.
 */
export function stubForge(body: string): { stop(): void; env: Record<string, string> } {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
  return {
    stop: () => server.stop(true),
    env: {
      STREAMABLE_HTTP: 'true',
      REMOTE_AUTHORIZATION: 'true',
      FORGE_API_URL: `http://127.0.0.1:${server.port}/api/v4`,
      LOG_LEVEL: 'warn',
      MAX_REQUESTS_PER_MINUTE: '1000000',
      ...(process.env.BENCH_AUDIT ? { AUDIT_LOG_PATH: process.env.BENCH_AUDIT } : {}),
    },
  };
}
