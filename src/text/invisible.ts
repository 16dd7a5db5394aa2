// Invisible and bidirectional control characters (D36), from one table. They render as nothing or
// reorder what is around them, so text someone else wrote can look like something it is not:
// prose (titles, descriptions, comments) loses them; file contents, diffs and blame keep them and
// say where they are (file-report.ts), since there they may be meant (Persian spelling, emoji).
//
// Source: Unicode's PropList.txt (Bidi_Control) and DerivedCoreProperties.txt
// (Default_Ignorable_Code_Point), Unicode 15.1/16.0. Every Bidi_Control character is here; of the
// Default_Ignorable_Code_Point ranges, all but U+00AD SOFT HYPHEN, which shows as a hyphen where a
// line breaks and hides nothing.

interface InvisibleRange {
  readonly from: number;
  readonly to: number;
  /** What the Unicode data files say of it. */
  readonly what: string;
}

const INVISIBLE_RANGES: readonly InvisibleRange[] = [
  { from: 0x034f, to: 0x034f, what: 'COMBINING GRAPHEME JOINER (DICP)' },
  { from: 0x061c, to: 0x061c, what: 'ARABIC LETTER MARK (Bidi_Control, DICP)' },
  { from: 0x115f, to: 0x1160, what: 'HANGUL CHOSEONG/JUNGSEONG FILLER (DICP)' },
  { from: 0x17b4, to: 0x17b5, what: 'KHMER VOWEL INHERENT AQ/AA (DICP)' },
  { from: 0x180b, to: 0x180f, what: 'MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR (DICP)' },
  { from: 0x200b, to: 0x200f, what: 'ZERO WIDTH SPACE..RIGHT-TO-LEFT MARK (U+200E, U+200F Bidi_Control; DICP)' },
  { from: 0x202a, to: 0x202e, what: 'EMBEDDINGS and OVERRIDES (Bidi_Control, DICP)' },
  { from: 0x2060, to: 0x206f, what: 'WORD JOINER..NOMINAL DIGIT SHAPES, ISOLATES U+2066..U+2069 (Bidi_Control; DICP)' },
  { from: 0x3164, to: 0x3164, what: 'HANGUL FILLER (DICP)' },
  { from: 0xfe00, to: 0xfe0f, what: 'VARIATION SELECTORS 1-16 (DICP)' },
  { from: 0xfeff, to: 0xfeff, what: 'ZERO WIDTH NO-BREAK SPACE / BOM (DICP)' },
  { from: 0xffa0, to: 0xffa0, what: 'HALFWIDTH HANGUL FILLER (DICP)' },
  { from: 0xfff0, to: 0xfff8, what: 'unassigned (DICP)' },
  { from: 0x1bca0, to: 0x1bca3, what: 'SHORTHAND FORMAT CONTROLS (DICP)' },
  { from: 0x1d173, to: 0x1d17a, what: 'MUSICAL SYMBOL BEGIN BEAM..END PHRASE (DICP)' },
  { from: 0xe0000, to: 0xe0fff, what: 'TAGS, VARIATION SELECTORS 17-256, unassigned (DICP)' },
];

const hex = (c: number) => `\\u{${c.toString(16).toUpperCase()}}`;
/** The characters as the inside of a regular expression's character class (with the `u` flag). */
export const INVISIBLE_CHARACTERS = INVISIBLE_RANGES.map((r) => (r.from === r.to ? hex(r.from) : `${hex(r.from)}-${hex(r.to)}`)).join('');
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

const LOWEST = INVISIBLE_RANGES[0].from;
function isInvisible(point: number): boolean {
  for (const range of INVISIBLE_RANGES) {
    if (point < range.from) return false;
    if (point <= range.to) return true;
  }
  return false;
}

/** At most this many line numbers are listed in a report. */
const MAX_LINES = 100;

interface InvisibleReport {
  /** How many of the D36 characters the text holds. */
  count: number;
  /** The 1-based lines holding them (the first 100). */
  lines: number[];
  /** The characters found, as U+XXXX, each once (the first 20). */
  characters: string[];
}

/** Where the D36 characters are in `text`, or undefined when it has none. */
export function findInvisible(text: string, firstLine = 1): InvisibleReport | undefined {
  if (!ANY_INVISIBLE.test(text)) return undefined;
  let count = 0;
  const lines: number[] = [];
  const points = new Set<number>();
  let line = firstLine;
  // One pass over the code units (a regular expression's match objects cost more, per character found).
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x0a) {
      line++;
      continue;
    }
    if (unit < LOWEST) continue;
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i++;
    if (!isInvisible(point)) continue;
    count++;
    if (lines[lines.length - 1] !== line && lines.length < MAX_LINES) lines.push(line);
    if (points.size < 20) points.add(point);
  }
  const characters = [...points].map((point) => `U+${point.toString(16).toUpperCase().padStart(4, '0')}`);
  return { count, lines, characters };
}
