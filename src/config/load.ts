// loadConfig(env, argv): environment first, then --dashed-flags (the flag wins, D2),
// each value coerced and checked against its schema, then the cross-field rules. Pure: the
// caller passes the environment in; nothing else in the server reads it.
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { DEFAULT_SET, DEFAULT_TOOLS, TOOLSET_NAMES } from '../tools/default-set';
import { NAMED_ONLY_GROUPS, TOOL_GROUPS, type ToolGroup } from '../tools/groups';
import { ConfigSchema, SETTING_NAMES, flagName, settingSchema, type SettingName, type Settings } from './schema';
import { normalizeApiUrl } from '../forge/api-url';
import { redisUrlProblem } from '../store/redis-url';
import type { TracingSettings } from '../tracing/span';

/**
 * A refusal is one line (D2): line breaks and other control characters a value or flag brought along
 * are written as escapes, so they can neither split the line nor forge another one.
 */
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
export const oneLine = (text: string) =>
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(oneLine(`${setting}: ${problem}`));
  }
}

/**
 * A URL-like value as a refusal shows it: what comes before an `@` may be a user and password (D5:
 * nothing secret is logged), so it is left out, whether or not the value parses as a URL.
 */
function withoutUserinfo(value: string): string {
  const at = value.lastIndexOf('@');
  if (at === -1) return value;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/*/.exec(value)?.[0] ?? '';
  return `${scheme}***@${value.slice(at + 1)}`;
}

export interface Config extends Readonly<Settings> {
  /** FORGE_API_URL entries, normalized to end with /api/v4; the first is the default forge. */
  readonly forgeApiUrls: readonly string[];
  /** Tool groups exposed whole, from FORGE_TOOLSETS and USE_MILESTONE (D13). */
  readonly toolGroups: ReadonlySet<ToolGroup>;
  /** Tools exposed by name besides those groups: the default set's when FORGE_TOOLSETS is unset or names it (D40). */
  readonly toolNames: ReadonlySet<string>;
  /** Inactivity timeout of sealed session ids, in seconds. */
  readonly statelessSessionTtlSeconds: number;
  /** Proxies in front of the server (MCP_TRUST_PROXY): 0 means the socket address is the client. */
  readonly trustedProxies: number;
  /** Settings given but without effect in this mode, for the start-up log (D2: never silently ignored). */
  readonly warnings: readonly string[];
  /** Tracing, when the OTEL_* settings turn it on (D46); absent: off, and nothing of it is loaded. */
  readonly tracing?: TracingSettings;
}

const FLAG_TO_SETTING = new Map(SETTING_NAMES.map((name) => [flagName(name), name]));

/** True when argv asks for the settings table instead of a server. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** True when argv asks to probe a running server's /healthz instead of starting one. */
export function wantsHealthcheck(argv: readonly string[]): boolean {
  return argv.includes('--healthcheck');
}

/**
 * PORT alone (environment, then --port), checked as loadConfig checks it. For --healthcheck: the
 * probe runs with the server's environment, and a setting it does not need must not make a
 * healthy server look down.
 */
export function loadPort(env: Record<string, string | undefined>, argv: readonly string[] = []): number {
  const schema = settingSchema('PORT');
  const text = rawValues(
    env,
    argv.filter((arg) => arg !== '--healthcheck'),
  ).get('PORT');
  const value = text === undefined ? schema.default : coerce('PORT', schema, text);
  if (!Value.Check(schema, value)) throw new ConfigError('PORT', describeProblem(schema, text ?? String(value)));
  return value as number;
}

/**
 * Collects raw string values: environment first, flags override. An empty value counts as not
 * given, in the environment and as a flag alike (`FORGE_TOOLSETS=` and `--forge-toolsets=` both
 * leave the setting to the next source or its default; docs/decisions.md D2): a flag is the same
 * setting under another name, so it must not read an empty value differently.
 */
function rawValues(env: Record<string, string | undefined>, argv: readonly string[]): Map<SettingName, string> {
  const raw = new Map<SettingName, string>();
  for (const name of SETTING_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== '') raw.set(name, value);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') continue;
    if (!arg.startsWith('--')) throw new ConfigError(arg, 'unexpected argument; settings are given as --name=value');
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const name = FLAG_TO_SETTING.get(flag);
    if (!name) throw new ConfigError(flag, 'unknown flag (see --help)');
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    else if (settingSchema(name).type === 'boolean') value = 'true';
    else throw new ConfigError(name, `flag ${flag} needs a value`);
    if (value !== '') raw.set(name, value);
  }
  return raw;
}

function coerce(name: SettingName, schema: TSchema, text: string): unknown {
  switch (schema.type) {
    case 'boolean': {
      const v = text.trim().toLowerCase();
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      throw new ConfigError(name, `must be true, false, 1 or 0 (got "${text}")`);
    }
    case 'integer': {
      if (!/^-?\d+$/.test(text.trim())) throw new ConfigError(name, `must be a whole number (got "${text}")`);
      return Number(text.trim());
    }
    case 'array':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    default:
      return text;
  }
}

function describeProblem(schema: TSchema, shown: string): string {
  if (schema.type === 'integer') return `must be between ${schema.minimum} and ${schema.maximum} (got ${shown})`;
  if (schema.anyOf) return `must be one of ${schema.anyOf.map((s: TSchema) => s.const).join(', ')} (got "${shown}")`;
  if (schema.format === 'url') return `must be an http(s) URL (got "${withoutUserinfo(shown)}")`;
  if (schema.hint) return `${schema.hint} (got "${shown}")`;
  if (schema.minLength) return 'must not be empty';
  return `invalid value "${shown}"`;
}

function decodedSecretLength(value: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return undefined;
  return Buffer.from(value, 'base64url').length;
}

function checkSecret(name: SettingName, value: string | undefined): void {
  if (value === undefined) return;
  const bytes = decodedSecretLength(value);
  if (bytes === undefined) throw new ConfigError(name, 'must be base64url text');
  if (bytes < 32) throw new ConfigError(name, `must decode to at least 32 bytes (got ${bytes})`);
}

function requireSetting(s: Settings, name: SettingName, because: string): void {
  const value = s[name];
  if (value === undefined || value === false) throw new ConfigError(name, `required ${because}`);
}

/** Combinations that cannot work stop start-up (D2). */
function checkCrossRules(s: Settings): void {
  if (s.REMOTE_AUTHORIZATION) requireSetting(s, 'STREAMABLE_HTTP', 'when REMOTE_AUTHORIZATION=true');
  if (s.MCP_SERVER_URL !== undefined && /\/mcp\/*$/i.test(new URL(s.MCP_SERVER_URL).pathname)) {
    throw new ConfigError('MCP_SERVER_URL', `is the server's base URL: drop the trailing /mcp (got "${withoutUserinfo(s.MCP_SERVER_URL)}")`);
  }
  if (s.OAUTH_STATELESS_SECRET_PREVIOUS !== undefined && s.OAUTH_STATELESS_SECRET === undefined) {
    throw new ConfigError('OAUTH_STATELESS_SECRET_PREVIOUS', 'needs OAUTH_STATELESS_SECRET (the previous secret only reads values the current one replaced)');
  }
  if (s.FORGE_MCP_OAUTH) {
    requireSetting(s, 'STREAMABLE_HTTP', 'when FORGE_MCP_OAUTH=true');
    requireSetting(s, 'MCP_SERVER_URL', 'when FORGE_MCP_OAUTH=true');
    requireSetting(s, 'FORGE_OAUTH_CLIENT_ID', 'when FORGE_MCP_OAUTH=true');
  }
  if (s.FORGE_OAUTH_CLIENT_SECRET !== undefined && s.FORGE_OAUTH_CLIENT_ID === undefined) {
    throw new ConfigError('FORGE_OAUTH_CLIENT_SECRET', 'needs FORGE_OAUTH_CLIENT_ID');
  }
  if (s.ENABLE_DYNAMIC_API_URL) {
    requireSetting(s, 'REMOTE_AUTHORIZATION', 'when ENABLE_DYNAMIC_API_URL=true');
  }
  if (s.OAUTH_STATELESS_MODE) {
    requireSetting(s, 'STREAMABLE_HTTP', 'when OAUTH_STATELESS_MODE=true');
    if (!s.REMOTE_AUTHORIZATION && !s.FORGE_MCP_OAUTH) {
      throw new ConfigError('REMOTE_AUTHORIZATION', 'required when OAUTH_STATELESS_MODE=true (the static-token arrangement cannot be stateless)');
    }
    requireSetting(s, 'OAUTH_STATELESS_SECRET', 'when OAUTH_STATELESS_MODE=true');
  }
  checkSecret('OAUTH_STATELESS_SECRET', s.OAUTH_STATELESS_SECRET);
  checkSecret('OAUTH_STATELESS_SECRET_PREVIOUS', s.OAUTH_STATELESS_SECRET_PREVIOUS);
  const usesStaticToken = !s.STREAMABLE_HTTP || (!s.REMOTE_AUTHORIZATION && !s.FORGE_MCP_OAUTH);
  if (usesStaticToken) {
    const mode = s.STREAMABLE_HTTP ? 'for HTTP without REMOTE_AUTHORIZATION or FORGE_MCP_OAUTH' : 'for stdio (STREAMABLE_HTTP=false)';
    requireSetting(s, 'FORGE_PERSONAL_ACCESS_TOKEN', mode);
  }
  // D37: judged here, before anything connects; the problem never repeats the value (it may hold a password).
  const redisProblem = s.REDIS_URL === undefined ? undefined : redisUrlProblem(s.REDIS_URL);
  if (redisProblem) throw new ConfigError('REDIS_URL', redisProblem);
  // A value of commas or spaces names no group: a server without tools is a mistake, not a choice
  // (an empty value is not given at all, and means the default).
  const known = `known: ${TOOL_GROUPS.join(', ')}, all, ${DEFAULT_SET}`;
  if (s.FORGE_TOOLSETS.length === 0) throw new ConfigError('FORGE_TOOLSETS', `names no tool group (${known})`);
  for (const group of s.FORGE_TOOLSETS) {
    if (group !== 'all' && !TOOLSET_NAMES.has(group)) {
      throw new ConfigError('FORGE_TOOLSETS', `unknown tool group "${group}" (${known})`);
    }
  }
}

/** Settings that were given but do nothing in the chosen mode: said at start-up, not silently dropped. */
function ignoredSettings(s: Settings): string[] {
  const warnings: string[] = [];
  const callersBringTokens = s.STREAMABLE_HTTP && (s.REMOTE_AUTHORIZATION || s.FORGE_MCP_OAUTH);
  if (s.FORGE_PERSONAL_ACCESS_TOKEN !== undefined && callersBringTokens) {
    warnings.push('FORGE_PERSONAL_ACCESS_TOKEN is ignored: with REMOTE_AUTHORIZATION or FORGE_MCP_OAUTH every caller brings its own credential');
  }
  if (s.FORGE_ALLOWED_HOSTS !== undefined && !s.ENABLE_DYNAMIC_API_URL) {
    warnings.push('FORGE_ALLOWED_HOSTS is ignored without ENABLE_DYNAMIC_API_URL=true');
  }
  if (!s.FORGE_MCP_OAUTH && (s.FORGE_OAUTH_CLIENT_ID !== undefined || s.FORGE_OAUTH_CLIENT_SECRET !== undefined)) {
    warnings.push('FORGE_OAUTH_CLIENT_ID and FORGE_OAUTH_CLIENT_SECRET are ignored without FORGE_MCP_OAUTH=true');
  }
  if (tracingWanted(s) && !s.STREAMABLE_HTTP) {
    warnings.push('OTEL_* tracing is ignored for stdio (STREAMABLE_HTTP=false): it traces HTTP requests');
  }
  if (s.REDIS_URL !== undefined && !s.STREAMABLE_HTTP) {
    warnings.push('REDIS_URL is ignored for stdio (STREAMABLE_HTTP=false): one process shares nothing');
  }
  return warnings;
}

/**
 * OTEL_EXPORTER_OTLP_HEADERS: `key=value` pairs, comma-separated, values URL-encoded (OpenTelemetry's
 * environment specification). A malformed one is refused naming the pair's position only: the
 * value is usually an API key.
 */
function otlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (text === undefined) return headers;
  const pairs = text.split(',');
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i].trim();
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = eq === -1 ? '' : pair.slice(0, eq).trim();
    let value: string | undefined;
    try {
      value = eq === -1 ? undefined : decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      value = undefined;
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key) || value === undefined || /[\r\n\0]/.test(value)) {
      throw new ConfigError('OTEL_EXPORTER_OTLP_HEADERS', `pair ${i + 1} is not key=value with a header name and a URL-encoded value (the value is not shown)`);
    }
    headers[key] = value;
  }
  return headers;
}

/** Whether the OTEL_* settings ask for traces: an OTLP endpoint or exporter named, and nothing turning them off. */
function tracingWanted(s: Settings): boolean {
  if (s.OTEL_SDK_DISABLED || s.OTEL_TRACES_EXPORTER === 'none') return false;
  return s.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined || s.OTEL_TRACES_EXPORTER === 'otlp';
}

/**
 * D46: tracing is on when an OTLP endpoint is given or OTEL_TRACES_EXPORTER=otlp, and off when
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever else is set. Unlike OpenTelemetry's
 * own default (otlp to localhost), nothing is sent where nobody asked for traces.
 */
function tracingOf(s: Settings): TracingSettings | undefined {
  const headers = otlpHeaders(s.OTEL_EXPORTER_OTLP_HEADERS);
  // stdio has no requests to trace (ignoredSettings says so at start-up).
  if (!tracingWanted(s) || !s.STREAMABLE_HTTP) return undefined;
  const endpoint = s.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url = s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (endpoint === undefined ? undefined : `${endpoint.replace(/\/+$/, '')}/v1/traces`);
  // OpenTelemetry would shrink the batch to the queue with a diagnostic; a setting is never
  // silently not what it says (D2).
  if (s.OTEL_BSP_MAX_EXPORT_BATCH_SIZE > s.OTEL_BSP_MAX_QUEUE_SIZE) {
    throw new ConfigError('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', `must be at most OTEL_BSP_MAX_QUEUE_SIZE (${s.OTEL_BSP_MAX_QUEUE_SIZE})`);
  }
  return {
    url: url ?? 'http://localhost:4318/v1/traces',
    headers,
    serviceName: s.OTEL_SERVICE_NAME,
    sampler: s.OTEL_TRACES_SAMPLER,
    ratio: s.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(s.OTEL_TRACES_SAMPLER_ARG),
    batch: {
      scheduledDelayMillis: s.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMillis: s.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: s.OTEL_BSP_MAX_QUEUE_SIZE,
      maxExportBatchSize: s.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    },
  };
}

function trustedProxiesOf(value: string): number {
  if (value === 'true') return 1;
  if (value === 'false') return 0;
  return Number(value);
}

function toolGroupsOf(s: Settings): Set<ToolGroup> {
  // `all` is every group but the named-only ones (CI/CD variables hold secrets); naming one adds it.
  const named = s.FORGE_TOOLSETS.filter((g) => g !== 'all' && g !== DEFAULT_SET) as ToolGroup[];
  const all = s.FORGE_TOOLSETS.includes('all') ? TOOL_GROUPS.filter((g) => !NAMED_ONLY_GROUPS.includes(g)) : [];
  const groups = new Set<ToolGroup>([...all, ...named]);
  if (s.USE_MILESTONE) groups.add('milestones');
  return groups;
}

export function loadConfig(env: Record<string, string | undefined>, argv: readonly string[] = []): Config {
  const raw = rawValues(env, argv);
  const settings: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const schema = settingSchema(name);
    const text = raw.get(name);
    const value = text === undefined ? schema.default : coerce(name, schema, text);
    if (value === undefined) continue;
    if (!Value.Check(schema, value)) throw new ConfigError(name, describeProblem(schema, text ?? String(value)));
    settings[name] = value;
  }
  const s = settings as Settings;
  if (!Value.Check(ConfigSchema, s)) throw new ConfigError('config', 'invalid settings');
  checkCrossRules(s);
  if (s.FORGE_API_URL.length === 0) throw new ConfigError('FORGE_API_URL', 'needs at least one URL');
  const forgeApiUrls = s.FORGE_API_URL.map((url) => {
    const normalized = normalizeApiUrl(url);
    if (!normalized) throw new ConfigError('FORGE_API_URL', `must be http(s) URLs without credentials (got "${withoutUserinfo(url)}")`);
    return normalized;
  });
  return Object.freeze({
    ...s,
    forgeApiUrls: Object.freeze(forgeApiUrls),
    toolGroups: toolGroupsOf(s),
    toolNames: s.FORGE_TOOLSETS.includes(DEFAULT_SET) ? DEFAULT_TOOLS : new Set<string>(),
    statelessSessionTtlSeconds: s.OAUTH_STATELESS_SESSION_TTL_SECONDS ?? s.SESSION_TIMEOUT_SECONDS,
    trustedProxies: trustedProxiesOf(s.MCP_TRUST_PROXY),
    warnings: Object.freeze(ignoredSettings(s)),
    tracing: tracingOf(s),
  });
}
