import type { ForgeEndpoint } from './endpoint';
import { ATTR, type SpanAttributes, type TraceSpan } from '../tracing/span';
import { isTimeout } from './errors';

// The client span of one attempt of a forge request (D46), after OpenTelemetry's HTTP conventions.
// Its url.full is the forge's origin and API path, then the request's
// path with every segment that is not a plain lowercase word of GitLab's routes (`projects`,
// `merge_requests`, `repository`) written as `{}`, and no query. Identifiers, encoded project paths,
// file paths and SHAs therefore never reach a span, nor does anything a query carries (search
// terms, filters); a lowercase single-word identifier (a branch called `main`) can.
// A segment that is not such a word: one starting with `_`, or holding any character but a
// lowercase letter or `_` (matched from the segment's start to its end, in one pass of the path).
const NOT_ROUTE_WORD = /(?<![^/])(?:_|[^/]*[^a-z_/])[^/]*/g;

export function tracedPath(path: string): string {
  const query = path.indexOf('?');
  return (query === -1 ? path : path.slice(0, query)).replace(NOT_ROUTE_WORD, '{}');
}

/** The host and port of an endpoint's origin, read once per endpoint (endpoints live for the process). */
const servers = new WeakMap<ForgeEndpoint, { hostname: string; port: number }>();
function serverOf(endpoint: ForgeEndpoint): { hostname: string; port: number } {
  let server = servers.get(endpoint);
  if (!server) {
    const origin = new URL(endpoint.origin);
    server = { hostname: origin.hostname, port: Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)) };
    servers.set(endpoint, server);
  }
  return server;
}

function clientAttributes(endpoint: ForgeEndpoint, method: string, originPath: string, attempt: number): SpanAttributes {
  const server = serverOf(endpoint);
  return {
    [ATTR.httpRequestMethod]: method,
    [ATTR.urlFull]: `${endpoint.origin}${originPath}`,
    [ATTR.serverAddress]: server.hostname,
    [ATTR.serverPort]: server.port,
    [ATTR.httpResendCount]: attempt > 0 ? attempt : undefined,
  };
}

/**
 * The client span of one attempt of a request to the forge, by its whole URL: below the API
 * (`…/api/v4/projects/{}/issues`), or beside it on the endpoint's origin (`/api/graphql`, OAuth's
 * `/oauth/token/info`). Its traceparent goes into `headers`, so the forge's own traces join the
 * caller's. The forge client's `exchange` (REST and GraphQL, each attempt) and the checks at the
 * door (auth/credentialed-get.ts) make theirs here.
 */
export function requestSpan(
  trace: TraceSpan,
  endpoint: ForgeEndpoint,
  method: string,
  url: string,
  attempt: number,
  headers: Record<string, string>,
): TraceSpan {
  // An unsampled trace still passes its traceparent on; its attributes are not worked out.
  const attributes = trace.recording ? clientAttributes(endpoint, method, originPath(endpoint, url), attempt) : undefined;
  const span = trace.child(method, 'client', attributes);
  headers.traceparent = span.traceparent();
  return span;
}

/** The URL's path after the endpoint's origin, without identifiers (the API path kept as it is). */
function originPath(endpoint: ForgeEndpoint, url: string): string {
  return url.startsWith(endpoint.apiUrl)
    ? `${endpoint.apiPath}${tracedPath(url.slice(endpoint.apiUrl.length))}`
    : tracedPath(url.slice(endpoint.origin.length));
}

/** A request answered: its status on the span, which fails from 400 on, and ends. */
export function spanAnswered(span: TraceSpan, status: number): void {
  span.set({ [ATTR.httpResponseStatusCode]: status });
  if (status >= 400) span.fail(String(status));
  span.end();
}

/** A request that got no answer: failed as a timeout or a network error, and ended. */
export function spanUnanswered(span: TraceSpan, error: unknown): void {
  span.fail(isTimeout(error) ? 'timeout' : 'network');
  span.end();
}
