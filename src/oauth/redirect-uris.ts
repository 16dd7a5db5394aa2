// Which redirect URIs a client may register (RFC 8252, MCP authorization "redirect URIs"): https,
// plain http only to a loopback address (native apps listening locally), or a private-use scheme
// such as `cursor://…` that hands the code to an installed app. Never a scheme that runs or reads
// something where it lands (javascript:, data:, file:, …), never a fragment, never credentials,
// never a character that is invisible or reorders the text shown on the consent page (D36).
// A presented redirect URI matches a registered one exactly, except that a loopback one matches on
// any port (D28, RFC 8252 §7.3): a native app listens on whatever port it was given.
import { hasInvisible } from '../text/invisible';
import { isLoopbackHost } from '../forge/url-parts';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const REFUSED_SCHEMES = new Set(['javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'filesystem', 'ws', 'wss', 'ftp', 'mailto', 'tel']);

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** Why `uri` cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '') return 'must be a non-empty string';
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (!SCHEME.test(uri)) return 'must be an absolute URI';
  if (uri.includes('#')) return 'must not contain a fragment';
  if (/[\s<>"\\]/.test(uri)) return 'must not contain spaces, quotes, angle brackets or backslashes';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(uri) || hasInvisible(uri)) return 'must not contain control, invisible or bidirectional characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not a valid URI';
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (url.username || url.password) return 'must not contain credentials';
  if (scheme === 'https') return url.hostname ? undefined : 'must name a host';
  if (scheme === 'http')
    return isLoopbackHost(url.hostname) ? undefined : 'http is allowed only for loopback addresses (localhost, 127.0.0.1, [::1]); use https';
  if (REFUSED_SCHEMES.has(scheme)) return `the ${scheme}: scheme is not allowed`;
  return undefined; // a private-use scheme of an installed app
}

const LOOPBACK_URI = /^(http:\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]))(?::(\d{1,5}))?([/?][^#]*)?$/i;
const MAX_PORT = 65535;

/**
 * `uri` as written, without its port, when it is a plain-http loopback URI; else undefined. Any
 * port means a port: one past 65535 is no URI at all, and redirecting to it would fail (D28).
 */
function loopbackWithoutPort(uri: string): string | undefined {
  const match = LOOPBACK_URI.exec(uri);
  if (!match || Number(match[2] ?? 0) > MAX_PORT) return undefined;
  return `${match[1].toLowerCase()}${match[3] ?? ''}`;
}

/** Whether the presented `uri` is one of `registered`: exactly, or a loopback one on another port (D28). */
export function redirectUriMatches(registered: readonly string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  const portless = loopbackWithoutPort(uri);
  return portless !== undefined && registered.some((r) => loopbackWithoutPort(r) === portless);
}

/** Where a redirect URI hands the code to, as shown on the consent page: the host, or the app's scheme. */
export function redirectHost(uri: string): string {
  const url = new URL(uri);
  if (url.protocol === 'https:' || url.protocol === 'http:') return url.host;
  return url.host ? `${url.protocol}//${url.host}` : url.protocol;
}

/** `uri` with the parameters added to its query (a query it already has is kept). */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}
