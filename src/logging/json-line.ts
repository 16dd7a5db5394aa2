// One log or audit line as JSON (D5, D35). Fields can hold text others wrote: a forge username, a
// refused host, a tool name a client sent. JSON.stringify escapes C0 controls but writes every
// other character as itself, so a value with a right-to-left override, a zero-width character or
// a C1 control (U+009B starts an escape sequence in some terminals) would display, in a terminal or
// a log viewer, as something it is not. Those characters, the invisible ones of D36 included, are
// written as \u escapes instead: the line parses to the same value and reads as what it holds.
import { INVISIBLE_CHARACTERS } from '../text/invisible';

/** DEL and C1 controls, U+2028/U+2029 (line breaks to some viewers) and D36's invisible and bidirectional characters. */
const DECEPTIVE = new RegExp(`[\\u{7F}-\\u{9F}\\u{2028}\\u{2029}${INVISIBLE_CHARACTERS}]`, 'gu');
const ANY_DECEPTIVE = new RegExp(DECEPTIVE.source, 'u');

/** `\uXXXX` for each UTF-16 unit of the character (a surrogate pair for the tag characters). */
function escaped(character: string): string {
  let out = '';
  for (let i = 0; i < character.length; i++) out += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** `value` as one line of JSON (no newline), with deceptive characters escaped. */
export function jsonLine(value: unknown): string {
  const text = JSON.stringify(value);
  return ANY_DECEPTIVE.test(text) ? text.replace(DECEPTIVE, escaped) : text;
}
