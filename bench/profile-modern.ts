// Profiling aid: get_issue calls in process for a fixed time on one lane, to run under
//   bun --cpu-prof-md --cpu-prof-dir=/tmp/prof bench/profile-modern.ts [seconds] [modern|legacy|stateless|floor]
// It prints the process's CPU per call, the stub forge's included (bench/overhead.ts subtracts it).
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { sealerFromConfig } from '../src/sealing/from-config';
import { MODERN, issueRecord, stubForge } from './lib';

const seconds = Number(process.argv[2] ?? 5);
const lane = process.argv[3] ?? 'modern';
const stub = stubForge(issueRecord());
const env: Record<string, string> = { ...stub.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' };
if (lane === 'stateless') Object.assign(env, { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 5).toString('base64url') });
// BENCH_TRACE=1: tracing on (D46), exporting over OTLP/HTTP to a sink in this process that reads and drops each batch.
const sink = process.env.BENCH_TRACE
  ? Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: async (r) => (await r.arrayBuffer(), Response.json({ partialSuccess: {} })) })
  : undefined;
if (sink) env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${sink.port}`;
// BENCH_TRACE_RATIO=r: only that ratio of the calls sampled (parentbased_traceidratio).
if (sink && process.env.BENCH_TRACE_RATIO)
  Object.assign(env, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: process.env.BENCH_TRACE_RATIO });
const config = loadConfig(env);
const tracer = config.tracing ? (await import('../src/tracing/start')).startTracing(config.tracing, 'bench') : undefined;
const app = createApp(config, { sealer: await sealerFromConfig(config), tracer });
const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': 'glpat-overhead-bench-0001' };
// `floor`: the least work of ../shared/bench/floor-proxy.ts for a tools/call, in process, as a yardstick.
const upstream = stub.env.FORGE_API_URL;
async function floor(request: Request): Promise<Response> {
  const message = (await request.json()) as { id: number; params: { arguments: Record<string, string> } };
  const a = message.params.arguments;
  const r = await fetch(`${upstream}/projects/${encodeURIComponent(a.project_id)}/issues/${encodeURIComponent(a.issue_iid)}`, {
    headers: { 'private-token': request.headers.get('private-token') ?? '' },
  });
  const data = await r.json();
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data } }),
    { headers: { 'content-type': 'application/json' } },
  );
}
// The socket address, as Bun.serve's fetch hands it to app.handle (src/index.ts).
const handle = lane === 'floor' ? floor : (request: Request) => app.handle(request, '127.0.0.1');
// With its Content-Length, as every request over HTTP has it (a body without one is read as a stream).
const post = (headers: Record<string, string>, body: unknown) => {
  const text = JSON.stringify(body);
  return handle(
    new Request('http://localhost/mcp', { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) }, body: text }),
  );
};

let headers: Record<string, string>;
let params: Record<string, unknown> = { name: 'get_issue', arguments: { project_id: '42', issue_iid: '1' } };
if (lane === 'modern' || lane === 'floor') {
  headers = { ...base, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_issue' };
  params = {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'b', version: '1' },
    },
  };
} else {
  const init = await post(base, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } },
  });
  await init.text();
  headers = { ...base, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
  await (await post(headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).text();
}
let id = 1;
let calls = 0;
const end = performance.now() + seconds * 1000;
const cpu0 = process.cpuUsage();
async function worker() {
  while (performance.now() < end) {
    const r = await post(headers, { jsonrpc: '2.0', id: id++, method: 'tools/call', params });
    const text = await r.text();
    if (!text.includes('structuredContent')) throw new Error(`call failed: ${r.status} ${text.slice(0, 200)}`);
    calls++;
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
const cpu = process.cpuUsage(cpu0);
console.log(`${lane}: ${calls} calls, ${((cpu.user + cpu.system) / 1000 / calls).toFixed(4)} ms CPU a call (stub forge included)`);
await app.close();
await tracer?.shutdown();
sink?.stop(true);
stub.stop();
