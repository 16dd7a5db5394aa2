// The modern lane's plain tools/call (D27), answered without the SDK's per-request Server,
// transport and zod checks (bench/README.md: about 40% of a modern call). Only the plainest valid
// case is taken: a predicate that admits a strict subset of what the SDK's modern handler serves
// with a result; everything else (any header missing, different, OWS-padded or base64-encoded,
// another version, an envelope with anything beyond the version, the client's capabilities and a
// plain clientInfo, batches, notifications, other methods) goes to the SDK as before, so every
// protocol fault is still the SDK's answer. The tool runs through the same tool caller as the SDK's
// handler (mcp/tool-caller.ts), and the answer is what the SDK's modern path emits for it: 200,
// Content-Type application/json, `{ result: { …result, resultType: 'complete', _meta: { serverInfo } },
// jsonrpc, id }`, or `{ jsonrpc, id, error: { code, message, data? } }` for a thrown error.
// test/fast-tool-call.test.ts holds it equal to the SDK's answers and pins what it refuses.
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY, isJsonContentType, type CallToolResult } from '@modelcontextprotocol/server';
import type { RequestContext } from '../mcp/request-context';
import type { ToolCaller } from '../mcp/tool-caller';
import { MODERN_PROTOCOL_VERSION, type McpRequest } from './mcp-prelude';

type Json = Record<string, unknown>;

export interface PlainToolCall {
  readonly id: string | number;
  readonly params: { name: string; arguments?: Json };
}

export interface FastToolCallDeps {
  callTool: ToolCaller;
  /** The identity the SDK stamps on every modern result (the Server's serverInfo). */
  serverInfo: { name: string; version: string };
  /** Told of every request the fast path answers (tests count them). */
  onTaken?: () => void;
}

/** Answers a plain tools/call, or returns undefined for the SDK to serve the request. */
export type FastToolCall = (req: McpRequest, context: RequestContext) => Promise<Response> | undefined;

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);
const META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);
// Each of these, given as {}, passes the revision's ClientCapabilities schema.
const CAPABILITY_KEYS = new Set(['experimental', 'sampling', 'elicitation', 'roots', 'extensions']);
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title', 'description', 'websiteUrl']);
// A tool name that is its own Mcp-Name header value: no whitespace to strip and never the
// `=?base64?…?=` form, so the header must equal it byte for byte.
const PLAIN_NAME = /^[A-Za-z0-9_./-]+$/;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Json, allowed: Set<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

function isEmptyObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const _ in value) return false;
  return true;
}

function plainCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) if (!CAPABILITY_KEYS.has(key) || !isEmptyObject(value[key])) return false;
  return true;
}

function plainClientInfo(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isObject(value) || typeof value.name !== 'string' || typeof value.version !== 'string') return false;
  for (const key in value) if (!CLIENT_INFO_KEYS.has(key) || typeof value[key] !== 'string') return false;
  return true;
}

/**
 * The plain valid 2026-07-28 tools/call, or undefined. Conservative by construction: each check
 * is one the SDK's modern handler also makes (content type, envelope, standard headers, JSON-RPC
 * shape, tools/call params), written narrower than the SDK's.
 */
export function plainModernToolCall(request: Request, body: unknown): PlainToolCall | undefined {
  if (request.method !== 'POST' || !isObject(body) || !onlyKeys(body, MESSAGE_KEYS)) return undefined;
  if (body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const id = body.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  const params = body.params;
  if (!isObject(params) || !onlyKeys(params, PARAM_KEYS)) return undefined;
  const name = params.name;
  if (typeof name !== 'string' || !PLAIN_NAME.test(name)) return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  const meta = params._meta;
  if (!isObject(meta) || !onlyKeys(meta, META_KEYS)) return undefined;
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return undefined;
  if (!plainCapabilities(meta[CLIENT_CAPABILITIES_META_KEY]) || !plainClientInfo(meta[CLIENT_INFO_META_KEY])) return undefined;
  const headers = request.headers;
  if (headers.get('mcp-protocol-version') !== MODERN_PROTOCOL_VERSION) return undefined;
  if (headers.get('mcp-method') !== 'tools/call') return undefined;
  if (headers.get('mcp-name') !== name) return undefined;
  const contentType = headers.get('content-type');
  if (contentType === null || !isJsonContentType(contentType)) return undefined;
  return { id, params: params as PlainToolCall['params'] };
}

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
  async function answer(call: PlainToolCall, request: Request, context: RequestContext): Promise<Response> {
    let body: Json;
    try {
      body = { result: encodeResult(await deps.callTool(call.params, context), deps.serverInfo), jsonrpc: '2.0', id: call.id };
    } catch (error) {
      body = errorBody(call.id, error);
    }
    // As the SDK: a client gone before the answer gets 499.
    if (request.signal.aborted) return new Response(null, { status: 499 });
    return Response.json(body, { status: 200, headers: JSON_HEADERS });
  }

  return (req, context) => {
    const call = plainModernToolCall(req.request, req.body);
    if (!call) return undefined;
    if (req.request.signal.aborted) return Promise.resolve(new Response(null, { status: 499 }));
    deps.onTaken?.();
    return answer(call, req.request, context);
  };
}
