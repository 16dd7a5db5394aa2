// The one per-request value the HTTP layer builds and the tools/call handler reads (docs/architecture.md):
// who calls, with which forge endpoint (the pool lease http/ holds for the request), the request
// id of the log lines and the public origin for links. It travels beside the web Request the SDK
// is handed: the SDK gives every handler that very Request back as ctx.http.req, on both lanes,
// so nothing rides in the SDK's AuthInfo and nothing is cast or looked up twice.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { TraceSpan } from '../tracing/span';

/** Which MCP revision family served the request (D27); stdio has no HTTP request. */
type Lane = 'modern' | 'legacy' | 'stdio';

export interface RequestContext {
  readonly lane: Lane;
  readonly caller: Caller;
  /** The forge endpoint of the caller's API URL, leased for the request by http/ (D7). */
  readonly forge: ForgeEndpoint;
  /** Short id that ties the request's log lines together (absent on stdio). */
  readonly requestId?: string;
  /** This server's public origin, for download links in results (absent on stdio). */
  readonly publicBase?: string;
  /** The request's server span when tracing is on (D46): the parent of the tool call's span. */
  readonly trace?: TraceSpan;
}

const bound = new WeakMap<Request, RequestContext>();

/** Called by http/ once the caller and the lease are known, before the SDK sees the request. */
export function bindRequestContext(request: Request, context: RequestContext): void {
  bound.set(request, context);
}

/** The context http/ bound to the request this handler serves; undefined off HTTP (stdio). */
export function requestContextOf(ctx: ServerContext): RequestContext | undefined {
  const request = ctx.http?.req;
  return request ? bound.get(request) : undefined;
}
