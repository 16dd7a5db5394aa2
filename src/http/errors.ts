// Errors on /mcp are JSON-RPC error objects carrying SPEC's message text with SPEC's status
// (DECISIONS D6). The texts are defined once here.
export const MESSAGES = {
  missingCredentials: 'Missing Authorization or Private-Token header',
  authenticationRequired: 'Authentication required',
  sessionNotFound: 'Session not found',
  rateLimited: 'Rate limit exceeded',
  capacity: 'Server capacity reached',
  invalidApiUrl: 'Invalid custom API URL provided',
  sessionIdRequired: 'Bad Request: Mcp-Session-Id header is required',
  parseError: 'Parse error: Invalid JSON',
  forbiddenOrigin: 'Forbidden: Origin not allowed',
} as const;

export const RPC_CODES = { generic: -32000, sessionNotFound: -32001, parseError: -32700, invalidRequest: -32600 } as const;

export function rpcError(status: number, message: string, code: number = RPC_CODES.generic, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export const unauthorized = (message: string = MESSAGES.missingCredentials, challenge = 'Bearer') =>
  rpcError(401, message, RPC_CODES.generic, { 'WWW-Authenticate': challenge });

export const sessionNotFound = () => rpcError(404, MESSAGES.sessionNotFound, RPC_CODES.sessionNotFound);

export const rateLimited = (retryAfterSeconds: number) =>
  rpcError(429, MESSAGES.rateLimited, RPC_CODES.generic, { 'Retry-After': String(retryAfterSeconds) });
