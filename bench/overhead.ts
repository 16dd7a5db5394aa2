// In-process A/B measure of this server's own CPU per tool call, on each lane: the app (via
// app.handle, no socket) calls a stub forge in the same process that answers a precomputed body; a
// plain fetch of the same stub is measured alike and subtracted, leaving what the MCP layers add.
// Lanes: legacy (one 2025-06-18 session), modern (2026-07-28: no session, `_meta` envelope and the
// MCP-Protocol-Version / Mcp-Method / Mcp-Name headers on every request; answered on the plain
// tools/call path, and again with that path off so every call goes through the SDK), and legacy in
// stateless mode (a sealed v1.sid. session id opened on every request; the plain tools/call path on,
// and off).
//   bun run bench/overhead.ts [-n 20000] [-c 8] [--rounds 7]
import { parseArgs } from 'node:util';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { sealerFromConfig } from '../src/sealing/from-config';
import { MODERN, issueRecord, stubForge } from './lib';

const { values } = parseArgs({
  options: { n: { type: 'string', short: 'n', default: '20000' }, c: { type: 'string', short: 'c', default: '8' }, rounds: { type: 'string', default: '7' } },
});
const N = Number(values.n);
const C = Number(values.c);

const stub = stubForge(
  issueRecord({
    milestone: { id: 101, iid: 1, title: 'v1.0', state: 'active', web_url: 'http://forge.test/m/1', description: 'v1.0 release' },
    assignees: [],
  }),
);
const env = stub.env;
const apiUrl = env.FORGE_API_URL;
// As src/index.ts builds them: the sealer from the config (stateless mode needs it).
async function appFor(values: Record<string, string>, fastToolCall = true) {
  const config = loadConfig(values);
  return createApp(config, { sealer: await sealerFromConfig(config), fastToolCall });
}
const app = await appFor(env);
const sdkOnlyApp = await appFor(env, false);
const statelessEnv = { ...env, OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 5).toString('base64url') };
const statelessApp = await appFor(statelessEnv);
const statelessSdkApp = await appFor(statelessEnv, false);
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': 'glpat-overhead-bench-0001' };
const ARGS = { project_id: '42', issue_iid: '1' };

async function openSession(target: typeof app): Promise<string> {
  const init = await target.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
      }),
    }),
  );
  await init.text();
  const sid = init.headers.get('mcp-session-id')!;
  const done = await target.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sid },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }),
  );
  await done.text();
  return sid;
}
const sid = await openSession(app);
const statelessSid = await openSession(statelessApp);
const statelessSdkSid = await openSession(statelessSdkApp);

let id = 1;
// Content-Length, as every request over HTTP has it (a body without one is read as a stream).
const lengthOf = (body: string) => ({ 'content-length': String(Buffer.byteLength(body)) });
async function expectResult(r: Response) {
  const text = await r.text();
  if (r.status !== 200 || !text.includes('"structuredContent"')) throw new Error(`call failed: ${r.status} ${text.slice(0, 300)}`);
}
const legacyCall = (target: typeof app, session: string) => async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'get_issue', arguments: ARGS } });
  await expectResult(
    await target.handle(new Request('http://localhost/mcp', { method: 'POST', headers: { ...headers, 'mcp-session-id': session, ...lengthOf(body) }, body })),
  );
};
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'b', version: '1' },
};
const modernHeaders = { ...headers, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_issue' };
const modernCall = (target: typeof app) => async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'get_issue', arguments: ARGS, _meta: META } });
  await expectResult(await target.handle(new Request('http://localhost/mcp', { method: 'POST', headers: { ...modernHeaders, ...lengthOf(body) }, body })));
};
const direct = async () => {
  const r = await fetch(`${apiUrl}/projects/42/issues/1`, { headers: { 'PRIVATE-TOKEN': 'glpat-overhead-bench-0001' } });
  await r.text();
};

async function measure(task: () => Promise<void>, n: number): Promise<number> {
  let i = 0;
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (i++ < n) await task();
    }),
  );
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / n;
}

const tasks = {
  direct,
  legacy: legacyCall(app, sid),
  modern: modernCall(app),
  modernSdk: modernCall(sdkOnlyApp),
  stateless: legacyCall(statelessApp, statelessSid),
  statelessSdk: legacyCall(statelessSdkApp, statelessSdkSid),
};
const names = Object.keys(tasks) as (keyof typeof tasks)[];
for (const name of names) await measure(tasks[name], 2000);
const results: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++) {
  // Rotate the order each round so drift hits every path alike.
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    results[name].push(await measure(tasks[name], N));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const d = median(results.direct);
console.log(`get_issue in process, c=${C}, ${rounds} rounds of ${N}; CPU ms per call, median (range)`);
console.log(`  direct fetch of the stub          ${d.toFixed(3)} (${Math.min(...results.direct).toFixed(3)}–${Math.max(...results.direct).toFixed(3)})`);
const label = {
  legacy: 'legacy lane, one session',
  modern: `modern lane (${MODERN})`,
  modernSdk: 'modern lane, SDK only',
  stateless: 'legacy lane, stateless mode',
  statelessSdk: 'stateless mode, SDK only',
} as const;
for (const name of ['legacy', 'modern', 'modernSdk', 'stateless', 'statelessSdk'] as const) {
  const m = median(results[name]);
  const added = results[name].map((x, i) => x - results.direct[i]);
  console.log(
    `  ${label[name].padEnd(32)}  ${m.toFixed(3)} (${Math.min(...results[name]).toFixed(3)}–${Math.max(...results[name]).toFixed(3)}); added by the server ${(m - d).toFixed(3)} ms (per round ${Math.min(...added).toFixed(3)}–${Math.max(...added).toFixed(3)})`,
  );
}
await app.close();
await sdkOnlyApp.close();
await statelessApp.close();
await statelessSdkApp.close();
stub.stop();
