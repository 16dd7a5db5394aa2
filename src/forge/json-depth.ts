// How deeply a JSON text nests, counted without parsing it. JSON.parse and JSON.stringify recurse,
// so an answer nested a few hundred thousand levels deep would exhaust the call stack and surface
// as a JSON-RPC internal error instead of a tool error (D30: malformed forge bodies are tool
// errors). GitLab's records nest a handful of levels; anything past MAX_JSON_DEPTH is not GitLab.

/** Far beyond any GitLab record, far below what recursion in the runtime survives. */
export const MAX_JSON_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** True when the text opens more than `limit` arrays or objects inside each other (strings skipped). */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}
