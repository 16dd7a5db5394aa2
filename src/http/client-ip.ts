// The client address a request is counted against (DECISIONS D10): the socket's address, or the
// first X-Forwarded-For hop when MCP_TRUST_PROXY=true (behind a reverse proxy that sets it).

export function clientIp(request: Request, socketIp: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for');
    const first = forwarded?.split(',')[0]?.trim();
    if (first) return first;
  }
  return socketIp ?? 'unknown';
}
