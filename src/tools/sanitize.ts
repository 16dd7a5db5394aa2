// Untrusted text in results (D36): every string of a result loses the invisible and bidirectional
// control characters, and the prose fields (titles, descriptions, comment bodies, commit messages)
// their HTML comments as well, however deep they sit (a todo's target, a link's issues, a thread's
// notes). Runs on every result except a full_response one, lean or not, when its JSON text shows
// something to remove (mayNeedCleaning). The value is a fresh parse of the forge's answer, so it is
// cleaned in place.
import { hasInvisible } from '../text/invisible';
import { cleanProse, cleanText } from '../text/untrusted';

/** Fields whose text GitLab renders as Markdown (or shows as prose) and people other than the caller write. */
const PROSE = new Set(['title', 'description', 'body', 'message', 'note', 'summary']);
/** GitLab's records are a few levels deep; anything deeper is left as it is rather than recursed into. */
const MAX_DEPTH = 32;

function cleanArray(list: unknown[], depth: number): void {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === 'string') list[i] = cleanText(item);
    else if (item !== null && typeof item === 'object' && depth < MAX_DEPTH) cleanNode(item, depth + 1);
  }
}

function cleanObject(record: Record<string, unknown>, depth: number): void {
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'string') record[key] = PROSE.has(key) ? cleanProse(value) : cleanText(value);
    else if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) cleanNode(value, depth + 1);
    // A key is forge data too where people name it (commit trailers).
    if (hasInvisible(key)) {
      const clean = cleanText(key);
      if (!(clean in record)) record[clean] = record[key];
      delete record[key];
    }
  }
}

function cleanNode(node: object, depth: number): void {
  if (Array.isArray(node)) cleanArray(node, depth);
  else cleanObject(node as Record<string, unknown>, depth);
}

/**
 * Whether a result, as the JSON text it is sent as, may hold anything D36 removes. JSON.stringify
 * writes these characters and `<!--` as they are, so a result without them needs no walk: the
 * common case costs one scan of the text.
 */
export function mayNeedCleaning(json: string): boolean {
  return json.includes('<!--') || hasInvisible(json);
}

/** `value` with its text cleaned (D36); strings at the top level are cleaned too. */
export function sanitizeResult(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value !== null && typeof value === 'object') cleanNode(value, 0);
  return value;
}
