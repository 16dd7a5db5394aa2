// Every setting of the server, in one TypeBox schema: name, type, default and a one-line
// description. `loadConfig` reads it, `--help` prints it and docs/configuration.md is generated
// from it, so a setting exists exactly when it is listed here.
import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';
import { DEFAULT_SET } from '../tools/default-set';
import { NAMED_ONLY_GROUPS, TOOL_GROUPS } from '../tools/groups';
import { TRACE_SAMPLERS } from '../tracing/span';

FormatRegistry.Set('url', (value) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
});

const bool = (def: boolean, description: string) => Type.Boolean({ default: def, description });
const int = (def: number, minimum: number, maximum: number, description: string) => Type.Integer({ default: def, minimum, maximum, description });
const optInt = (minimum: number, maximum: number, description: string) => Type.Optional(Type.Integer({ minimum, maximum, description }));
const optStr = (description: string, extra: object = {}) => Type.Optional(Type.String({ description, ...extra }));
// A comma-separated list in the environment; an array once loaded.
const list = (def: string[] | undefined, description: string) =>
  def === undefined ? Type.Optional(Type.Array(Type.String(), { description })) : Type.Array(Type.String(), { default: def, description });

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const ConfigSchema = Type.Object({
  // Process and HTTP
  PORT: int(3002, 0, 65535, 'TCP port of the HTTP server.'),
  HOST: Type.String({
    default: '127.0.0.1',
    minLength: 1,
    maxLength: 253,
    // A name, an IPv4 address or an IPv6 address (hex digits, colons, dots): checked before binding.
    pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$',
    hint: 'must be a host name or an IP address',
    description: 'Address the HTTP server binds to (the container image sets 0.0.0.0).',
  }),
  STREAMABLE_HTTP: bool(false, 'Serve MCP over streamable HTTP at /mcp; when false, speak MCP over stdio with FORGE_PERSONAL_ACCESS_TOKEN.'),
  MAX_REQUEST_BODY_BYTES: int(4 * 1024 * 1024, 1024, 64 * 1024 * 1024, 'Largest accepted /mcp request body in bytes; larger bodies get 413.'),
  MCP_SERVER_URL: optStr('Public base URL of this server (OAuth issuer; its host is an allowed Origin).', { format: 'url' }),
  MCP_ALLOWED_ORIGINS: list(undefined, 'Extra allowed Origin hosts or origins for browser clients (comma-separated).'),
  MCP_TRUST_PROXY: Type.String({
    default: 'false',
    pattern: '^(true|false|[0-9]{1,2})$',
    hint: 'must be true, false or a number of proxies from 0 to 99',
    description:
      'Reverse proxies in front of the server: false (use the socket address), true (one) or a number N; the client IP is the Nth X-Forwarded-For entry counted from the right.',
  }),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((l) => Type.Literal(l)),
    { default: 'info', description: 'Lowest level of the JSON log lines written to stderr.' },
  ),

  // Authorization and sessions
  REMOTE_AUTHORIZATION: bool(false, 'Every caller sends its own forge token (Authorization: Bearer, Private-Token or JOB-TOKEN); needs STREAMABLE_HTTP.'),
  FORGE_PERSONAL_ACCESS_TOKEN: optStr('Static forge token for stdio and for HTTP without remote authorization or OAuth.', { secret: true }),
  SESSION_TIMEOUT_SECONDS: int(3600, 1, 30 * 86400, 'An authenticated session expires after this many seconds without a request.'),
  MAX_SESSIONS: int(
    1000,
    1,
    1_000_000,
    'Most concurrent sessions; at the limit the least recently used session idle for 60 s or more is closed to make room, and only when none is does initialize get 503 "Server capacity reached".',
  ),
  MAX_REQUESTS_PER_MINUTE: int(
    60,
    1,
    1_000_000,
    'JSON-RPC messages per minute allowed per client IP and per session on /mcp; also requests per client IP on /register, /authorize, /consent, /callback, /token and /downloads/*, and per token on /downloads/*.',
  ),

  // Forge
  FORGE_API_URL: list(['https://gitlab.com/api/v4'], 'Forge REST API URL(s), comma-separated; the first is the default. A base URL gets /api/v4 appended.'),
  FORGE_REQUEST_TIMEOUT_MS: int(30000, 100, 600000, 'Timeout of one upstream request in milliseconds (retries included).'),
  FORGE_TOOL_TIMEOUT_MS: int(
    120000,
    100,
    3600000,
    'Budget of one whole tool call in milliseconds (every upstream request, retry and page included); past it the call fails with timeout.',
  ),
  FORGE_MAX_RESPONSE_BYTES: int(
    16 * 1024 * 1024,
    1024,
    1024 * 1024 * 1024,
    'Largest forge response body read, in bytes, declared or streamed; a larger one is abandoned and the tool fails with upstream.',
  ),
  JOB_LOG_MEMORY_BYTES: int(
    64 * 1024 * 1024,
    16 * 1024 * 1024,
    4 * 1024 * 1024 * 1024,
    'Memory all job-log reads (get_pipeline_job_output) may hold together, in bytes: each reserves its lines and 4 MiB of stream buffers; a read that does not fit waits up to FORGE_REQUEST_TIMEOUT_MS, then fails with timeout.',
  ),
  FORGE_TOOLSETS: list(
    [DEFAULT_SET],
    `Tool groups to expose: comma-separated ids (${TOOL_GROUPS.join(', ')}), all (every group but ${NAMED_ONLY_GROUPS.join(', ')}, which must be named) or ${DEFAULT_SET} (a curated set of tools for issues, merge request review, failed pipelines and files, listed in docs/tools.md; branches,issues gives the default of earlier releases).`,
  ),
  USE_MILESTONE: bool(false, 'Legacy switch: adds the milestones tool group.'),
  FORGE_READ_ONLY_MODE: bool(false, 'Expose read-only tools only, and refuse write tools at call time.'),
  MAX_RESULT_BYTES: int(
    100_000,
    1024,
    64 * 1024 * 1024,
    'Largest tool result in bytes (about 25k tokens by default); a larger one is cut at a whole item and says truncated: true with how to get the rest.',
  ),
  FORGE_ALLOW_QUICK_ACTIONS: bool(
    false,
    'Let text written through the tools (descriptions, comments) hold GitLab quick actions such as /close; by default such a line is refused.',
  ),
  FORGE_CONFIRM_DESTRUCTIVE: bool(
    true,
    'Ask the user before a tool that deletes or removes protection runs, where the client can ask (2026-07-28: an input_required result; 2025 sessions: elicitation). Off for unattended agents.',
  ),
  FORGE_CONFIRM_TTL_SECONDS: int(300, 10, 3600, 'How long a confirmation question stays answerable; a later answer is asked again.'),
  AUDIT_LOG_PATH: optStr('File the audit line of every tool call is appended to (JSON lines); unset: the audit lines go to the log at info.', {
    minLength: 1,
    maxLength: 4096,
  }),

  // Attachment downloads (/downloads/attachment)
  DOWNLOAD_MAX_BYTES: int(
    50 * 1024 * 1024,
    1024,
    10 * 1024 * 1024 * 1024,
    'Largest attachment /downloads/attachment passes on, in bytes; larger ones get 413.',
  ),
  DOWNLOAD_TOKEN_TTL_SECONDS: int(900, 10, 86400, 'Lifetime of the download links placed in tool results (sealed _token).'),

  // Dynamic forge URL and upstream pool
  ENABLE_DYNAMIC_API_URL: bool(false, 'Let each session name its forge in X-Forge-API-URL; needs REMOTE_AUTHORIZATION and STREAMABLE_HTTP.'),
  FORGE_ALLOWED_HOSTS: list(
    undefined,
    'Extra forges allowed in X-Forge-API-URL, comma-separated: host (https on 443), host:port (http or https on that port; host:443 https only), or with an explicit http:// or https:// scheme (that scheme only).',
  ),
  FORGE_POOL_MAX_SIZE: int(
    100,
    1,
    100000,
    'Most upstream pool clients (one per forge origin: scheme, host and port); the least recently used idle one is evicted.',
  ),
  FORGE_POOL_IDLE_TIMEOUT: int(300000, 1000, 86400000, 'Milliseconds after which an idle pool client is removed.'),
  FORGE_POOL_CLEANUP_INTERVAL: int(60000, 1000, 86400000, 'Milliseconds between sweeps for idle pool clients.'),
  HTTP_PROXY: optStr('Proxy URL for http:// forge requests.', { format: 'url' }),
  HTTPS_PROXY: optStr('Proxy URL for https:// forge requests.', { format: 'url' }),
  NO_PROXY: list(undefined, 'Forge hosts reached without the proxy (comma-separated; a leading dot matches subdomains).'),
  FORGE_CA_CERT_PATH: optStr('PEM file of extra CA certificates trusted for forge requests, and for a rediss:// REDIS_URL (read once at start-up).'),
  RUNTIME_TLS_REJECT_UNAUTHORIZED: bool(true, 'Set to 0 to disable TLS certificate verification of forge requests (not recommended).'),

  // OAuth mode
  FORGE_MCP_OAUTH: bool(false, 'OAuth mode: callers sign in through the forge; serves discovery, /register, /authorize, /callback and /token.'),
  FORGE_OAUTH_CLIENT_ID: optStr("Client id of this server's OAuth application at the forge (OAuth mode)."),
  FORGE_OAUTH_CLIENT_SECRET: optStr('Client secret of that application, if it is confidential (OAuth mode).', { secret: true }),
  MCP_OAUTH_CONSENT: bool(true, 'Show a consent page before redirecting to the forge (OAuth mode).'),
  OAUTH_CIMD_ENABLED: bool(
    true,
    "Accept Client ID Metadata Documents: a client_id that is an https URL, whose document the server fetches from the client's host. false: no such fetch is ever made (air-gapped deployments); the metadata no longer advertises them, such a client_id is refused with invalid_client, and clients register at /register or use pre-registered ids.",
  ),
  OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: bool(
    false,
    'Local testing only: also fetch Client ID Metadata Documents from loopback hosts, over plain http too (http://127.0.0.1…, http://localhost…). Never in production.',
  ),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(3600, 60, 86400, "Lifetime of an access token this server issues (v1.at.); never past the forge token's own expiry."),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: int(2592000, 60, 365 * 86400, 'Lifetime of a refresh token this server issues (v1.rt.); rotated and single-use.'),

  // Stateless multi-replica mode
  OAUTH_STATELESS_MODE: bool(false, 'Carry all session and OAuth state in sealed values so any replica can serve any request.'),
  OAUTH_STATELESS_SECRET: optStr(
    'Sealing secret shared by all replicas: base64url of at least 32 bytes. Also keys the OAuth tokens this server issues, in stateful mode too, so they survive a restart.',
    { secret: true },
  ),
  OAUTH_STATELESS_SECRET_PREVIOUS: optStr('Previous sealing secret, accepted for reading only during a rotation.', { secret: true }),
  OAUTH_STATELESS_CLIENT_TTL_SECONDS: int(
    86400,
    1,
    365 * 86400,
    'Maximum age of a client registration (a signed v1.cid. client_id in stateless mode) for starting a sign-in; the refresh tokens issued under it outlive it (D23).',
  ),
  OAUTH_STATELESS_PENDING_TTL_SECONDS: int(600, 1, 86400, 'Maximum age of a sealed OAuth state (v1.ps.).'),
  OAUTH_STATELESS_STORED_TTL_SECONDS: int(120, 1, 86400, 'Maximum age of a sealed proxy code (v1.pc.).'),
  OAUTH_STATELESS_SESSION_TTL_SECONDS: optInt(1, 30 * 86400, 'Inactivity timeout of a sealed Mcp-Session-Id (v1.sid.); defaults to SESSION_TIMEOUT_SECONDS.'),

  // Shared state across replicas (D37)
  REDIS_URL: optStr(
    'Redis or Valkey shared by all replicas: redis://[user:password@]host[:port][/db], or rediss:// for TLS (trusting FORGE_CA_CERT_PATH too). Holds single use of proxy codes and refresh tokens, rate-limit windows (then applied in stateless mode too, across replicas), the credential check cache and client metadata documents. Unset: process memory.',
    { secret: true },
  ),
  REDIS_TIMEOUT_MS: int(
    500,
    10,
    10000,
    'Longest wait for one call to the REDIS_URL store, in milliseconds; past it the call counts as failed (sign-ins answer 503, rate limits are not applied).',
  ),

  // Tracing (D46): OpenTelemetry's standard variables; off unless an OTLP endpoint or OTEL_TRACES_EXPORTER=otlp is given
  OTEL_SDK_DISABLED: bool(false, 'true: no tracing, whatever the other OTEL_* settings say.'),
  OTEL_TRACES_EXPORTER: Type.Optional(
    Type.Union([Type.Literal('otlp'), Type.Literal('none')], {
      description:
        'otlp: send traces over OTLP/HTTP (to http://localhost:4318 unless an endpoint is set); none: no tracing. Unset: tracing is on exactly when an OTLP endpoint is set.',
    }),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optStr('Base URL of the OTLP/HTTP receiver (a collector); traces go to its /v1/traces. Setting it turns tracing on.', {
    format: 'url',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optStr(
    'Full URL traces are sent to, used as given; wins over OTEL_EXPORTER_OTLP_ENDPOINT. Setting it turns tracing on.',
    {
      format: 'url',
    },
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: Type.Optional(
    Type.Union([Type.Literal('http/json')], { description: 'OTLP encoding: http/json is what this server sends (grpc and http/protobuf are not built in).' }),
  ),
  OTEL_EXPORTER_OTLP_HEADERS: optStr(
    'Headers sent with every export, as key=value pairs, comma-separated, values URL-encoded (a receiver API key); never logged.',
    { secret: true },
  ),
  OTEL_SERVICE_NAME: Type.String({ default: 'forge-mcp', minLength: 1, maxLength: 255, description: 'service.name of the traces.' }),
  OTEL_TRACES_SAMPLER: Type.Union(
    TRACE_SAMPLERS.map((s) => Type.Literal(s)),
    {
      default: 'parentbased_always_on',
      description: "Which requests are traced: parentbased_* follows the client's traceparent sampled flag and applies the rest to requests without one.",
    },
  ),
  OTEL_TRACES_SAMPLER_ARG: optStr('Ratio of the traceidratio samplers, from 0 to 1 (default 1).', {
    pattern: '^(0(\\.[0-9]+)?|1(\\.0+)?|\\.[0-9]+)$',
    hint: 'must be a number from 0 to 1',
  }),
  // The batch span processor (OpenTelemetry's OTEL_BSP_* with their specified defaults): spans are
  // queued and sent in batches, never one request per span; a full queue drops new spans.
  OTEL_BSP_SCHEDULE_DELAY: int(5000, 1, 600_000, 'Longest wait, in milliseconds, before queued spans are sent (a full batch goes at once).'),
  OTEL_BSP_EXPORT_TIMEOUT: int(30_000, 1, 600_000, 'Longest an export of one batch may take, in milliseconds.'),
  OTEL_BSP_MAX_QUEUE_SIZE: int(2048, 1, 100_000, 'Spans held waiting to be sent; beyond it new spans are dropped.'),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: int(512, 1, 100_000, 'Spans sent in one export request; at most OTEL_BSP_MAX_QUEUE_SIZE.'),
});

export type Settings = Static<typeof ConfigSchema>;
export type SettingName = keyof Settings;

/** The schema of one setting, for coercion, help and docs. */
export function settingSchema(name: SettingName): TSchema {
  return ConfigSchema.properties[name] as TSchema;
}

export const SETTING_NAMES = Object.keys(ConfigSchema.properties) as SettingName[];

/** `OAUTH_STATELESS_MODE` → `--oauth-stateless-mode` (D2). */
export function flagName(name: SettingName): string {
  return `--${name.toLowerCase().replaceAll('_', '-')}`;
}
