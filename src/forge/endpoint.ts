// One forge API URL with the fetch options for its origin (proxy, TLS), built once and reused
// by every request to it: Bun keeps connections alive per origin by itself, so this object is
// what the "pool client" of SPEC amounts to.
import { rootCertificates } from 'node:tls';

export interface ForgeEndpointOptions {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: readonly string[];
  /** PEM text of extra trusted CAs, read once at start-up (trusted beside the public roots). */
  caCert?: string;
  rejectUnauthorized: boolean;
  timeoutMs: number;
  /** Called after every upstream attempt with its status (or 'error') and duration. */
  observe?: (status: number | 'error', seconds: number) => void;
}

export interface ForgeEndpoint {
  readonly apiUrl: string;
  /** Extra options merged into every fetch to this forge. */
  readonly fetchOptions: Readonly<Record<string, unknown>>;
  readonly timeoutMs: number;
  readonly observe?: (status: number | 'error', seconds: number) => void;
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

export function createEndpoint(apiUrl: string, options: ForgeEndpointOptions): ForgeEndpoint {
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
  return Object.freeze({ apiUrl, fetchOptions: Object.freeze(fetchOptions), timeoutMs: options.timeoutMs, observe: options.observe });
}
