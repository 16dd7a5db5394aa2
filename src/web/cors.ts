// CORS for browser clients whose Origin passed the origin policy: they may send every header /mcp
// reads (credentials, the revision's headers, the forge URL of D8, the policy headers of D34) and
// must be able to read the session id and the authentication challenge (MCP transport notes).
const ALLOW_HEADERS =
  'Authorization, Private-Token, JOB-TOKEN, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, X-Forge-API-URL, X-MCP-Toolsets, X-MCP-Tools, X-MCP-Exclude-Tools, X-MCP-Readonly';
const EXPOSE_HEADERS = 'Mcp-Session-Id, WWW-Authenticate, Retry-After';

export function withCors(response: Response, origin: string | null): Response {
  if (origin === null) return response;
  response.headers.set('Access-Control-Allow-Origin', origin);
  response.headers.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
  response.headers.append('Vary', 'Origin');
  return response;
}

export function preflight(origin: string | null): Response {
  return withCors(
    new Response(null, {
      status: 204,
      headers: { 'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS', 'Access-Control-Allow-Headers': ALLOW_HEADERS, 'Access-Control-Max-Age': '600' },
    }),
    origin,
  );
}
