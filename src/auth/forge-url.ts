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

type ForgeUrlPolicy = (raw: string) => string | undefined;

/**
 * Why a value was refused, told to the caller (D8): fixed texts about the value's form or about
 * what the deployment allows, never any part of the value (its userinfo, query or host may hold a
 * secret). A caller who brings a credential learns whether a host is allowed at all and on which
 * port (D8: only such a caller has the URL judged).
 */
export const FORGE_URL_REFUSALS = {
  notUrl: 'not an absolute http(s) URL',
  scheme: 'the scheme must be http or https',
  userinfo: 'it holds a user name or password; credentials go in headers, never in the URL',
  queryOrFragment: 'it holds a query or a fragment; give the forge base or API URL only',
  backslash: 'it holds a backslash',
  encodedHost: 'its host is percent-encoded or written in a form the URL parser rewrites',
  host: 'its host is not an allowed forge (FORGE_API_URL, FORGE_ALLOWED_HOSTS)',
  port: 'its port is not allowed for that host',
  schemeForHost: 'its scheme is not allowed for that host and port',
  /** No port written (the scheme's default), and the host allowed over the other scheme at its default. */
  schemeOnly: 'its scheme is not allowed for that host',
} as const;

export type ForgeUrlRefusal = (typeof FORGE_URL_REFUSALS)[keyof typeof FORGE_URL_REFUSALS];

export type ForgeUrlVerdict = { apiUrl: string } | { refused: ForgeUrlRefusal };

/** The scheme, host and port an allowed set holds for a URL that matched none of its keys. */
function nearestRefusal(allowed: ReadonlySet<string>, url: URL): ForgeUrlRefusal {
  const name = bareName(url.hostname);
  const port = url.port || DEFAULT_PORT[url.protocol];
  let hostKnown = false;
  let otherSchemeAtItsDefault = false;
  for (const key of allowed) {
    const parsed = /^(https?:)\/\/(.*):(\d+)$/.exec(key);
    if (!parsed || parsed[2] !== name) continue;
    if (parsed[3] === port) return FORGE_URL_REFUSALS.schemeForHost;
    hostKnown = true;
    if (parsed[1] !== url.protocol && parsed[3] === DEFAULT_PORT[parsed[1]!]) otherSchemeAtItsDefault = true;
  }
  // `http://host` where only `https://host` is allowed: no port was written, so the scheme is what differs.
  if (otherSchemeAtItsDefault && url.port === '') return FORGE_URL_REFUSALS.schemeOnly;
  return hostKnown ? FORGE_URL_REFUSALS.port : FORGE_URL_REFUSALS.host;
}

/** Judges an X-Forge-API-URL value: the normalized API URL, or why it is refused. */
export function createForgeUrlJudge(configuredApiUrls: readonly string[], allowedHosts: readonly string[] = []): (raw: string) => ForgeUrlVerdict {
  const allowed = new Set<string>(configuredApiUrls.map((u) => originKey(new URL(u))));
  for (const entry of allowedHosts) for (const key of entryKeys(entry)) allowed.add(key);

  return (raw) => {
    const text = raw.trim();
    if (text.includes('\\')) return { refused: FORGE_URL_REFUSALS.backslash };
    const authority = /^https?:\/\/([^/?#]*)/i.exec(text)?.[1];
    if (authority === undefined)
      return { refused: /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) && !/^https?:/i.test(text) ? FORGE_URL_REFUSALS.scheme : FORGE_URL_REFUSALS.notUrl };
    if (authority.includes('@')) return { refused: FORGE_URL_REFUSALS.userinfo };
    if (authority.includes('%')) return { refused: FORGE_URL_REFUSALS.encodedHost };
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { refused: FORGE_URL_REFUSALS.notUrl };
    }
    if (url.username || url.password) return { refused: FORGE_URL_REFUSALS.userinfo };
    if (url.search || url.hash || text.includes('?') || text.includes('#')) return { refused: FORGE_URL_REFUSALS.queryOrFragment };
    // The host as written must be the host as parsed: refuses encodings the parser rewrites.
    const writtenHost = authority.toLowerCase().replace(/:\d*$/, '');
    if (bareName(writtenHost) !== bareName(url.hostname)) return { refused: FORGE_URL_REFUSALS.encodedHost };
    if (!allowed.has(originKey(url))) return { refused: nearestRefusal(allowed, url) };
    const port = url.port ? `:${url.port}` : '';
    const apiUrl = normalizeApiUrl(`${url.protocol}//${bareName(url.hostname)}${port}${url.pathname}`);
    return apiUrl ? { apiUrl } : { refused: FORGE_URL_REFUSALS.notUrl };
  };
}

/** A judge's verdict as the normalized API URL an allowed value names, or undefined. */
export function forgeUrlPolicy(judge: (raw: string) => ForgeUrlVerdict): ForgeUrlPolicy {
  return (raw) => {
    const verdict = judge(raw);
    return 'apiUrl' in verdict ? verdict.apiUrl : undefined;
  };
}
