// Parts of an absolute URL by slicing rather than parsing: these run on every request, and the
// URLs they see are already known to be absolute (a request's own URL, or an API URL normalized by
// api-url.ts: lower-case host, no default port).

/** `scheme://host[:port]`: the URL's origin. */
export function originOf(url: string): string {
  const end = url.indexOf('/', url.indexOf('//') + 2);
  return end === -1 ? url : url.slice(0, end);
}

/** `host[:port]`: the URL's authority. */
export function authorityOf(url: string): string {
  const start = url.indexOf('//') + 2;
  const end = url.indexOf('/', start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

// Loopback hosts: as a URL names them (URL.hostname) and as a server binds to them (HOST, where IPv6
// is written bare too); for the settings' warnings, OAuth's redirect URIs and metadata documents,
// and the Host policy.
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const LOOPBACK_BIND = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\])$/i;

/** Whether `hostname` (as URL.hostname gives it) is a loopback host: localhost, 127.x.x.x or [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname);
}

/** Whether a bind address (HOST) is a loopback one: localhost, 127.x.x.x, ::1 or [::1]. */
export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BIND.test(host);
}
