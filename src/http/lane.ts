// The lane of a /mcp request (D27), decided in one place: laneOf. The lane is the SDK's own
// classification (the call its isLegacyRequest makes), taken without asking the SDK for the two
// plain shapes whose answer is known: the plain valid 2026-07-28 tools/call (modern) and the plain
// 2025-era request (legacy). A body that is no JSON-RPC message goes with its session id.
//
// The plain valid 2026-07-28 tools/call (D27): the one request shape this server recognises
// without the SDK. A predicate that admits a strict subset of what the SDK's modern handler serves
// with a result: any header missing, different, OWS-padded or base64-encoded, another version, an
// envelope with anything beyond the version, the client's capabilities and a plain clientInfo,
// an argument named __proto__, batches, notifications and other methods are not plain. Since every plain call is one the SDK
// classifies as modern, the prelude takes it as modern without asking the SDK (mcp-prelude.ts), and
// the modern lane answers it itself (fast-tool-call.ts). test/fast-tool-call.test.ts holds both.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION } from './revision';

type Json = Record<string, unknown>;

export interface PlainToolCall {
  readonly id: string | number;
  readonly params: { name: string; arguments?: Json };
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);
const META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);
// Each of these, given as {}, passes the revision's ClientCapabilities schema.
const CAPABILITY_KEYS = new Set(['experimental', 'sampling', 'elicitation', 'roots', 'extensions']);
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title', 'description', 'websiteUrl']);
// A tool name that is its own Mcp-Name header value: no whitespace to strip and never the
// `=?base64?…?=` form, so the header must equal it byte for byte.
const PLAIN_NAME = /^[A-Za-z0-9_./-]+$/;

export function isObject(value: unknown): value is Json {
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
  // The SDK's parse of the arguments leaves out a member named __proto__, which the tool's own
  // validation would refuse as no parameter: not plain, so the SDK answers as it does.
  const args = params.arguments;
  if (args !== undefined && (!isObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
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

// The SDK's classification of a POST to /mcp whose body the prelude has parsed (D27): the very call
// its isLegacyRequest makes for a parsed body (classifyInboundRequest over the method, the three
// standard headers and the body), kept whole rather than reduced to "legacy or not", so the prelude
// also learns when the body is no JSON-RPC message at all. test/classify.test.ts holds it equal to
// isLegacyRequest.

export function classifyPost(request: Request, body: unknown): InboundClassificationOutcome {
  const headers = request.headers;
  return classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: headers.get('mcp-protocol-version') ?? undefined,
    mcpMethodHeader: headers.get('mcp-method') ?? undefined,
    mcpNameHeader: headers.get('mcp-name') ?? undefined,
    body,
  });
}

// The SDK's ladder cells (its stable names) for a body that is no JSON-RPC message: a value that is
// no request, notification or response, and a batch holding one. Neither revision has anything to
// serve in it, so it belongs to no lane by its content.
const NO_MESSAGE_CELLS = new Set(['invalid-json-rpc-body', 'batch-with-invalid-element']);

/** Whether the SDK refuses the body as no JSON-RPC message at all. */
export function isNoMessage(outcome: InboundClassificationOutcome): boolean {
  return outcome.kind === 'reject' && NO_MESSAGE_CELLS.has(outcome.cell);
}

// The plain 2025-era JSON-RPC request (D27): the shape every legacy client sends for initialize,
// tools/list and tools/call, recognised without the SDK. The SDK's classification (isLegacyRequest)
// zod-checks the whole body against three JSON-RPC schemas first; a request this predicate admits is
// one it classifies legacy in any case (a well-formed request, no per-request envelope, no modern
// MCP-Protocol-Version), so the prelude skips it for these (mcp-prelude.ts). The predicate is
// narrower than the SDK's rule by construction: anything unusual (a `_meta` of any kind, another
// key, a fractional id, a notification, a batch) is left to the SDK. test/plain-legacy.test.ts
// holds every admitted case legacy by the SDK's own classification.

export function isPlainLegacyRequest(request: Request, body: unknown): boolean {
  if (request.method !== 'POST' || !isObject(body)) return false;
  for (const key in body) if (!MESSAGE_KEYS.has(key)) return false;
  if (body.jsonrpc !== '2.0' || typeof body.method !== 'string') return false;
  const id = body.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return false;
  const params = body.params;
  if (params !== undefined && (!isObject(params) || params._meta !== undefined)) return false;
  const version = request.headers.get('mcp-protocol-version');
  // Revisions are dates: any version from the modern one on is modern (the SDK compares the same way).
  return version === null || version < MODERN_PROTOCOL_VERSION;
}

const CALL_PARAM_KEYS = new Set(['name', 'arguments']);

/**
 * The plain 2025-era tools/call, or undefined, for a request isPlainLegacyRequest admitted. It is
 * one the SDK's legacy transport (a session's, or a stateless request's) serves with a result, so
 * the legacy lane answers it itself (fast-tool-call.ts): the transport's Accept and Content-Type
 * checks pass, the MCP-Protocol-Version header is absent or a revision the legacy server
 * negotiates, and the params hold a string name and, if any, an object of arguments and nothing
 * else. Anything else is left to the SDK.
 */
export function plainLegacyToolCall(request: Request, body: Record<string, unknown>): PlainToolCall | undefined {
  if (body.method !== 'tools/call') return undefined;
  const params = body.params;
  if (!isObject(params) || !onlyKeys(params, CALL_PARAM_KEYS) || typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isObject(params.arguments)) return undefined;
  const headers = request.headers;
  // The transport's own Accept test (a substring match), so what passes here passes there.
  const accept = headers.get('accept');
  if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const contentType = headers.get('content-type');
  if (contentType === null || !isJsonContentType(contentType)) return undefined;
  const version = headers.get('mcp-protocol-version');
  if (version !== null && !LEGACY_PROTOCOL_VERSIONS.includes(version)) return undefined;
  return { id: body.id as string | number, params: params as PlainToolCall['params'] };
}

export type McpLane = 'modern' | 'legacy';

interface LaneDecision {
  readonly lane: McpLane;
  /**
   * The body when it is a plain tools/call of its lane: a plain valid 2026-07-28 one, which is
   * modern, or a plain 2025-era one.
   */
  readonly plainCall?: PlainToolCall;
}

const MODERN: LaneDecision = { lane: 'modern' };
const LEGACY: LaneDecision = { lane: 'legacy' };

/** Whether a GET or DELETE names the modern revision: D27 answers those on the modern lane (405). */
function namesModernRevision(request: Request): boolean {
  return request.headers.get('mcp-protocol-version')?.trim() === MODERN_PROTOCOL_VERSION;
}

/**
 * The lane of a /mcp request, with its plain tools/call when it has one. `body` is the parsed body
 * of a POST (undefined for GET and DELETE). A plain tools/call is one the SDK classifies modern, a
 * plain 2025-era request one it classifies legacy: its classification, zod-checking the whole
 * body, is skipped for these.
 */
export function laneOf(request: Request, body: unknown): LaneDecision {
  if (request.method !== 'POST') return namesModernRevision(request) ? MODERN : LEGACY;
  const modernCall = plainModernToolCall(request, body);
  if (modernCall) return { lane: 'modern', plainCall: modernCall };
  if (isPlainLegacyRequest(request, body)) {
    const legacyCall = plainLegacyToolCall(request, body as Record<string, unknown>);
    return legacyCall ? { lane: 'legacy', plainCall: legacyCall } : LEGACY;
  }
  const outcome = classifyPost(request, body);
  // A body that is no JSON-RPC message has no lane by its content. Sent with an Mcp-Session-Id,
  // which only the legacy lane reads, it is that session's: the legacy rules answer it (a live
  // session: the transport's 400 -32700; an unknown id: 404) instead of the modern lane, which
  // reads no id and would ask the session's client for a credential (D27).
  return outcome.kind === 'legacy' || (isNoMessage(outcome) && request.headers.get('mcp-session-id')) ? LEGACY : MODERN;
}
