// MAX_RESULT_BYTES (D33): a result over the bound is cut rather than failed, at a whole item of
// a list (so every item shown is complete), saying `truncated: true` and how to get the rest. A
// single record over the bound has its longest texts shortened instead, each marked where it was
// cut. Text and structuredContent stay the same value (D16).
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isRecord, type Rec } from './lean/helpers';
import { asObject } from './result';
import { mayNeedCleaning, sanitizeResult } from './sanitize';
import type { ToolDefinition } from './define';

/** UTF-8 bytes of a JSON text; a UTF-16 unit is at most 3 bytes, so short texts skip the count. */
function bytes(text: string, bound: number): number {
  return text.length * 3 <= bound ? text.length : Buffer.byteLength(text);
}

/** Marks a result built here, whose text is exactly JSON.stringify(structuredContent) (invisible to JSON and zod). */
const STRUCTURED_IS_TEXT = Symbol('structuredContent is its text');

function result(structured: Rec, text: string): CallToolResult {
  const built = { content: [{ type: 'text', text }], structuredContent: structured } as CallToolResult & { [STRUCTURED_IS_TEXT]?: true };
  built[STRUCTURED_IS_TEXT] = true;
  return built;
}

/**
 * The JSON of a result's structuredContent when it is already at hand: a success result built
 * here carries it as its text (D16), so an answer may embed that text rather than print the
 * value a second time. Undefined for any other result.
 */
export function structuredContentJson(value: CallToolResult): string | undefined {
  return (value as { [STRUCTURED_IS_TEXT]?: true })[STRUCTURED_IS_TEXT] ? (value.content[0] as { text: string }).text : undefined;
}

/**
 * How a cut list tells the agent to get the rest (D33): only through parameters the tool has. A
 * tool with `per_page` pages on; one without says the rest is out of its reach, or names its own
 * way to ask for less (`narrowing` on its definition). Built once per tool by the catalog, so a
 * call that is not cut does nothing more.
 */
export type RestAdvice = (shown: number) => string;

const PAGED: RestAdvice = (shown) => `for the rest ask again with per_page=${Math.max(1, shown)} and the next pages, or narrow the filter`;

export function restAdvice(tool: Pick<ToolDefinition, 'input' | 'narrowing'>): RestAdvice {
  if ('per_page' in tool.input.properties) return PAGED;
  const text = `this tool takes no page parameters: ${tool.narrowing ?? 'the items left out cannot be fetched through it'}`;
  return () => text;
}

function cutItems(structured: Rec & { items: unknown[] }, maxBytes: number, rest: RestAdvice): Rec {
  const total = structured.items.length;
  const advice = (shown: number) => `cut to ${shown} of ${total} items to stay within MAX_RESULT_BYTES (${maxBytes} bytes); ${rest(shown)}`;
  const frame = { ...structured, items: [] as unknown[], truncated: true, truncation: advice(total) };
  let used = Buffer.byteLength(JSON.stringify(frame));
  let kept = 0;
  for (const item of structured.items) {
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (used + size > maxBytes) break;
    used += size;
    kept++;
  }
  return { ...structured, items: structured.items.slice(0, kept), truncated: true, truncation: advice(kept) };
}

/** The string fields of `node` (at any depth) with their owners, longest first. */
function longTexts(node: unknown, found: { owner: Rec | unknown[]; key: string | number; length: number }[] = [], depth = 0) {
  if (depth > 16) return found;
  if (Array.isArray(node))
    node.forEach((v, i) => (typeof v === 'string' ? found.push({ owner: node, key: i, length: v.length }) : longTexts(v, found, depth + 1)));
  else if (isRecord(node))
    for (const key in node) {
      const v = node[key];
      if (typeof v === 'string') found.push({ owner: node, key, length: v.length });
      else longTexts(v, found, depth + 1);
    }
  return found;
}

function cutTexts(structured: Rec, maxBytes: number): Rec {
  const copy = JSON.parse(JSON.stringify(structured)) as Rec;
  const marker = (n: number) => `… [${n} characters cut: MAX_RESULT_BYTES]`;
  // A few rounds at most: a character may be more than one byte, so one pass can fall short.
  for (let round = 0; round < 3; round++) {
    // Room is left for the truncation note added below.
    let over = Buffer.byteLength(JSON.stringify(copy)) - maxBytes + 300;
    if (over <= 0) break;
    for (const t of longTexts(copy).sort((a, b) => b.length - a.length)) {
      if (over <= 0) break;
      const owner = t.owner as Record<string | number, string>;
      const text = owner[t.key];
      const drop = Math.min(text.length, over + 60);
      owner[t.key] = `${text.slice(0, text.length - drop)}${marker(drop)}`;
      over -= drop - 60;
    }
  }
  return {
    ...copy,
    truncated: true,
    truncation: `long texts were cut to stay within MAX_RESULT_BYTES (${maxBytes} bytes); full_response does not lift the bound`,
  };
}

/**
 * The CallToolResult of a successful value (D16), its text cleaned unless `asSent` (D36, a
 * full_response), cut to `maxBytes` when it is larger (D33), a cut list saying what `rest` advises.
 */
export function boundedResult(value: unknown, maxBytes: number, asSent = false, rest: RestAdvice = PAGED): CallToolResult {
  const structured = asObject(value);
  let text = JSON.stringify(structured);
  if (!asSent && mayNeedCleaning(text)) {
    sanitizeResult(structured);
    text = JSON.stringify(structured);
  }
  if (bytes(text, maxBytes) <= maxBytes) return result(structured, text);
  const cut = Array.isArray(structured.items) ? cutItems(structured as Rec & { items: unknown[] }, maxBytes, rest) : cutTexts(structured, maxBytes);
  return result(cut, JSON.stringify(cut));
}
