// D46, sampling: a request that is not sampled (the client's traceparent says so, or the ratio
// sampler leaves it out) exports no span, yet the forge still gets a traceparent that continues the
// trace, unsampled, with a span id of its own (what OpenTelemetry's tracer gives a child it does
// not record). The server's spans below an unsampled one are made without the SDK's tracer
// (tracing/start.ts); a sampled request in the same server is the control that spans do arrive.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import type { Tracer } from '../src/tracing/span';
import { startTracing } from '../src/tracing/start';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { connect, structured } from './support/mcp-client';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver';

const P = String(SEED.project);
const CLIENT_SPAN_ID = '00f067aa0ba902b7';

let forge: FakeForge;
let receiver: OtlpReceiver;

beforeAll(async () => {
  forge = await startFakeForge();
  receiver = startOtlpReceiver();
});

afterAll(async () => {
  await forge?.stop();
  receiver?.stop();
});

async function tracedApp(env: Record<string, string>): Promise<{ app: ForgeApp; tracer: Tracer }> {
  const config = testConfig(forge.apiUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env });
  const tracer = startTracing(config.tracing!, 'test');
  return { app: createApp(config, { tracer }), tracer };
}

/** One list_issues call with the given client traceparent; the traceparent the forge got for it. */
async function call(app: ForgeApp, traceparent?: string): Promise<string[]> {
  const headers: Record<string, string> = { 'Private-Token': TOKENS.maintainer };
  if (traceparent) headers.traceparent = traceparent;
  const session = await connect(app, headers, undefined, { lane: 'modern' });
  const before = forge.requests.length;
  structured(await session.call('list_issues', { project_id: P }));
  await session.close();
  const sent = forge.requests.slice(before).filter((r) => r.path === `/api/v4/projects/${P}/issues`);
  expect(sent).toHaveLength(1);
  return (sent[0]!.headers.get('traceparent') ?? '').split('-');
}

/**
 * One tool span and the client span of its forge request in the trace, and the server spans of its
 * requests (connect, call). A new app's first request also checks the credential at the door, whose
 * forge requests (GET /user, the token's self-description) have client spans of their own.
 */
function expectCallSpans(traceId: string): void {
  const spans = receiver.spans.filter((s) => s.traceId === traceId);
  expect(spans.filter((s) => s.kind === 1)).toHaveLength(1);
  expect(spans.filter((s) => s.kind === 3 && String(s.attributes['url.full']).endsWith('/issues'))).toHaveLength(1);
  expect(spans.filter((s) => s.kind === 2).length).toBeGreaterThanOrEqual(1);
}

const traceIdOf = () => crypto.randomUUID().replaceAll('-', '');

describe('unsampled requests (D46)', () => {
  test("the client's unsampled traceparent: no span of its trace is exported; the forge gets the trace, unsampled, with a new span id", async () => {
    const { app, tracer } = await tracedApp({});
    const unsampled = traceIdOf();
    const sampled = traceIdOf();
    const first = await call(app, `00-${unsampled}-${CLIENT_SPAN_ID}-00`);
    const second = await call(app, `00-${unsampled}-${CLIENT_SPAN_ID}-00`);
    await call(app, `00-${sampled}-${CLIENT_SPAN_ID}-01`);
    await tracer.flush();
    for (const [version, trace, span, flags] of [first, second]) {
      expect([version, trace, flags]).toEqual(['00', unsampled, '00']);
      expect(span).toMatch(/^[0-9a-f]{16}$/);
      expect(span).not.toBe('0000000000000000');
      expect(span).not.toBe(CLIENT_SPAN_ID);
    }
    expect(first[2]).not.toBe(second[2]);
    expect(receiver.spans.filter((s) => s.traceId === unsampled)).toEqual([]);
    // The control: the sampled call's tool and forge spans arrived, below its requests' server spans.
    expectCallSpans(sampled);
    await app.close();
    await tracer.shutdown();
  });

  test('ratio 0 without a client traceparent: nothing exported; the forge gets a fresh trace, unsampled', async () => {
    const { app, tracer } = await tracedApp({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    const exported = receiver.spans.length;
    const [version, trace, span, flags] = await call(app);
    const sampled = traceIdOf();
    // A parent-based sampler follows the client's sampled flag whatever the ratio: the control.
    await call(app, `00-${sampled}-${CLIENT_SPAN_ID}-01`);
    await tracer.flush();
    expect([version, flags]).toEqual(['00', '00']);
    expect(trace).toMatch(/^[0-9a-f]{32}$/);
    expect(span).toMatch(/^[0-9a-f]{16}$/);
    expect(receiver.spans.slice(exported).filter((s) => s.traceId === trace)).toEqual([]);
    expectCallSpans(sampled);
    await app.close();
    await tracer.shutdown();
  });
});

describe('the batch span processor (D46)', () => {
  test('OTEL_BSP_MAX_EXPORT_BATCH_SIZE reaches it: no export request holds more spans than that', async () => {
    const { app, tracer } = await tracedApp({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2' });
    const bodies = receiver.bodies.length;
    const sampled = traceIdOf();
    await call(app, `00-${sampled}-${CLIENT_SPAN_ID}-01`);
    await tracer.flush();
    expectCallSpans(sampled);
    const sizes = receiver.bodies.slice(bodies).map((body) => (body.match(/"spanId"/g) ?? []).length);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...sizes)).toBe(2);
    await app.close();
    await tracer.shutdown();
  });
});
