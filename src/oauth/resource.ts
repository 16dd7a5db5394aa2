// The `resource` parameter (RFC 8707, D29): at /authorize and /token it must name this server,
// its /mcp endpoint or its base URL, without query or fragment; anything else is `invalid_target`.
import type { OAuthSettings } from './settings';

const withoutSlash = (url: URL) => `${url.origin}${url.pathname.replace(/\/+$/, '')}`;

export function isOurResource(value: string, s: Pick<OAuthSettings, 'resource' | 'serverUrl'>): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || url.search) return false;
  const named = withoutSlash(url);
  return named === withoutSlash(new URL(s.resource)) || named === withoutSlash(new URL(s.serverUrl));
}
