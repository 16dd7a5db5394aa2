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

interface CompiledPath {
  /** Literal text around the placeholders: always one more than `names`. */
  literals: string[];
  names: string[];
}

// Templates are a fixed set of strings in tool definitions: split each once, not per call.
const compiled = new Map<string, CompiledPath>();

function compile(template: string): CompiledPath {
  let found = compiled.get(template);
  if (!found) {
    const literals: string[] = [];
    const names: string[] = [];
    let last = 0;
    for (const match of template.matchAll(/\{(\w+)\}/g)) {
      literals.push(template.slice(last, match.index));
      names.push(match[1]);
      last = (match.index ?? 0) + match[0].length;
    }
    literals.push(template.slice(last));
    found = { literals, names };
    compiled.set(template, found);
  }
  return found;
}

/** The argument names a path template fills. */
export function pathParameters(template: string): readonly string[] {
  return compile(template).names;
}

/**
 * Fills `{name}` placeholders of a path template from the arguments, each encoded as one segment.
 * Templates are fixed strings in tool definitions; a missing argument is a programming error.
 */
export function fillPath(template: string, args: Record<string, unknown>): string {
  const { literals, names } = compile(template);
  let path = literals[0];
  for (let i = 0; i < names.length; i++) {
    const value = args[names[i]];
    if (value === undefined || value === null || value === '') throw new Error(`path parameter ${names[i]} missing for ${template}`);
    path += encodeSegment(value as string | number) + literals[i + 1];
  }
  return path;
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
