// The plain 2025-era JSON-RPC request (D27): the shape every legacy client sends for initialize,
// tools/list and tools/call, recognised without the SDK. The SDK's classification (isLegacyRequest)
// zod-checks the whole body against three JSON-RPC schemas first; a request this predicate admits is
// one it classifies legacy in any case (a well-formed request, no per-request envelope, no modern
// MCP-Protocol-Version), so the prelude skips it for these (mcp-prelude.ts). The predicate is
// narrower than the SDK's rule by construction: anything unusual (a `_meta` of any kind, another
// key, a fractional id, a notification, a batch) is left to the SDK. test/plain-legacy.test.ts
// holds every admitted case legacy by the SDK's own classification.
import { isObject } from './plain-tool-call';
import { MODERN_PROTOCOL_VERSION } from './revision';

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
