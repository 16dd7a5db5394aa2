// The plain tools/call (lane.ts), answered without the SDK's Server,
// transport and zod checks (bench/README.md), on both lanes and in both modes: the modern lane's
// and stateless mode's per-request Server and transport are not built, and a stateful session's
// are passed by; its id, limits, caller and request ids are the HTTP layer's (mcp-stateful.ts).
// For requests one at a time the answer is the SDK's; where requests of a session overlap (a
// cancellation, a close, a reused id), both paths follow docs/decisions.md D27's rules.
// Everything that is not plain goes to the SDK as before, so every protocol fault is still the
// SDK's answer. The tool runs through the same tool caller as the SDK's handler
// (mcp/tool-caller.ts), and the answer is what the SDK emits for it: 200, Content-Type
// application/json, and for a result on the modern lane `{ result: { …result, resultType:
// 'complete', _meta: { serverInfo } }, jsonrpc, id }`, on the legacy lane `{ result, jsonrpc, id }`
// (its codec passes a tools/call result through); for a thrown error `{ jsonrpc, id, error: { code,
// message, data? } }` on both. test/fast-tool-call.test.ts and test/fast-legacy-call.test.ts hold
// it equal to the SDK's answers.
import { SERVER_INFO_META_KEY, type CallToolResult } from '@modelcontextprotocol/server';
import type { RequestContext } from '../mcp/request-context';
import { structuredContentJson, type ToolCaller } from '../mcp/tool-caller';
import type { McpRequest } from './mcp-prelude';
import { isObject, type PlainToolCall } from './lane';

type Json = Record<string, unknown>;

interface FastToolCallDeps {
  callTool: ToolCaller;
  /** The identity the SDK stamps on every modern result (the Server's serverInfo). */
  serverInfo: { name: string; version: string };
  /** Told of every request the fast path answers (tests count them). */
  onTaken?: () => void;
  /** Tools whose calls the SDK serves: those that may ask the user first (D42). */
  bySdk?: (name: string) => boolean;
}

/** Answers a plain tools/call of the context's lane, or returns undefined for the SDK to serve the request. */
export type FastToolCall = (req: McpRequest, context: RequestContext) => Promise<Response> | undefined;

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** The SDK's encoding of a modern tools/call result: resultType stamped, serverInfo in _meta. */
function encodeResult(result: CallToolResult, serverInfo: FastToolCallDeps['serverInfo']): Json {
  const value: Json = result.content === undefined ? { ...result, content: [] } : { ...result };
  if (value.resultType === undefined) value.resultType = 'complete';
  const meta = value._meta;
  if (meta === undefined) value._meta = { [SERVER_INFO_META_KEY]: serverInfo };
  else if (isObject(meta) && meta[SERVER_INFO_META_KEY] === undefined) value._meta = { ...meta, [SERVER_INFO_META_KEY]: serverInfo };
  return value;
}

/** Whether a result holds content and structuredContent and nothing more (counted without a key list). */
function onlyContentAndStructured(result: CallToolResult): boolean {
  let keys = 0;
  for (const _ in result) keys++;
  return keys === 2;
}

/** The SDK's JSON-RPC error for a throw from a request handler (HTTP 200). */
function errorBody(id: string | number, error: unknown): Json {
  const thrown = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(thrown.code) ? (thrown.code as number) : -32603;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: code === -32002 ? -32602 : code, message: thrown.message ?? 'Internal error', ...(thrown.data !== undefined && { data: thrown.data }) },
  };
}

export function createFastToolCall(deps: FastToolCallDeps): FastToolCall {
  // The answer's text, with structuredContent's JSON taken from the result's own text when the
  // result says it is that (tools/bounded-result.ts): the same bytes Response.json would print,
  // without printing the value twice.
  const serverInfoMeta = JSON.stringify({ [SERVER_INFO_META_KEY]: deps.serverInfo });
  function printed(id: string | number, result: CallToolResult, modern: boolean): string | undefined {
    const structured = structuredContentJson(result);
    if (structured === undefined || !onlyContentAndStructured(result)) return undefined;
    const stamps = modern ? `,"resultType":"complete","_meta":${serverInfoMeta}` : '';
    return `{"result":{"content":${JSON.stringify(result.content)},"structuredContent":${structured}${stamps}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  }

  async function answer(call: PlainToolCall, request: Request, context: RequestContext, modern: boolean): Promise<Response> {
    let body: Json | string;
    try {
      const result = await deps.callTool(call.params, context);
      body = printed(call.id, result, modern) ?? { result: modern ? encodeResult(result, deps.serverInfo) : result, jsonrpc: '2.0', id: call.id };
    } catch (error) {
      body = errorBody(call.id, error);
    }
    // As the SDK's modern handler: a client gone before the answer gets 499 (its legacy
    // transport answers regardless).
    if (modern && request.signal.aborted) return new Response(null, { status: 499 });
    return typeof body === 'string' ? new Response(body, { status: 200, headers: JSON_HEADERS }) : Response.json(body, { status: 200, headers: JSON_HEADERS });
  }

  return (req, context) => {
    const call = req.plainCall;
    if (!call || deps.bySdk?.(call.params.name)) return undefined;
    const modern = context.lane === 'modern';
    if (modern && req.request.signal.aborted) return Promise.resolve(new Response(null, { status: 499 }));
    deps.onTaken?.();
    return answer(call, req.request, context, modern);
  };
}
