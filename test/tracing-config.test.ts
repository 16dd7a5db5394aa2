// D46's switch and its cost when off: which OTEL_* settings turn tracing on, what is refused (without
// repeating a header value), that the attribute names are OpenTelemetry's, and that a server
// started without tracing never loads an OpenTelemetry module.
import { describe, expect, test } from 'bun:test';
import * as semconv from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { ConfigError, loadConfig } from '../src/config/load';
import { tracedPath } from '../src/forge/forge-span';
import { ATTR } from '../src/tracing/span';
import { ENTRY } from './support/process';

const HTTP = { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true' };
const tracing = (env: Record<string, string>) => loadConfig({ ...HTTP, ...env }).tracing;

describe('the switch (D46)', () => {
  test('off by default, and with only a service name or sampler set', () => {
    expect(tracing({})).toBeUndefined();
    expect(tracing({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' })).toBeUndefined();
  });

  test('an endpoint turns it on: the base gets /v1/traces, the traces endpoint is used as given and wins', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      url: 'http://collector:4318/v1/traces',
      headers: {},
      serviceName: 'forge-mcp',
      sampler: 'parentbased_always_on',
      ratio: 1,
      // OpenTelemetry's specified defaults for the batch span processor.
      batch: { scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/otlp/traces' })?.url).toBe(
      'https://b/otlp/traces',
    );
  });

  test('OTEL_TRACES_EXPORTER=otlp without an endpoint sends to the local collector', () => {
    expect(tracing({ OTEL_TRACES_EXPORTER: 'otlp' })?.url).toBe('http://localhost:4318/v1/traces');
  });

  test('OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off whatever else is set', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  test('stdio traces nothing, and says so at start-up', () => {
    const config = loadConfig({ FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-aaaaaaaaaaaaaaaaaaaa', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' });
    expect(config.tracing).toBeUndefined();
    expect(config.warnings).toContain('OTEL_* tracing is ignored for stdio (STREAMABLE_HTTP=false): it traces HTTP requests');
  });

  test('sampler, ratio, service name and headers (URL-encoded values decoded)', () => {
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_SERVICE_NAME: 'gitlab-mcp-prod',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=abc%3D%3D, x-tenant = team a',
      }),
    ).toMatchObject({
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      serviceName: 'gitlab-mcp-prod',
      headers: { 'api-key': 'abc==', 'x-tenant': 'team a' },
    });
  });

  test('the batch span processor takes the OTEL_BSP_* settings', () => {
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_BSP_SCHEDULE_DELAY: '1000',
        OTEL_BSP_EXPORT_TIMEOUT: '2000',
        OTEL_BSP_MAX_QUEUE_SIZE: '8192',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1024',
      })?.batch,
    ).toEqual({ scheduledDelayMillis: 1000, exportTimeoutMillis: 2000, maxQueueSize: 8192, maxExportBatchSize: 1024 });
  });

  test.each([
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    [{ OTEL_TRACES_EXPORTER: 'console' }, 'OTEL_TRACES_EXPORTER'],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_BSP_SCHEDULE_DELAY: '0' }, 'OTEL_BSP_SCHEDULE_DELAY'],
    [{ OTEL_BSP_MAX_QUEUE_SIZE: '10000000' }, 'OTEL_BSP_MAX_QUEUE_SIZE'],
    [{ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '-1' }, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'],
    [{ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '200' }, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'],
  ])('%j is refused, naming the setting', (env, setting) => {
    expect(() => tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...env })).toThrow(ConfigError);
    expect(() => tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...env })).toThrow(`${setting}:`);
  });

  test.each(['api-key', 'api key=secret-value-1', 'api-key=%E0%A4%A', '=secret-value-1'])(
    'a malformed OTEL_EXPORTER_OTLP_HEADERS %p is refused without its value',
    (value) => {
      let message = '';
      try {
        tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: `good=1,${value}` });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toStartWith('OTEL_EXPORTER_OTLP_HEADERS: pair 2 is not key=value');
      expect(message).not.toContain('secret-value-1');
      expect(message).not.toContain('%E0');
    },
  );
});

describe('attribute names are those of the semantic conventions', () => {
  test.each([
    [ATTR.httpRequestMethod, semconv.ATTR_HTTP_REQUEST_METHOD],
    [ATTR.httpResponseStatusCode, semconv.ATTR_HTTP_RESPONSE_STATUS_CODE],
    [ATTR.httpRoute, semconv.ATTR_HTTP_ROUTE],
    [ATTR.httpResendCount, semconv.ATTR_HTTP_REQUEST_RESEND_COUNT],
    [ATTR.urlFull, semconv.ATTR_URL_FULL],
    [ATTR.urlPath, semconv.ATTR_URL_PATH],
    [ATTR.urlScheme, semconv.ATTR_URL_SCHEME],
    [ATTR.serverAddress, semconv.ATTR_SERVER_ADDRESS],
    [ATTR.serverPort, semconv.ATTR_SERVER_PORT],
    [ATTR.errorType, semconv.ATTR_ERROR_TYPE],
    [ATTR.mcpMethodName, incubating.ATTR_MCP_METHOD_NAME],
    [ATTR.mcpProtocolVersion, incubating.ATTR_MCP_PROTOCOL_VERSION],
    [ATTR.jsonrpcRequestId, incubating.ATTR_JSONRPC_REQUEST_ID],
    [ATTR.genAiToolName, incubating.ATTR_GEN_AI_TOOL_NAME],
    [ATTR.genAiOperationName, incubating.ATTR_GEN_AI_OPERATION_NAME],
  ])('%s', (ours, theirs) => {
    expect(ours).toBe(theirs);
  });
});

describe("a forge request's url.full path (D46)", () => {
  test.each([
    ['/projects/acme%2Fplatform%2Fapi/issues?search=needle&state=opened', '/projects/{}/issues'],
    ['/projects/42/repository/files/docs%2FREADME.md/raw?ref=v1.2', '/projects/{}/repository/files/{}/raw'],
    ['/projects/42/repository/commits/0123abcdef/diff', '/projects/{}/repository/commits/{}/diff'],
    ['/projects/42/merge_requests/7/notes', '/projects/{}/merge_requests/{}/notes'],
    ['/user', '/user'],
  ])('%s → %s', (path, traced) => {
    expect(tracedPath(path)).toBe(traced);
  });
});

describe("url.full's path, against its rule written plainly", () => {
  // The rule: split at '/', keep an empty segment or a lowercase word (`[a-z][a-z_]*`), write any
  // other segment as `{}`, drop the query. tracedPath does it in one regular expression.
  const plainly = (path: string) =>
    path
      .split('?')[0]!
      .split('/')
      .map((segment) => (segment === '' || /^[a-z][a-z_]*$/.test(segment) ? segment : '{}'))
      .join('/');
  test('20,000 paths made of the characters that matter agree', () => {
    const alphabet = ['a', 'z', '_', '/', '/', '1', 'A', '%', '.', '-', 'é', '?', '{', '}', ' ', '\n', '\u2028', '\ud800'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 20_000; i++) {
      let path = '';
      for (let j = next() % 16; j > 0; j--) path += alphabet[next() % alphabet.length];
      expect(tracedPath(path)).toBe(plainly(path));
    }
  });
});

describe('free when off (D46)', () => {
  test('a server started without OTEL_* has loaded no OpenTelemetry module; with an endpoint it has', async () => {
    const loaded = async (env: Record<string, string>) => {
      const script = `await import(${JSON.stringify(ENTRY)}); console.log(Object.keys(require.cache).filter((k) => k.includes('@opentelemetry')).length); process.exit(0);`;
      const proc = Bun.spawn(['bun', '-e', script], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...HTTP, PORT: '0', ...env },
        stdout: 'pipe',
        stderr: 'ignore',
      });
      const out = await new Response(proc.stdout).text();
      await proc.exited;
      return Number(out.trim());
    };
    expect(await loaded({})).toBe(0);
    // The probe can see them: the same start with an endpoint (nothing listens there; nothing is sent before a span ends).
    expect(await loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toBeGreaterThan(0);
  });
});
