// What the server span of an /mcp request says about its JSON-RPC message (D46), after
// OpenTelemetry's MCP conventions: method, request id, protocol revision, lane. Each value is the
// client's own text, so only values of the shape they must have are kept, short; nothing of the
// params (tool arguments) is ever read.
import { ATTR, type TraceSpan } from '../tracing/span';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isObject } from './lane';

const METHOD = /^[A-Za-z][A-Za-z0-9_/.-]{0,63}$/;
const REVISION = /^\d{4}-\d{2}-\d{2}$/;
const MAX_ID_CHARS = 64;

function requestId(id: unknown): string | number | undefined {
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  return typeof id === 'string' && id.length <= MAX_ID_CHARS ? id : undefined;
}

/** Adds the MCP attributes of a request's single message (a batch only gets its lane). */
export function traceMcpMessage(span: TraceSpan, lane: string, body: unknown, request: Request): void {
  if (!span.recording) return;
  const header = request.headers.get('mcp-protocol-version');
  span.set({ [ATTR.lane]: lane, [ATTR.mcpProtocolVersion]: header !== null && REVISION.test(header) ? header : undefined });
  if (!isObject(body)) return;
  const method = typeof body.method === 'string' && METHOD.test(body.method) ? body.method : undefined;
  span.set({ [ATTR.mcpMethodName]: method, [ATTR.jsonrpcRequestId]: requestId(body.id) });
  if (header === null && isObject(body.params)) {
    // The 2026-07-28 revision names itself in _meta (D27) rather than in the header.
    const meta = body.params._meta;
    const version = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    if (typeof version === 'string' && REVISION.test(version)) span.set({ [ATTR.mcpProtocolVersion]: version });
  }
}
