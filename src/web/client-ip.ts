// The client address a request is counted against (D10). With MCP_TRUST_PROXY=N (true
// is 1) the client is the Nth X-Forwarded-For entry counted from the right: each trusted proxy
// appends the address it saw, so entries further left were written by the client itself and are
// never believed. A header with fewer entries than proxies did not come through them all: the
// socket address counts then.

export function clientIp(request: Request, socketIp: string | undefined, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded) {
      const hops = forwarded.split(',');
      const entry = hops.length >= trustedProxies ? hops[hops.length - trustedProxies].trim() : '';
      if (entry) return entry;
    }
  }
  return socketIp ?? 'unknown';
}
