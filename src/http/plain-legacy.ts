// The plain 2025-era JSON-RPC request (D27): the shape every legacy client sends for initialize,
// tools/list and tools/call, recognised without the SDK. The SDK's classification (isLegacyRequest)
// zod-checks the whole body against three JSON-RPC schemas first; a request this predicate admits is
// one it classifies legacy in any case (a well-formed request, no per-request envelope, no modern
// MCP-Protocol-Version), so the prelude skips it for these (mcp-prelude.ts). The predicate is
// narrower than the SDK's rule by construction: anything unusual (a `_meta` of any kind, another
// key, a fractional id, a notification, a batch) is left to the SDK. test/plain-legacy.test.ts
// holds every admitted case legacy by the SDK's own classification.
import { isJsonContentType } from '@modelcontextprotocol/server';
import { isObject, onlyKeys, type PlainToolCall } from './plain-tool-call';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION } from './revision';

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

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
