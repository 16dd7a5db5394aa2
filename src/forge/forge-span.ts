import type { ForgeEndpoint } from './endpoint';
import { ATTR, type SpanAttributes, type TraceSpan } from '../tracing/span';

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
 * The client span of one attempt of a request; its traceparent goes into `headers`, so the forge's
 * own traces join the caller's. Every request the forge client sends (REST and GraphQL) passes
 * through its `exchange`, and so here.
 */
export function requestSpan(
  trace: TraceSpan,
  endpoint: ForgeEndpoint,
  method: string,
  path: string,
  attempt: number,
  headers: Record<string, string>,
): TraceSpan {
  // An unsampled trace still passes its traceparent on; its attributes are not worked out.
  return started(trace, endpoint, method, trace.recording ? `${endpoint.apiPath}${tracedPath(path)}` : '', attempt, headers);
}

/**
 * The client span of a request the forge client does not make (the credential checks at the door,
 * auth/credentialed-get.ts), by its whole URL: below the API (`…/api/v4/user`) or beside it
 * (OAuth's `/oauth/token/info`), on the endpoint's origin.
 */
export function urlSpan(trace: TraceSpan, endpoint: ForgeEndpoint, method: string, url: string, headers: Record<string, string>): TraceSpan {
  if (!trace.recording) return started(trace, endpoint, method, '', 0, headers);
  const originPath = url.startsWith(endpoint.apiUrl)
    ? `${endpoint.apiPath}${tracedPath(url.slice(endpoint.apiUrl.length))}`
    : tracedPath(url.startsWith(endpoint.origin) ? url.slice(endpoint.origin.length) : new URL(url).pathname);
  return started(trace, endpoint, method, originPath, 0, headers);
}

function started(trace: TraceSpan, endpoint: ForgeEndpoint, method: string, originPath: string, attempt: number, headers: Record<string, string>): TraceSpan {
  const span = trace.child(method, 'client', trace.recording ? clientAttributes(endpoint, method, originPath, attempt) : undefined);
  headers.traceparent = span.traceparent();
  return span;
}
