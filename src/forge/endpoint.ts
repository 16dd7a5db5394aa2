// One forge API URL with the fetch options for its origin (proxy, TLS), built once and reused
// by every request to it: Bun keeps connections alive per origin by itself, so these options are
// what the "pool client" of docs/spec.md amounts to (the pool shares them among path variants of an
// origin, D7).
import { rootCertificates } from 'node:tls';

/** FORGE_MAX_RESPONSE_BYTES' default, for endpoints built without the setting (tests, tools). */
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface ForgeEndpointOptions {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: readonly string[];
  /** PEM text of extra trusted CAs, read once at start-up (trusted beside the public roots). */
  caCert?: string;
  rejectUnauthorized: boolean;
  /** FORGE_REQUEST_TIMEOUT_MS. */
  timeoutMs: number;
  /** FORGE_MAX_RESPONSE_BYTES (D30); DEFAULT_MAX_RESPONSE_BYTES when absent. */
  maxResponseBytes?: number;
  /** Called after every upstream attempt with its status (or 'error'), duration and GraphQL operation name (D45). */
  observe?: (status: number | 'error', seconds: number, operation?: string) => void;
}

export interface ForgeEndpoint {
  readonly apiUrl: string;
  /** `scheme://host[:port]` of apiUrl: what the pool keys its clients by. */
  readonly origin: string;
  /** The URL path of apiUrl as the URL parser reads it (`/api/v4`): every request path goes below it. */
  readonly apiPath: string;
  /** Extra options merged into every fetch to this forge. */
  readonly fetchOptions: Readonly<Record<string, unknown>>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly observe?: (status: number | 'error', seconds: number, operation?: string) => void;
}

function bypassesProxy(hostname: string, noProxy: readonly string[] = []): boolean {
  const host = hostname.toLowerCase();
  return noProxy.some((raw) => {
    const entry = raw.toLowerCase().replace(/:\d+$/, '');
    if (entry === '*') return true;
    const bare = entry.startsWith('.') ? entry.slice(1) : entry;
    return host === bare || host.endsWith(`.${bare}`);
  });
}

/** The fetch options for one origin: its proxy (or none) and TLS trust. */
export function fetchOptionsFor(apiUrl: string, options: ForgeEndpointOptions): Readonly<Record<string, unknown>> {
  const url = new URL(apiUrl);
  const fetchOptions: Record<string, unknown> = {};
  const proxy = url.protocol === 'https:' ? options.httpsProxy : options.httpProxy;
  if (proxy && !bypassesProxy(url.hostname, options.noProxy)) fetchOptions.proxy = proxy;
  if (url.protocol === 'https:' && (options.caCert || !options.rejectUnauthorized)) {
    fetchOptions.tls = {
      rejectUnauthorized: options.rejectUnauthorized,
      // A `ca` option replaces the default trust store: keep the public roots beside the extra CA.
      ...(options.caCert ? { ca: [...rootCertificates, options.caCert] } : {}),
    };
  }
  return Object.freeze(fetchOptions);
}

/** An endpoint for `apiUrl`; `fetchOptions` are shared when the pool already holds them for its origin. */
export function createEndpoint(apiUrl: string, options: ForgeEndpointOptions, fetchOptions = fetchOptionsFor(apiUrl, options)): ForgeEndpoint {
  const url = new URL(apiUrl);
  return Object.freeze({
    apiUrl,
    origin: url.origin,
    // apiUrl is normalized (api-url.ts): no trailing slash, so `https://h` has the path ''.
    apiPath: url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname,
    fetchOptions,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    observe: options.observe,
  });
}
