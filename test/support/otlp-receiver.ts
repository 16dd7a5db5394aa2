// A small OTLP/HTTP trace receiver on a loopback port (no collector binary exists here): it takes
// what an OTLP exporter POSTs to /v1/traces as JSON (ExportTraceServiceRequest, the OTLP/JSON
// encoding: ids in hex, attribute values as {stringValue|intValue|boolValue|doubleValue}), keeps the
// raw bodies and headers, and flattens the spans for assertions.

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: number;
  service?: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  bodies: string[];
  headers: Headers[];
  stop(): void;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };

function valueOf(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  throw new Error(`unexpected OTLP attribute value ${JSON.stringify(value)}`);
}

const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

export function startOtlpReceiver(): OtlpReceiver {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const headers: Headers[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      if (request.method !== 'POST' || new URL(request.url).pathname !== '/v1/traces') return new Response('not found', { status: 404 });
      const text = await request.text();
      bodies.push(text);
      headers.push(request.headers);
      const body = JSON.parse(text) as {
        resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: Record<string, unknown>[] }[] }[];
      };
      for (const resourceSpans of body.resourceSpans) {
        const service = attributesOf(resourceSpans.resource?.attributes)['service.name'] as string | undefined;
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              traceId: span.traceId as string,
              spanId: span.spanId as string,
              parentSpanId: (span.parentSpanId as string | undefined) || undefined,
              name: span.name as string,
              kind: span.kind as number,
              attributes: attributesOf(span.attributes as OtlpAttribute[]),
              status: ((span.status as { code?: number } | undefined)?.code ?? 0) as number,
              service,
            });
          }
        }
      }
      return Response.json({ partialSuccess: {} });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, spans, bodies, headers, stop: () => server.stop(true) };
}
