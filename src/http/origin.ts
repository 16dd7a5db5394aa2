// DNS-rebinding defence (DECISIONS D12): a request with an Origin header is refused with 403
// unless that origin is loopback, the host of MCP_SERVER_URL, or listed in MCP_ALLOWED_ORIGINS.
// Requests without Origin (native clients) pass.

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
