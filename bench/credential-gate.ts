// The modern lane's credential check on a cache hit (D38, issue 34), against a whole modern call:
//   bun bench/credential-gate.ts [rounds] [seconds per round]
// Each round runs, in this one process, (a) modern get_issue calls through the app for `seconds`
// (bench/profile-modern.ts's loop: 8 callers; the stub forge in a process of its own) and (b) the door the modern lane
// passes on every request — the credential gate of src/http/credential-gate.ts over a warm answer —
// for as long, each with a fresh credential object as every request builds one (so the key's SHA-256
// is paid each time, as it is per request). It prints the CPU per call of each, and the check's share
// of a call; the median and range over rounds.
import { CredentialChecks } from '../src/auth/credential-check';
import type { Caller } from '../src/auth/caller';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { createEndpoint } from '../src/forge/endpoint';
import { createCredentialGate } from '../src/http/credential-gate';
import { silentLogger } from '../src/logging/logger';
import { createRefusals } from '../src/web/refusals';
import { MODERN } from './lib';

const rounds = Number(process.argv[2] ?? 7);
const seconds = Number(process.argv[3] ?? 3);
const TOKEN = 'glpat-gate-bench-000000001';
const user = JSON.stringify({ id: 7, username: 'maria', name: 'Maria', state: 'active', bot: false });
const issue = JSON.stringify({ id: 501, iid: 1, project_id: 42, title: 'Login fails with SSO', description: 'x'.repeat(600), state: 'opened' });
// The stub forge runs in its own process, so a call's CPU here is the server's alone.
const stubSource = `const user = ${JSON.stringify(user)}; const issue = ${JSON.stringify(issue)};
const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => new Response(new URL(r.url).pathname.endsWith('/user') ? user : issue, { headers: { 'content-type': 'application/json' } }) });
console.log(s.port);`;
const stub = Bun.spawn([process.execPath, '-e', stubSource], { stdout: 'pipe', stderr: 'inherit' });
const reader = stub.stdout.getReader();
const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
const apiUrl = `http://127.0.0.1:${port}/api/v4`;
const config = loadConfig({
  STREAMABLE_HTTP: 'true',
  REMOTE_AUTHORIZATION: 'true',
  FORGE_API_URL: apiUrl,
  LOG_LEVEL: 'warn',
  MAX_REQUESTS_PER_MINUTE: '1000000',
});
const app = createApp(config);

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'Private-Token': TOKEN,
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'get_issue',
};
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'b', version: '1' },
};
let id = 1;
async function call(): Promise<void> {
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id: id++,
    method: 'tools/call',
    params: { name: 'get_issue', arguments: { project_id: '42', issue_iid: '1' }, _meta: meta },
  });
  const r = await app.handle(
    new Request('http://localhost/mcp', { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) }, body: text }),
    '127.0.0.1',
  );
  const body = await r.text();
  if (!body.includes('structuredContent')) throw new Error(`call failed: ${r.status} ${body.slice(0, 200)}`);
}

const checks = new CredentialChecks();
const gate = createCredentialGate({
  checks,
  challenge: 'Bearer',
  alreadyChecked: () => false,
  logger: silentLogger,
  refusals: createRefusals({ rejectedByRateLimit: 0, rejectedByCapacity: 0, authFailures: 0 } as never, silentLogger),
});
const endpoint = createEndpoint(apiUrl, { rejectUnauthorized: true, timeoutMs: 10_000, maxResponseBytes: 1 << 20 } as never);
const caller = (): Caller => ({ credential: { kind: 'private', token: TOKEN }, apiUrl });
async function pass(): Promise<void> {
  if ((await gate(caller(), endpoint, { requestId: 'r', lane: 'modern', replyId: 1 })) !== undefined) throw new Error('the gate refused the bench token');
}

/** CPU ms per operation of `op`, run by 8 concurrent loops for `seconds`. */
async function cpuPerOp(op: () => Promise<void>): Promise<number> {
  let ops = 0;
  const end = performance.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < end) {
        await op();
        ops++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / ops;
}

await pass(); // the one forge check; every later pass is a cache hit
for (let i = 0; i < 2000; i++) await call(); // warm-up
await cpuPerOp(pass);
const shares: number[] = [];
const callMs: number[] = [];
const gateMs: number[] = [];
for (let r = 0; r < rounds; r++) {
  const c = await cpuPerOp(call);
  const g = await cpuPerOp(pass);
  callMs.push(c);
  gateMs.push(g);
  shares.push(g / c);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
console.log(`${rounds} rounds of ${seconds} s each, this process's CPU (the stub forge runs in another):`);
console.log(`modern get_issue call: ${med(callMs).toFixed(4)} ms CPU (${Math.min(...callMs).toFixed(4)}–${Math.max(...callMs).toFixed(4)})`);
console.log(
  `credential check, cache hit: ${(med(gateMs) * 1000).toFixed(2)} µs CPU (${(Math.min(...gateMs) * 1000).toFixed(2)}–${(Math.max(...gateMs) * 1000).toFixed(2)})`,
);
console.log(`share of a call: ${pct(med(shares))} (${pct(Math.min(...shares))}–${pct(Math.max(...shares))}); target ≤ 2%`);
await app.close();
stub.kill();
process.exit(med(shares) <= 0.02 ? 0 : 1);
