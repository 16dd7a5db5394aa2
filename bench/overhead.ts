// In-process A/B measure of this server's own CPU per tool call: the app (via app.handle, no
// socket) calls a stub forge in the same process that answers a precomputed body; a plain fetch of
// the same stub is measured alike and subtracted, leaving what the MCP layers add.
//   bun run bench/overhead.ts [-n 20000] [-c 8]
import { parseArgs } from 'node:util';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';

const { values } = parseArgs({ options: { n: { type: 'string', short: 'n', default: '20000' }, c: { type: 'string', short: 'c', default: '8' } } });
const N = Number(values.n);
const C = Number(values.c);

const issue = JSON.stringify({ id: 501, iid: 1, project_id: 42, title: 'Login fails with SSO', description: 'x'.repeat(600), state: 'opened', labels: ['bug', 'auth'], milestone: { id: 101, iid: 1, title: 'v1.0', state: 'active', web_url: 'http://forge.test/m/1', description: 'v1.0 release' }, assignees: [], author: { id: 1, username: 'maria' }, web_url: 'http://forge.test/acme/platform/api/-/issues/1', updated_at: '2024-01-03T11:00:00.000Z' });
const stub = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(issue, { headers: { 'content-type': 'application/json' } }) });
const apiUrl = `http://127.0.0.1:${stub.port}/api/v4`;
const app = createApp(loadConfig({ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: apiUrl, LOG_LEVEL: 'warn', MAX_REQUESTS_PER_MINUTE: '1000000' }));
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': 'glpat-overhead-bench-0001' };
const init = await app.handle(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }) }));
const sid = init.headers.get('mcp-session-id')!;
let id = 1;
const call = async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'get_issue', arguments: { project_id: '42', issue_iid: '1' } } });
  const r = await app.handle(new Request('http://localhost/mcp', { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body }));
  await r.text();
};
const direct = async () => {
  const r = await fetch(`${apiUrl}/projects/42/issues/1`, { headers: { 'PRIVATE-TOKEN': 'glpat-overhead-bench-0001' } });
  await r.text();
};

async function measure(task: () => Promise<void>, n: number): Promise<number> {
  let i = 0;
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: C }, async () => { while (i++ < n) await task(); }));
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
}

await measure(call, 2000);
await measure(direct, 2000);
const results: number[][] = [];
for (let round = 0; round < 7; round++) results.push([await measure(direct, N), await measure(call, N)]);
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const d = median(results.map((r) => r[0]));
const m = median(results.map((r) => r[1]));
console.log(`direct fetch ${d.toFixed(3)} ms CPU/op; MCP get_issue ${m.toFixed(3)} ms CPU/op; added by the server ${(m - d).toFixed(3)} ms`);
await app.close();
stub.stop(true);
