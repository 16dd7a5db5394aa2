// Where the parts of a request's URL begin. Bun hands most requests an absolute URL
// (`http://host:port/mcp?…`), but one whose Host header is empty or missing (HTTP/1.0 allows that)
// only its bare path (`/mcp?…`): every reading of a request's path or origin goes through here, so
// both forms route alike.

/** Index of the path in a request URL: 0 for a bare path; -1 when there is none. */
export function pathStart(url: string): number {
  return url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
}

/** The request's path, without its query; `/` when the URL has none. */
export function requestPath(url: string): string {
  const start = pathStart(url);
  if (start === -1) return '/';
  const end = url.indexOf('?', start);
  return url.slice(start, end === -1 ? undefined : end);
}

/** The origin the request was addressed to (`http://host:port`); undefined for a bare path, which names none. */
export function requestOrigin(url: string): string | undefined {
  if (url.startsWith('/')) return undefined;
  const start = pathStart(url);
  return start === -1 ? url : url.slice(0, start);
}

/** The request's query parameters, of either form of URL. */
export function requestQuery(url: string): URLSearchParams {
  const start = url.indexOf('?', Math.max(0, pathStart(url)));
  return new URLSearchParams(start === -1 ? '' : url.slice(start + 1));
}

/** Whether a request URL's path is exactly /mcp (a query may follow). */
export function isMcpPath(url: string): boolean {
  const start = pathStart(url);
  return start !== -1 && url.startsWith('/mcp', start) && (url.length === start + 4 || url[start + 4] === '?');
}

/** Whether a request URL's path lies below /mcp (/mcp/readonly, /mcp/x/…). */
export function isBelowMcp(url: string): boolean {
  const start = pathStart(url);
  return start !== -1 && url.startsWith('/mcp/', start);
}
