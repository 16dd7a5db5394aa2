// Tracing's cost in process (D46): the same get_issue call on the modern lane through apps built
// alike but for tracing, in one process, in alternating rounds, so the machine's drift and the JIT's
// warm-up fall on every variant alike. Prints each variant's CPU per call (median of the rounds and
// their range) and its ratio to the untraced app's in the same round.
//   bun bench/trace-ab.ts [rounds] [seconds a round] [variant…]
// Variants: off (no tracer), noop (a tracer whose spans do nothing: the server's own plumbing),
// on (OpenTelemetry, every call sampled), r0.1 / r0 (parentbased_traceidratio at that ratio).
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { sealerFromConfig } from '../src/sealing/from-config';
import type { TraceSpan, Tracer } from '../src/tracing/span';
import { startTracing } from '../src/tracing/start';
import { MODERN, freePort, issueRecord, stubForge } from './lib';

const rounds = Number(process.argv[2] ?? 6);
const seconds = Number(process.argv[3] ?? 1.5);
const names = process.argv.length > 4 ? process.argv.slice(4) : ['off', 'noop', 'on', 'r0.1'];
const stub = stubForge(issueRecord());
// The OTLP receiver runs in a process of its own, so receiving the spans is not counted as the
// server's CPU (as in bench/run.ts).
const sinkPort = freePort();
const sink = Bun.spawn(
  [
    'bun',
    '-e',
    `Bun.serve({ hostname: '127.0.0.1', port: ${sinkPort}, fetch: async (r) => (await r.arrayBuffer(), Response.json({ partialSuccess: {} })) }); console.log('ready')`,
  ],
  { stdout: 'pipe' },
);
await new Response(sink.stdout).body!.getReader().read();
const base = stub.env;

const noopSpan: TraceSpan = {
  recording: false,
  set() {},
  fail() {},
  end() {},
  child: () => noopSpan,
  traceparent: () => '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
};
const noopTracer: Tracer = { server: () => noopSpan, flush: async () => {}, shutdown: async () => {} };

async function build(name: string) {
  const env = { ...base };
  if (name !== 'off' && name !== 'noop') env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${sinkPort}`;
  if (name.startsWith('r')) Object.assign(env, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: name.slice(1) });
  const config = loadConfig(env);
  const tracer = name === 'noop' ? noopTracer : config.tracing ? startTracing(config.tracing, 'bench') : undefined;
  const app = createApp(config, { sealer: await sealerFromConfig(config), tracer });
  return { name, app, tracer };
}
const variants = await Promise.all(names.map(build));

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'Private-Token': 'glpat-overhead-bench-0001',
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'get_issue',
};
const params = {
  name: 'get_issue',
  arguments: { project_id: '42', issue_iid: '1' },
  _meta: {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'b', version: '1' },
  },
};
let id = 1;
async function round({ app, tracer }: Awaited<ReturnType<typeof build>>, ms: number): Promise<number> {
  let calls = 0;
  const end = performance.now() + ms;
  const cpu0 = process.cpuUsage();
  async function worker() {
    while (performance.now() < end) {
      const text = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params });
      const request = new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(text)) },
        body: text,
      });
      const r = await app.handle(request, '127.0.0.1');
      const body = await r.text();
      if (!body.includes('structuredContent')) throw new Error(`call failed: ${r.status} ${body.slice(0, 200)}`);
      calls++;
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker));
  // The spans of this round are exported within it (their serialization is part of the cost).
  await tracer?.flush();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / calls;
}

// Warm-up: every variant once, untimed.
for (const v of variants) await round(v, 1000);
const results = new Map<string, number[]>(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  // Rotate the order each round so no variant always follows the same one.
  for (let i = 0; i < variants.length; i++) {
    const v = variants[(i + r) % variants.length]!;
    results.get(v.name)!.push(await round(v, seconds * 1000));
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const off = results.get(names[0]!)!;
for (const [name, xs] of results) {
  const ratios = xs.map((x, i) => x / off[i]!);
  console.log(
    `${name.padEnd(5)} ${median(xs).toFixed(4)} ms CPU a call (${Math.min(...xs).toFixed(4)}–${Math.max(...xs).toFixed(4)}); ` +
      `vs ${names[0]} in the same round: ${median(ratios).toFixed(3)}× (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
  );
}
for (const v of variants) {
  await v.app.close();
  await v.tracer?.shutdown();
}
sink.kill();
stub.stop();
