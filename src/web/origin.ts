// DNS-rebinding defence (D12): a request with an Origin header is refused with 403
// unless that origin is loopback, the host of MCP_SERVER_URL, or listed in MCP_ALLOWED_ORIGINS.
// Requests without Origin (native clients) pass.
import { authorityOf, isLoopbackBind } from '../forge/url-parts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export type OriginPolicy = (origin: string | null) => boolean;

export function createOriginPolicy(serverUrl: string | undefined, allowed: readonly string[] = []): OriginPolicy {
  const hosts = new Set<string>();
  const origins = new Set<string>();
  if (serverUrl) hosts.add(new URL(serverUrl).hostname.toLowerCase());
  for (const entry of allowed) {
    if (entry.includes('://')) {
      try {
        origins.add(new URL(entry).origin.toLowerCase());
      } catch {
        // not a URL: ignore; config validation names the setting
      }
    } else hosts.add(entry.toLowerCase());
  }
  return (origin) => {
    if (origin === null) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const hostname = url.hostname.toLowerCase();
    if (LOOPBACK.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)) return true;
    return hosts.has(hostname) || hosts.has(url.host.toLowerCase()) || origins.has(url.origin.toLowerCase());
  };
}

export type HostPolicy = (request: Request) => boolean;

/** The host name of a Host header value (`name[:port]`, `[v6]:port`), lower-case. */
function hostnameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  const colon = trimmed.indexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/**
 * The Host half of the DNS-rebinding defence (D12): a server listening on a loopback address
 * answers only requests addressed to a loopback name, to the host of MCP_SERVER_URL or to a host
 * of MCP_ALLOWED_ORIGINS; 403 otherwise. A server listening on other addresses sits behind its
 * own names (an ingress), so the Host header is not judged there. A request built in process has
 * no Host header: its URL's host stands in.
 */
export function createHostPolicy(bindHost: string, serverUrl: string | undefined, allowed: readonly string[] = []): HostPolicy {
  if (!isLoopbackBind(bindHost)) return () => true;
  const hosts = new Set<string>();
  if (serverUrl) hosts.add(new URL(serverUrl).hostname.toLowerCase());
  for (const entry of allowed) {
    try {
      hosts.add((entry.includes('://') ? new URL(entry).hostname : hostnameOf(entry)).toLowerCase());
    } catch {
      // not a URL: ignore; config validation names the setting
    }
  }
  const judge = (host: string) => {
    const hostname = hostnameOf(host);
    return LOOPBACK.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) || hosts.has(hostname);
  };
  // Clients send the same few Host values: each is judged once (a bounded memo; the header is the
  // client's to write, so past the bound values are judged afresh rather than remembered).
  const judged = new Map<string, boolean>();
  return (request) => {
    const host = request.headers.get('host') ?? authorityOf(request.url);
    let allowed = judged.get(host);
    if (allowed === undefined) {
      allowed = judge(host);
      if (judged.size < 256 && host.length <= 255) judged.set(host, allowed);
    }
    return allowed;
  };
}
