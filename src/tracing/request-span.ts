// The server span of a request, beside the web Request (as mcp/request-context.ts binds the request
// context): set by app.ts for every request when tracing is on, read by the routes that add to it.
import type { TraceSpan } from './span';

const spans = new WeakMap<Request, TraceSpan>();

export function bindSpan(request: Request, span: TraceSpan): void {
  spans.set(request, span);
}

export function spanOf(request: Request): TraceSpan | undefined {
  return spans.get(request);
}
