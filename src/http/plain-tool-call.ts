// The plain valid 2026-07-28 tools/call (D27): the one request shape this server recognises
// without the SDK. A predicate that admits a strict subset of what the SDK's modern handler serves
// with a result: any header missing, different, OWS-padded or base64-encoded, another version, an
// envelope with anything beyond the version, the client's capabilities and a plain clientInfo,
// an argument named __proto__, batches, notifications and other methods are not plain. Since every plain call is one the SDK
// classifies as modern, the prelude takes it as modern without asking the SDK (mcp-prelude.ts), and
// the modern lane answers it itself (fast-tool-call.ts). test/fast-tool-call.test.ts holds both.
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, isJsonContentType } from '@modelcontextprotocol/server';
import { MODERN_PROTOCOL_VERSION } from './revision';

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

export function onlyKeys(value: Json, allowed: Set<string>): boolean {
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

