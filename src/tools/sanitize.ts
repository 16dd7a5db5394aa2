// Untrusted text in results (D36): every string of a result loses the invisible and bidirectional
// control characters, and the prose fields (titles, descriptions, comment bodies, commit messages)
// their HTML comments and hidden link definitions as well, however deep they sit (a todo's target,
// a link's issues, a thread's notes). Code is the exception: a file's content, a diff and blame
// lines come back exact (a zero-width joiner may be meant, and an edit must not lose it), and the
// record they sit in says where such characters are (`invisible_characters`: count, line numbers,
// code points), so an agent can see a "Trojan Source" line for what it is. Runs on every result except a full_response one, lean or not, when its JSON text shows
// something to remove (mayNeedCleaning). The value is a fresh parse of the forge's answer, so it is
// cleaned in place.
import { findInvisible, hasInvisible } from '../text/invisible';
import { cleanProse, cleanText } from '../text/untrusted';
import { isDiffRows } from './lean/diff-lines';

/** Fields whose text GitLab renders as Markdown (or shows as prose) and people other than the caller write. */
const PROSE = new Set(['title', 'description', 'body', 'message', 'note', 'summary']);
/** Fields holding code: kept exact, their invisible characters reported beside them. */
const CODE = new Set(['content', 'diff', 'lines']);
/** Where the report goes in the record holding the code. */
const INVISIBLE_REPORT = 'invisible_characters';

/**
 * Reports the invisible characters of a code field (a string, blame's array of lines, or a diff's
 * numbered rows, lean/diff-lines.ts: their line numbers are the rows') on its record.
 */
function reportCode(record: Record<string, unknown>, key: string, value: unknown): boolean {
  let text: string | undefined;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value) && value.every((line) => typeof line === 'string')) text = value.join('\n');
  else if (Array.isArray(value) && isDiffRows(value)) text = value.map((row) => row[2]).join('\n');
  if (text === undefined) return false;
  // A file read from start_line counts its lines from there.
  const first = key === 'content' && typeof record.start_line === 'number' ? record.start_line : 1;
  const report = findInvisible(text, first);
  if (report) record[INVISIBLE_REPORT] = report;
  return true;
}

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
    if (CODE.has(key) && reportCode(record, key, value)) continue;
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
 * writes these characters, `<!--`, `]:` and `](` as they are, so a result without them needs no walk: the
 * common case costs one scan of the text.
 */
export function mayNeedCleaning(json: string): boolean {
  return json.includes('<!--') || json.includes(']:') || json.includes('](') || hasInvisible(json);
}

/** `value` with its text cleaned (D36); strings at the top level are cleaned too. */
export function sanitizeResult(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value !== null && typeof value === 'object') cleanNode(value, 0);
  return value;
}
