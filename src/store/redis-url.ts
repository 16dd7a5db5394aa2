// REDIS_URL, judged at start-up (D2, D37): `redis://` or `rediss://` (TLS), an optional user and
// password, a host, an optional port and an optional database number — nothing else, since the
// client would read anything more as options. Problems name the part that is wrong and never
// repeat the value, which may hold a password.

const MAX_REDIS_URL_LENGTH = 2048;
const MAX_DATABASE = 65535;

/** Undefined when `value` is a usable REDIS_URL, else what is wrong with it. */
export function redisUrlProblem(value: string): string | undefined {
  if (value.length > MAX_REDIS_URL_LENGTH) return `must be at most ${MAX_REDIS_URL_LENGTH} characters`;
  // Control characters and spaces would be dropped or re-encoded by the parser: refused, not repaired.
  if (/[\u0000-\u0020\u007f]/.test(value)) return 'must not contain spaces or control characters';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1].toLowerCase();
  if (scheme !== undefined && scheme !== 'redis' && scheme !== 'rediss') return 'must start with redis:// or rediss://';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL such as redis://host:6379/0 or rediss://:password@host:6380';
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') return 'must start with redis:// or rediss://';
  if (!/^\/\//.test(value.slice(url.protocol.length))) return 'must name a host after redis:// or rediss://';
  if (!url.hostname) return 'must name a host';
  if (url.search || value.includes('?')) return 'must not have a query string (?…): options are separate settings';
  if (url.hash || value.includes('#')) return 'must not have a fragment (#…)';
  const path = url.pathname;
  if (path !== '' && path !== '/') {
    const db = /^\/(\d{1,5})$/.exec(path)?.[1];
    if (db === undefined || Number(db) > MAX_DATABASE) return `the path must be a database number from 0 to ${MAX_DATABASE} (as in redis://host:6379/0)`;
  }
  return undefined;
}

/** The URL without its user and password, for the start-up log. */
export function redisUrlForLog(value: string): string {
  const url = new URL(value);
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
