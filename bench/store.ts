// The cost of the shared store (D37) on the hot path: get_issue on the modern lane (2026-07-28),
// concurrency 8, spread round-robin over three replicas, with the in-app rate limits on (per client
// IP and per credential, D10) — once with each replica counting in its own memory, once with all of
// them counting in one real redis-server (REDIS_URL). Rounds alternate between the two so drift in
// the machine's speed hits both alike. Reports the rate and the replicas' CPU per call (the three
// summed, from /proc), and the redis-server's CPU per call beside it.
//   bun run bench/store.ts [-n 3000] [-c 8] [--repeat 3] [--warmup 300] [--clients 1]
// --clients N: the calls come from N client addresses in turn (X-Forwarded-For, MCP_TRUST_PROXY=true).
// With one address (the default) the per-address window is taken in chunks (src/web/rate-limit.ts)
// and almost no call reaches the store; with as many addresses as calls every call opens a new
// window there, one store round trip per call: the cost for many clients each calling a little.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { SEED, TOKENS } from '../test/support/fake-forge';
import { startRedis } from '../test/support/redis';
import { MODERN, cpuMs, freePort, startServerProcess, type ServerProcess } from './lib';

const { values } = parseArgs({
  options: {
    n: { type: 'string', short: 'n', default: '3000' },
    c: { type: 'string', short: 'c', default: '8' },
    repeat: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '300' },
    clients: { type: 'string', default: '1' },
  },
});
const N = Number(values.n);
const C = Number(values.c);
const CLIENTS = Math.max(1, Number(values.clients));
let clientSeq = 0;
/** The next client address (a new window per address and minute in the store). */
const clientIp = () => {
  const i = clientSeq++ % CLIENTS;
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
};

async function startForge() {
  const port = freePort();
  const proc = Bun.spawn(['bun', 'run', resolve(import.meta.dir, '../test/support/fake-forge/serve.ts'), '--port', String(port)], {
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const apiUrl = `http://127.0.0.1:${port}/api/v4`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${apiUrl}/user`, { headers: { 'Private-Token': TOKENS.maintainer } })).ok) break;
    } catch {
      // not yet
    }
    if (i > 500) throw new Error('fake forge did not start');
    await Bun.sleep(20);
  }
  return { apiUrl, stop: async () => (proc.kill('SIGTERM'), await proc.exited) };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'Private-Token': TOKENS.maintainer,
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'get_issue',
};
let id = 0;
const body = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: ++id,
    method: 'tools/call',
    params: { name: 'get_issue', arguments: { project_id: String(SEED.project), issue_iid: '1' }, _meta: META },
  });

/** `count` calls, `C` at a time, the i-th to replica i mod 3; the failures counted. */
async function load(replicas: ServerProcess[], count: number): Promise<{ ms: number; failures: number }> {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const response = await fetch(`${replicas[i % replicas.length].url}/mcp`, {
          method: 'POST',
          headers: { ...HEADERS, 'x-forwarded-for': clientIp() },
          body: body(),
        });
        const text = await response.text();
        if (response.status !== 200 || text.includes('"isError":true')) failures++;
      }
    }),
  );
  return { ms: performance.now() - started, failures };
}

interface Round {
  rate: number;
  cpuPerCall: number;
  storeCpuPerCall?: number;
}

async function round(replicas: ServerProcess[], redisPid?: number): Promise<Round> {
  await load(replicas, Number(values.warmup));
  const before = replicas.map((r) => cpuMs(r.pid));
  const storeBefore = redisPid ? cpuMs(redisPid) : 0;
  const { ms, failures } = await load(replicas, N);
  const cpu = replicas.reduce((sum, r, i) => sum + cpuMs(r.pid) - before[i], 0);
  if (failures) console.error(`warning: ${failures} failed calls`);
  return { rate: (N / ms) * 1000, cpuPerCall: cpu / N, ...(redisPid ? { storeCpuPerCall: (cpuMs(redisPid) - storeBefore) / N } : {}) };
}

const forge = await startForge();
const redis = await startRedis();
const redisPid = Number(/process_id:(\d+)/.exec(String(await (await redis.client()).send('INFO', ['server'])))![1]);
// Rate limits on, set far above what the bench sends so every call is served (and counted).
const env = { FORGE_API_URL: forge.apiUrl, MAX_REQUESTS_PER_MINUTE: '1000000', MCP_TRUST_PROXY: 'true' };
const servers: ServerProcess[] = [];
const start = async (extra: Record<string, string> = {}) => {
  const s = await startServerProcess({ ...env, ...extra });
  servers.push(s);
  return s;
};
try {
  const memory = await Promise.all([1, 2, 3].map(() => start()));
  const shared = await Promise.all([1, 2, 3].map(() => start({ REDIS_URL: redis.url })));

  const results: { memory: Round[]; shared: Round[] } = { memory: [], shared: [] };
  for (let r = 0; r < Number(values.repeat); r++) {
    const order: ('memory' | 'shared')[] = r % 2 === 0 ? ['memory', 'shared'] : ['shared', 'memory'];
    for (const kind of order) results[kind].push(await round(kind === 'memory' ? memory : shared, kind === 'shared' ? redisPid : undefined));
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const range = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
  console.log(
    `get_issue, modern lane, c=${C}, ${N} calls a round after ${values.warmup} warm-up, ${values.repeat} rounds, three replicas, rate limits on, ${CLIENTS} client address(es)\n`,
  );
  console.log("| limits and caches kept in | req/s (median, range) | replicas' CPU ms/call (median, range) | redis-server CPU ms/call |");
  console.log('|---|---|---|---|');
  for (const kind of ['memory', 'shared'] as const) {
    const rs = results[kind];
    const store =
      kind === 'shared'
        ? `${median(rs.map((x) => x.storeCpuPerCall!)).toFixed(3)} (${range(
            rs.map((x) => x.storeCpuPerCall!),
            3,
          )})`
        : '';
    console.log(
      `| ${kind === 'memory' ? "each replica's memory" : 'one redis-server (REDIS_URL)'} | ${median(rs.map((x) => x.rate)).toFixed(0)} (${range(
        rs.map((x) => x.rate),
        0,
      )}) | ${median(rs.map((x) => x.cpuPerCall)).toFixed(3)} (${range(
        rs.map((x) => x.cpuPerCall),
        3,
      )}) | ${store} |`,
    );
  }
  const ratios = results.shared.map((s, i) => s.cpuPerCall / results.memory[i].cpuPerCall);
  console.log(`\nCPU per call with the store ÷ without, per round: ${ratios.map((x) => x.toFixed(2)).join(', ')} (target ≤ 1.15)`);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await redis.stop();
  await forge.stop();
}
