// Where a sampled call's tracing CPU goes (D46), OpenTelemetry alone, no server: the three spans of
// a get_issue call (server, tool, forge client) with their attributes, as tracing/start.ts makes
// them, batched by the BatchSpanProcessor, and then one of: dropped (`none`: the SDK's bookkeeping),
// serialized as OTLP/JSON (`json`) or as OTLP/protobuf (`protobuf`) by the official serializers and
// dropped, or sent by the official OTLP/HTTP exporter to a receiver in this process (`http`; the
// receiver's reading is counted too).
//   bun bench/trace-spans.ts [none|json|protobuf|http]
import { ROOT_CONTEXT, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';

const mode = process.argv[2] ?? 'none';
const receiver = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: async (r) => (await r.arrayBuffer(), Response.json({ partialSuccess: {} })) });
const dropping = (serialize: (spans: ReadableSpan[]) => unknown): SpanExporter => ({
  export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
    serialize(spans);
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: async () => {},
});
const exporters: Record<string, () => SpanExporter> = {
  none: () => dropping(() => undefined),
  json: () => dropping((spans) => JsonTraceSerializer.serializeRequest(spans)),
  protobuf: () => dropping((spans) => ProtobufTraceSerializer.serializeRequest(spans)),
  http: () => new OTLPTraceExporter({ url: `http://127.0.0.1:${receiver.port}/v1/traces` }),
};
if (!exporters[mode]) throw new Error(`mode: one of ${Object.keys(exporters).join(', ')}`);
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'forge-mcp', 'service.version': 'bench' }),
  sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  spanProcessors: [new BatchSpanProcessor({ exporter: exporters[mode]() })],
});
const tracer = provider.getTracer('forge-mcp', 'bench');

function started(name: string, kind: SpanKind, parent: typeof ROOT_CONTEXT, attributes: Attributes) {
  const span = tracer.startSpan(name, { kind }, parent);
  span.setAttributes(attributes);
  return span;
}

async function calls(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const server = started('POST /mcp', SpanKind.SERVER, ROOT_CONTEXT, {
      'http.request.method': 'POST',
      'http.route': '/mcp',
      'url.path': '/mcp',
      'url.scheme': 'http',
      'forge_mcp.lane': 'modern',
      'mcp.protocol.version': '2026-07-28',
      'mcp.method.name': 'tools/call',
      'jsonrpc.request.id': i,
    });
    const tool = started('tools/call get_issue', SpanKind.INTERNAL, trace.setSpan(ROOT_CONTEXT, server), {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_issue',
      'forge_mcp.lane': 'modern',
    });
    const client = started('GET', SpanKind.CLIENT, trace.setSpan(ROOT_CONTEXT, tool), {
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': 3000,
      'url.full': 'http://127.0.0.1:3000/api/v4/projects/{}/issues/{}',
    });
    client.setAttribute('http.response.status_code', 200);
    client.end();
    tool.setAttribute('forge_mcp.outcome', 'ok');
    tool.end();
    server.setAttribute('http.response.status_code', 200);
    server.end();
    // Let the exporter run now and then, as the server's event loop does between requests.
    if (i % 50 === 0) await Bun.sleep(1);
  }
}

await calls(20_000);
await provider.forceFlush();
const n = 30_000;
const cpu0 = process.cpuUsage();
await calls(n);
await provider.forceFlush();
const cpu = process.cpuUsage(cpu0);
console.log(`${mode}: ${((cpu.user + cpu.system) / n).toFixed(1)} µs CPU per call (three spans)`);
await provider.shutdown();
receiver.stop(true);
