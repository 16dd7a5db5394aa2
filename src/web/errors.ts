// Errors on /mcp are JSON-RPC error objects carrying docs/spec.md's message text with docs/spec.md's status
// (D6). The texts are defined once here (the 401, 429 and 503 are written by refusals.ts). On the
// modern lane an error carries the request's id when its body could be read (D27); everywhere else
// the id is null.
const MISSING_CREDENTIALS = 'Missing Authorization or Private-Token header';
const AUTHENTICATION_REQUIRED = 'Authentication required';

export const MESSAGES = {
  missingCredentials: MISSING_CREDENTIALS,
  authenticationRequired: AUTHENTICATION_REQUIRED,
  sessionNotFound: 'Session not found',
  rateLimited: 'Rate limit exceeded',
  capacity: 'Server capacity reached',
  invalidApiUrl: 'Invalid custom API URL provided',
  sessionIdRequired: 'Bad Request: Mcp-Session-Id header is required',
  requestIdInUse: 'Invalid Request: a request id of this session is in use by a request still being answered',
  parseError: 'Parse error: Invalid JSON',
  forbiddenOrigin: 'Forbidden: Origin not allowed',
  forbiddenHost: 'Forbidden: Host not allowed',
  // docs/spec.md's text first, then what went wrong (D6: the message contains docs/spec.md's text).
  tokenTooShort: `${MISSING_CREDENTIALS}. The token is too short: at least 20 characters are needed.`,
  forgeRejectedToken: `${AUTHENTICATION_REQUIRED}: the forge did not accept this token`,
  // D23: a bearer OAuth mode refused (expired, another audience, not its own), or whose sealed forge token the forge rejected.
  invalidToken: `${AUTHENTICATION_REQUIRED}: the access token is invalid or expired; refresh it or sign in again`,
  // D23: a credential header holding a value this server sealed, which is never sent to a forge.
  sealedValue: `${AUTHENTICATION_REQUIRED}: the credential is a value this server issued (a session id, a download or OAuth token), not a forge token; it was not sent to the forge`,
  // D29: a write tool called with a read_api token.
  insufficientScope: 'Forbidden: insufficient_scope: this tool changes data and the access token grants read_api only; authorize again with scope api',
  emptyBatch: 'Invalid Request: an empty batch holds no message',
} as const;

export const RPC_CODES = { generic: -32000, sessionNotFound: -32001, parseError: -32700, invalidRequest: -32600, invalidParams: -32602 } as const;

/** A JSON-RPC request id; null when the body could not be read or is not one request (D6). */
export type RpcId = string | number | null;

/** The id of a parsed single JSON-RPC request, else null: errors of the modern lane echo it (D27). */
export function idOf(body: unknown): RpcId {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * The SDK's error answer to a modern request, carrying the request's id (D27). The SDK answers some
 * faults before it reads a body (a Content-Type that is not JSON: 415), so with id null, though the
 * prelude has parsed the body and knows the id. Only an error status with a JSON-RPC error body
 * whose id is null is rewritten; anything else, every success included, is returned as it is.
 */
export function withRequestId(response: Response, id: RpcId): Response | Promise<Response> {
  // A success (the common case) is returned at once, not behind a promise.
  if (id === null || response.status < 400) return response;
  return errorWithId(response, id);
}

async function errorWithId(response: Response, id: string | number): Promise<Response> {
  if (!response.headers.get('content-type')?.includes('json')) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response;
  }
  if (body === null || typeof body !== 'object' || (body as { id?: unknown }).id !== null || !('error' in body)) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...body, id }), { status: response.status, statusText: response.statusText, headers });
}

export function rpcError(status: number, message: string, code: number = RPC_CODES.generic, headers: Record<string, string> = {}, id: RpcId = null): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** The resolver's challenge naming the fault (RFC 6750 §3): `Bearer error="invalid_token"[, …]`. */
export function challengeWithError(challenge: string, error: string): string {
  const params = challenge.replace(/^Bearer\s*/i, '');
  return `Bearer error="${error}"${params ? `, ${params}` : ''}`;
}

export const sessionNotFound = () => rpcError(404, MESSAGES.sessionNotFound, RPC_CODES.sessionNotFound);
