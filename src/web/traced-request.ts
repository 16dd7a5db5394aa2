// The server span of every HTTP request when tracing is on (D46): /mcp, the OAuth endpoints and
// the rest, after OpenTelemetry's HTTP conventions. Named `<method> <route>` for a route the server
// has, else by the method alone (a path a client made up is never repeated; a query never is). The
// client's W3C traceparent is its parent. The span is bound to the request (tracing/request-span.ts)
// for the /mcp prelude to add the MCP attributes and to be the parent of the tool call's span.
import { bindSpan } from '../tracing/request-span';
import { ATTR, type Tracer } from '../tracing/span';
import { requestPath } from './request-url';

type Handle = (request: Request, socketIp?: string) => Promise<Response>;

/** The route of a path among the router's (`/mcp/x/*` for a narrowed endpoint, D34). */
function routeOf(path: string, routes: ReadonlySet<string>): string | undefined {
  if (routes.has(path)) return path;
  if (path.startsWith('/mcp/x/')) return '/mcp/x/*';
  return undefined;
}

export function tracedHandler(tracer: Tracer, handle: Handle, routePaths: readonly string[]): Handle {
  const routes = new Set(routePaths.filter((path) => !path.includes('*') && !path.includes(':')));
  routes.add('/mcp');
  return async (request, socketIp) => {
    const url = request.url;
    const route = routeOf(requestPath(url), routes);
    const method = request.method;
    const span = tracer.server(route ? `${method} ${route}` : method, request.headers.get('traceparent'), request.headers.get('tracestate'), {
      [ATTR.httpRequestMethod]: method,
      [ATTR.httpRoute]: route,
      [ATTR.urlPath]: route === '/mcp/x/*' ? undefined : route,
      [ATTR.urlScheme]: url.startsWith('https:') ? 'https' : 'http',
    });
    bindSpan(request, span);
    try {
      const response = await handle(request, socketIp);
      if (span.recording) span.set({ [ATTR.httpResponseStatusCode]: response.status });
      if (response.status >= 500) span.fail(String(response.status));
      return response;
    } catch (error) {
      span.fail((error as Error)?.name ?? 'error');
      throw error;
    } finally {
      span.end();
    }
  };
}
