// What the paths outside /mcp answer when no route matched (D12): 405 with `Allow` for a path this
// server serves with other methods (RFC 9110 requires the Allow list on a 405), 404 otherwise. Both
// in those paths' `{error}` shape.

/** A route as the router lists it: `ALL` serves every method, `*` ends a wildcard path. */
interface ListedRoute {
  method: string;
  path: string;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** The path of a request URL without its query, and without a trailing slash (the router ignores one). */
function pathOf(url: string, pathStart: number): string {
  const query = url.indexOf('?', pathStart);
  const path = url.slice(pathStart, query === -1 ? undefined : query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The answer for a request no route took. `routes` are read once: the methods of each fixed path
 * (a GET route also answers HEAD); wildcard and every-method routes never reach here.
 */
export function unmatchedRoute(routes: readonly ListedRoute[]): (url: string, pathStart: number) => Response {
  const methods = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    if (method === 'ALL' || path.includes('*') || path.includes(':')) continue;
    const known = methods.get(path) ?? new Set<string>();
    known.add(method);
    if (method === 'GET') known.add('HEAD');
    methods.set(path, known);
  }
  const allow = new Map([...methods].map(([path, known]) => [path, [...known].sort().join(', ')]));
  return (url, pathStart) => {
    const allowed = pathStart === -1 ? undefined : allow.get(pathOf(url, pathStart));
    if (allowed === undefined) return new Response(JSON.stringify({ error: 'Not Found' }), { status: 404, headers: JSON_HEADERS });
    return new Response(JSON.stringify({ error: 'Method Not Allowed' }), { status: 405, headers: { ...JSON_HEADERS, Allow: allowed } });
  };
}
