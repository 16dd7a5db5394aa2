// Tracing on (D46): OpenTelemetry's SDK, imported by the entry point only when OTEL_* turns it on,
// behind the small TraceSpan of tracing/span.ts. Spans are batched and sent as OTLP over HTTP
// (JSON). Nothing is registered globally: no context manager, no global provider, no patching of
// fetch; each span names its parent explicitly (docs/architecture.md principle 6), and the client's
// W3C traceparent is read, and ours written, by the W3C propagator of @opentelemetry/core.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import type { SpanAttributes, TraceSpan, Tracer, TracingSettings } from './span';

function samplerOf(settings: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.ratio);
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The attributes without their undefined entries (OpenTelemetry drops them with a diagnostic). */
function defined(attributes: SpanAttributes | undefined): Attributes | undefined {
  if (!attributes) return undefined;
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const hex2 = (flags: number) => (flags & 0xff).toString(16).padStart(2, '0');

class OtelSpan implements TraceSpan {
  readonly recording: boolean;
  private context: Context | undefined;

  constructor(
    private readonly tracer: ReturnType<TracerProvider['getTracer']>,
    private readonly span: Span,
  ) {
    this.recording = span.isRecording();
  }

  set(attributes: SpanAttributes): void {
    if (this.recording) this.span.setAttributes(defined(attributes)!);
  }

  fail(errorType: string): void {
    if (!this.recording) return;
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  end(): void {
    this.span.end();
  }

  child(name: string, kind: 'internal' | 'client', attributes?: SpanAttributes): TraceSpan {
    this.context ??= trace.setSpan(ROOT_CONTEXT, this.span);
    const span = this.tracer.startSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: defined(attributes) }, this.context);
    return new OtelSpan(this.tracer, span);
  }

  traceparent(): string {
    const { traceId, spanId, traceFlags } = this.span.spanContext();
    return `00-${traceId}-${spanId}-${hex2(traceFlags)}`;
  }
}

export function startTracing(settings: TracingSettings, version: string): Tracer {
  const exporter = new OTLPTraceExporter({ url: settings.url, headers: { ...settings.headers } });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': version }),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('forge-mcp', version);
  const propagator = new W3CTraceContextPropagator();
  return {
    server(name, traceparent, tracestate, attributes) {
      let parent = ROOT_CONTEXT;
      if (traceparent !== null) {
        const carrier: Record<string, string> = { traceparent };
        if (tracestate !== null) carrier.tracestate = tracestate;
        parent = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
      }
      return new OtelSpan(tracer, tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: defined(attributes) }, parent));
    },
    shutdown: () => provider.shutdown(),
  };
}
