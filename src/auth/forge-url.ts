// Which forge a caller may name in X-Forge-API-URL (SPEC dynamic API URL rules 2–4, DECISIONS D8).
// The URL must be plain http(s) — no credentials, query, fragment or backslash, and a host written
// the way the URL parser reads it (no percent-encoding, no numeric IP tricks such as 0x7f.0.0.1).
// Its host and effective port must be those of a FORGE_API_URL entry or of a FORGE_ALLOWED_HOSTS
// entry (an entry without a port allows https on 443 only). Case and a trailing dot are ignored.
// The answer is the normalized API URL, so a caller's token only goes to a host the deployment allows.
import { normalizeApiUrl } from '../forge/api-url';

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

const bareName = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');

/** `name:port` with the scheme's default port filled in. */
function hostKey(url: URL): string {
  return `${bareName(url.hostname)}:${url.port || DEFAULT_PORT[url.protocol]}`;
}

function entryKey(entry: string): string | undefined {
  const text = entry.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  if (!text) return undefined;
  try {
    const url = new URL(`https://${text}`);
    const explicitPort = /:(\d+)$/.exec(text)?.[1];
    return `${bareName(url.hostname)}:${explicitPort ?? '443'}`;
  } catch {
    return undefined;
  }
}

export type ForgeUrlPolicy = (raw: string) => string | undefined;

export function createForgeUrlPolicy(configuredApiUrls: readonly string[], allowedHosts: readonly string[] = []): ForgeUrlPolicy {
  const allowed = new Set<string>(configuredApiUrls.map((u) => hostKey(new URL(u))));
  for (const entry of allowedHosts) {
    const key = entryKey(entry);
    if (key) allowed.add(key);
  }

  return (raw) => {
    const text = raw.trim();
    if (text.includes('\\')) return undefined;
    const authority = /^https?:\/\/([^/?#]*)/i.exec(text)?.[1];
    if (authority === undefined || authority.includes('%') || authority.includes('@')) return undefined;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (url.username || url.password || url.search || url.hash) return undefined;
    // The host as written must be the host as parsed: refuses encodings the parser rewrites.
    const writtenHost = authority.toLowerCase().replace(/:\d*$/, '');
    if (bareName(writtenHost) !== bareName(url.hostname)) return undefined;
    if (!allowed.has(hostKey(url))) return undefined;
    const port = url.port ? `:${url.port}` : '';
    return normalizeApiUrl(`${url.protocol}//${bareName(url.hostname)}${port}${url.pathname}`);
  };
}
