// Forge API URLs are kept in one normalized shape, ending in /api/v4 (docs/spec.md "Versioning"):
// a full API URL is kept, a base URL gets the suffix, a custom path prefix is kept.

/** Returns the normalized API URL, or undefined when `raw` is not an http(s) URL. */
export function normalizeApiUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/api/v4')) path = `${path}/api/v4`;
  return `${url.protocol}//${url.host}${path}`;
}

/** The forge's base URL of a normalized API URL: `https://host/prefix/api/v4` → `https://host/prefix`. */
export function forgeBaseOf(apiUrl: string): string {
  return apiUrl.slice(0, apiUrl.length - '/api/v4'.length);
}
