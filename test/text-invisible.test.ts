// D36's character set: every invisible and bidirectional control character is removed,
// everything else — including the neighbours of each range and emoji — is kept.
import { describe, expect, test } from 'bun:test';
import { hasInvisible, stripInvisible } from '../src/text/invisible';

const RANGES: [number, number][] = [
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
  [0xe0000, 0xe007f],
];
const every = RANGES.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)));
const neighbours = RANGES.flatMap(([from, to]) => [from - 1, to + 1]).filter((c) => c !== 0x2065).map((c) => String.fromCodePoint(c));

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
});
