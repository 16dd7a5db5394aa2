// Invisible and bidirectional control characters (D36): zero-width U+200B–U+200F,
// embeddings and overrides U+202A–U+202E, U+2060–U+2064, isolates U+2066–U+2069, U+FEFF and the
// tag characters U+E0000–U+E007F. They render as nothing or reorder what is around them, so text
// someone else wrote can look like something it is not; wherever such text is shown it goes
// through here first.

/** The D36 characters as the inside of a regular expression's character class (with the `u` flag). */
export const INVISIBLE_CHARACTERS = '\\u{200B}-\\u{200F}\\u{202A}-\\u{202E}\\u{2060}-\\u{2064}\\u{2066}-\\u{2069}\\u{FEFF}\\u{E0000}-\\u{E007F}';
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARACTERS}]`, 'gu');
const ANY_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

/** `text` without any of the D36 characters (unchanged when it has none). */
export function stripInvisible(text: string): string {
  return ANY_INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
}

/** Whether `text` holds any of the D36 characters. */
export function hasInvisible(text: string): boolean {
  return ANY_INVISIBLE.test(text);
}
