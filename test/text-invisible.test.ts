// D36's character set: every invisible and bidirectional control character is removed,
// everything else — including the neighbours of each range and emoji — is kept. The ranges below
// are copied from Unicode's own files, not from the table under test: PropList.txt (Bidi_Control)
// and DerivedCoreProperties.txt (Default_Ignorable_Code_Point, less U+00AD SOFT HYPHEN).
import { describe, expect, test } from 'bun:test';
import { findInvisible, hasInvisible, stripInvisible } from '../src/text/invisible';

/** PropList.txt, Bidi_Control. */
const BIDI_CONTROL: [number, number][] = [
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
];
/** DerivedCoreProperties.txt, Default_Ignorable_Code_Point (U+00AD left out on purpose). */
const DEFAULT_IGNORABLE: [number, number][] = [
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180d],
  [0x180e, 0x180e],
  [0x180f, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2065, 0x2065],
  [0x2066, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];
const RANGES = [...BIDI_CONTROL, ...DEFAULT_IGNORABLE];
const inSet = (c: number) => RANGES.some(([from, to]) => c >= from && c <= to);
const every = RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)));
const neighbours = RANGES.flatMap(([from, to]) => [from - 1, to + 1])
  .filter((c) => !inSet(c))
  .map((c) => String.fromCodePoint(c));

describe('stripInvisible', () => {
  test('removes each of the set, alone and between letters', () => {
    for (const c of every) {
      expect(stripInvisible(c)).toBe('');
      expect(stripInvisible(`a${c}b${c}`)).toBe('ab');
      expect(hasInvisible(`x${c}`)).toBe(true);
    }
    expect(stripInvisible(every.join(''))).toBe('');
  });

  test('keeps the characters just outside each range', () => {
    for (const c of neighbours) {
      expect(stripInvisible(`a${c}b`)).toBe(`a${c}b`);
      expect(hasInvisible(c)).toBe(false);
    }
  });

  test('keeps ordinary text, other scripts, emoji and lone surrogates as they are', () => {
    for (const text of ['', 'Cursor', 'Über Straße', 'עברית', '中文', '😀 ok', '\uD800x', 'a\u00ADb']) {
      expect(stripInvisible(text)).toBe(text);
    }
  });

  test('a large text is handled in one pass', () => {
    const text = 'ab\u202E'.repeat(200_000);
    expect(stripInvisible(text)).toBe('ab'.repeat(200_000));
  });

  test('every bidirectional control is removed, U+061C ARABIC LETTER MARK among them', () => {
    expect(stripInvisible('a\u061Cb\u200Ec\u2067d\u2069')).toBe('abcd');
    expect(hasInvisible('\u061C')).toBe(true);
  });

  test('characters that hide text: Hangul fillers, variation selectors, tags; the soft hyphen stays', () => {
    expect(stripInvisible('x\u3164\uFFA0\u115Fy\uFE0F\u{E0101}\u{E0041}z')).toBe('xyz');
    expect(stripInvisible('co\u00ADop')).toBe('co\u00ADop');
  });
});

describe('findInvisible', () => {
  test('counts them and names their lines and code points', () => {
    expect(findInvisible('plain\ntext')).toBeUndefined();
    expect(findInvisible('ok\nif (isAdmin\u202E \u2066) {\nok\n\u200Dx\u200D')).toEqual({
      count: 4,
      lines: [2, 4],
      characters: ['U+202E', 'U+2066', 'U+200D'],
    });
    expect(findInvisible('\u061C', 10)).toEqual({ count: 1, lines: [10], characters: ['U+061C'] });
  });
});
