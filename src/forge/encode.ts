// Identifiers in URL paths reach the forge encoded exactly once (DECISIONS D26): a project path
// `group/sub/project`, its already-encoded form `group%2Fsub%2Fproject`, branch names, refs and
// file paths with `/` all become `%2F`-encoded single path segments.

/** Encodes one path segment; a value that arrives already %2F-encoded is decoded first. */
export function encodeSegment(value: string | number): string {
  const text = String(value);
  if (!text.includes('/') && /%2f/i.test(text)) {
    try {
      return encodeURIComponent(decodeURIComponent(text));
    } catch {
      // Not valid percent-encoding after all: encode it as it is.
    }
  }
  return encodeURIComponent(text);
}

/**
 * Fills `{name}` placeholders of a path template from the arguments, each encoded as one segment.
 * Templates are fixed strings in tool definitions; a missing argument is a programming error.
 */
export function fillPath(template: string, args: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args[name];
    if (value === undefined || value === null || value === '') throw new Error(`path parameter ${name} missing for ${template}`);
    return encodeSegment(value as string | number);
  });
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** GitLab query conventions: arrays as `key[]=v`, booleans as true/false, empty values left out. */
export function buildQuery(params: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) parts.push(`${encodeURIComponent(key)}[]=${encodeURIComponent(String(item))}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
