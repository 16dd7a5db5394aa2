// The `resource` parameter (RFC 8707, D29): at /authorize and /token it must name this server's
// protected resource, `{MCP_SERVER_URL}/mcp`, and nothing else: not the base URL, not a trailing-slash
// variant, no query or fragment. It is compared as a URL, so the scheme and host may be written in
// any case and a default port may be spelt out (the MCP authorization spec asks servers to accept
// those spellings of the canonical URI); anything else is `invalid_target`.
import type { OAuthSettings } from './settings';

export function isOurResource(value: string, s: Pick<OAuthSettings, 'resource'>): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // A bare `?` or `#` leaves an empty search or hash behind, so the text is checked too.
  if (value.includes('?') || value.includes('#')) return false;
  return url.href === new URL(s.resource).href;
}
