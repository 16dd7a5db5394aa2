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
