// Tracing on (D46): OpenTelemetry's SDK, imported by the entry point only when OTEL_* turns it on,
// behind the small TraceSpan of tracing/span.ts. Spans are batched and sent as OTLP over HTTP
// (JSON). Nothing is registered globally: no context manager, no global provider, no patching of
// fetch; each span names its parent explicitly (docs/architecture.md principle 6), and the client's
// W3C traceparent is read, and ours written, by the W3C propagator of @opentelemetry/core.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Context, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { ATTR, type SpanAttributes, type TraceSpan, type Tracer, type TracingSettings } from './span';

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

const hex2 = (flags: number) => (flags & 0xff).toString(16).padStart(2, '0');
const ids = new RandomIdGenerator();

/**
 * Each defined attribute onto a recording span, one by one: no copy of the object (OpenTelemetry
 * drops an undefined value with a diagnostic), and each value checked once. Attributes given to
 * `startSpan` are checked twice and copied on the way, so spans start bare and get theirs here.
 */
function setDefined(span: Span, attributes: SpanAttributes): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) span.setAttribute(key, value);
  }
}

/**
 * The child of a span that is not sampled: not sampled either, whatever the sampler (a parent-based
 * one follows the parent; a trace-id ratio one decides the same for the same trace id; always_on
 * samples every root, so its roots are never unsampled; always_off samples nothing). Made here
 * without OpenTelemetry's tracer, which would also generate an id, run the sampler and count the
 * span: only its own span id is needed, for the traceparent passed on (D46: unsampled work is near-free).
 */
class UnsampledSpan implements TraceSpan {
  readonly recording = false;
  private readonly spanId = ids.generateSpanId();

  constructor(private readonly traceId: string) {}

  set(): void {}
  fail(): void {}
  end(): void {}

  child(): TraceSpan {
    return new UnsampledSpan(this.traceId);
  }

  traceparent(): string {
    return `00-${this.traceId}-${this.spanId}-00`;
  }
}

class OtelSpan implements TraceSpan {
  readonly recording: boolean;
  private context: Context | undefined;

  constructor(
    private readonly tracer: ReturnType<TracerProvider['getTracer']>,
    private readonly span: Span,
    attributes: SpanAttributes | undefined,
  ) {
    this.recording = span.isRecording();
    if (this.recording && attributes) setDefined(span, attributes);
  }

  set(attributes: SpanAttributes): void {
    if (this.recording) setDefined(this.span, attributes);
  }

  fail(errorType: string): void {
    if (!this.recording) return;
    this.span.setAttribute(ATTR.errorType, errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  end(): void {
    this.span.end();
  }

  child(name: string, kind: 'internal' | 'client', attributes?: SpanAttributes): TraceSpan {
    if (!this.recording) return new UnsampledSpan(this.span.spanContext().traceId);
    this.context ??= trace.setSpan(ROOT_CONTEXT, this.span);
    const span = this.tracer.startSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL }, this.context);
    return new OtelSpan(this.tracer, span, attributes);
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
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
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
      // The sampler decides without the attributes (none of the standard ones reads them), so an
      // unsampled request's are never checked or copied.
      return new OtelSpan(tracer, tracer.startSpan(name, { kind: SpanKind.SERVER }, parent), attributes);
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
