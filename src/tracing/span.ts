// What the server's code sees of tracing (D46): a span it may add attributes to, fail, end, and
// start a child of, and the W3C traceparent to pass on. Nothing here loads OpenTelemetry: the SDK
// is imported only when tracing is on (tracing/start.ts), so with tracing off every path pays at
// most the check of an absent span.

/** Attribute values as OpenTelemetry takes them; an undefined one is left out. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface TraceSpan {
  /** Whether the span is sampled: when false, attributes are not worth working out. */
  readonly recording: boolean;
  set(attributes: SpanAttributes): void;
  /** Marks the span failed with `error.type` (a fixed kind, never a message). */
  fail(errorType: string): void;
  end(): void;
  /** A child span: 'internal' for work inside this process, 'client' for a request to another. */
  child(name: string, kind: 'internal' | 'client', attributes?: SpanAttributes): TraceSpan;
  /** The W3C traceparent naming this span as the parent of an outgoing request. */
  traceparent(): string;
}

export interface Tracer {
  /** A server span for an incoming request; `traceparent`/`tracestate` are the client's, if any. */
  server(name: string, traceparent: string | null, tracestate: string | null, attributes: SpanAttributes): TraceSpan;
  /** Sends what is queued now (the bench ends a round with it). */
  flush(): Promise<void>;
  /** Sends what is still queued and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

/**
 * Attribute names, after OpenTelemetry's semantic conventions for HTTP (stable) and for MCP and
 * generative AI tools (`@opentelemetry/semantic-conventions`, incubating entries; test/tracing.test.ts
 * holds each name equal to the package's constant). Written out here so nothing is loaded for them.
 */
export const ATTR = {
  httpRequestMethod: 'http.request.method',
  httpResponseStatusCode: 'http.response.status_code',
  httpRoute: 'http.route',
  httpResendCount: 'http.request.resend_count',
  urlFull: 'url.full',
  urlPath: 'url.path',
  urlScheme: 'url.scheme',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  mcpMethodName: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  jsonrpcRequestId: 'jsonrpc.request.id',
  genAiToolName: 'gen_ai.tool.name',
  genAiOperationName: 'gen_ai.operation.name',
  /** This server's own: which protocol lane served the request (D27). */
  lane: 'forge_mcp.lane',
  /** This server's own: a tool call's outcome, `ok` or its error kind (D17). */
  outcome: 'forge_mcp.outcome',
} as const;

/** OTEL_TRACES_SAMPLER's values (OpenTelemetry's standard samplers; the default first). */
export const TRACE_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
type TraceSampler = (typeof TRACE_SAMPLERS)[number];

/** Where and how spans go when tracing is on (config/load.ts derives it from the OTEL_* settings). */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL (…/v1/traces). */
  readonly url: string;
  /** OTEL_EXPORTER_OTLP_HEADERS, parsed: sent with every export, never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
  readonly sampler: TraceSampler;
  /** The ratio of the traceidratio samplers (0 to 1). */
  readonly ratio: number;
  /** The batch span processor's settings (OTEL_BSP_*), as OpenTelemetry's BatchSpanProcessor takes them. */
  readonly batch: {
    readonly scheduledDelayMillis: number;
    readonly exportTimeoutMillis: number;
    readonly maxQueueSize: number;
    readonly maxExportBatchSize: number;
  };
}
