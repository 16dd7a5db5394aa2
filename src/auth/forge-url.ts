// Which forge a caller may name in X-Forge-API-URL (docs/spec.md dynamic API URL rules 2–4, D7/D8).
// The URL must be plain http(s) — no credentials, query, fragment or backslash, and a host written
// the way the URL parser reads it (no percent-encoding, no numeric IP tricks such as 0x7f.0.0.1).
// Its scheme, host and effective port must be those of a FORGE_API_URL entry or of a
// FORGE_ALLOWED_HOSTS entry. An entry is a host, with its port where given (docs/spec.md rule 3):
//   `host`          https on 443
//   `host:8080`     that port, over http or https (docs/spec.md compares host and port only);
//   `host:443`      https only: a token meant for the TLS port never travels in clear text
//   `http://host:8080`, `https://host`   the scheme written (default port of that scheme)
// Case and a trailing dot are ignored. The answer is the normalized API URL, so a caller's token
// only goes to a host the deployment allows.
import { normalizeApiUrl } from '../forge/api-url';

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

const bareName = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');

/** `scheme//name:port` with the scheme's default port filled in. */
function originKey(url: URL): string {
  return `${url.protocol}//${bareName(url.hostname)}:${url.port || DEFAULT_PORT[url.protocol]}`;
}

/** The scheme+host+port keys a FORGE_ALLOWED_HOSTS entry allows (see the header). */
function entryKeys(entry: string): string[] {
  const text = entry.trim().toLowerCase();
  const scheme = /^(https?):\/\//.exec(text)?.[1];
  const authority = text.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  if (!authority) return [];
  let url: URL;
  try {
    url = new URL(`https://${authority}`);
  } catch {
    return [];
  }
  const name = bareName(url.hostname);
  // Parsed as https, a written port of 443 reads back as '' (the default) and a padded one as its number.
  const port = /:\d+$/.test(authority) ? url.port || '443' : undefined;
  if (scheme) return [`${scheme}://${name}:${port ?? DEFAULT_PORT[`${scheme}:`]}`];
  if (port === undefined || port === '443') return [`https://${name}:${port ?? '443'}`];
  return [`http://${name}:${port}`, `https://${name}:${port}`];
}

export type ForgeUrlPolicy = (raw: string) => string | undefined;

export function createForgeUrlPolicy(configuredApiUrls: readonly string[], allowedHosts: readonly string[] = []): ForgeUrlPolicy {
  const allowed = new Set<string>(configuredApiUrls.map((u) => originKey(new URL(u))));
  for (const entry of allowedHosts) for (const key of entryKeys(entry)) allowed.add(key);

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
    if (!allowed.has(originKey(url))) return undefined;
    const port = url.port ? `:${url.port}` : '';
    return normalizeApiUrl(`${url.protocol}//${bareName(url.hostname)}${port}${url.pathname}`);
  };
}
