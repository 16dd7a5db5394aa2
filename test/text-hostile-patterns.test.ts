// The text scanners of D36 on hostile input: a megabyte built to make a regular expression
// backtrack (a long path with no `#`, an unclosed link title, thousands of keywords) is read in one
// pass and gives the plain answer. Each would take seconds to minutes if a pattern backtracked.
import { describe, expect, test } from 'bun:test';
import { closingReferences } from '../src/text/closing-pattern';
import { stripHiddenMarkdown } from '../src/text/hidden-markdown';
import { findInvisible } from '../src/text/invisible';

const MB = 1_000_000;

describe('closingReferences', () => {
  test("GitLab's default pattern: keywords, colons, lists, paths, URLs, external ids; not other words or case", () => {
    expect(closingReferences('Closes #12\nAlso fixes group/proj#3 and #4, #5')).toEqual(['#12', 'group/proj#3', '#4', '#5']);
    expect(closingReferences('Closing: https://gitlab.example/a/b/-/issues/9', 'Implements JIRA-12', 'Resolves issue #7')).toEqual([
      'https://gitlab.example/a/b/-/issues/9',
      'JIRA-12',
      '#7',
    ]);
    expect(closingReferences('See #4; encloses #5; prefix #6; CLOSES #8', undefined, '')).toEqual([]);
  });

  test('a megabyte of hostile text is read once: a long path without #, keywords without references, spaces', () => {
    expect(closingReferences(`Closes ${'a/'.repeat(MB / 2)}`)).toEqual([]);
    expect(closingReferences('Fixes '.repeat(MB / 6))).toEqual([]);
    expect(closingReferences(`Closes ${' '.repeat(MB)}#1`)).toEqual([]);
    expect(closingReferences('Closes #1 and '.repeat(MB / 14))).toHaveLength(1);
    expect(closingReferences(Array.from({ length: 200 }, (_, i) => `Fixes #${i}`).join('\n'))).toHaveLength(50);
  });
});

describe('stripHiddenMarkdown', () => {
  test('a megabyte of unclosed titles, link openers and definitions comes back as it was', () => {
    for (const text of [`[x](u "${'a'.repeat(MB)}`, '](a'.repeat(MB / 3), `[x](${'a('.repeat(MB / 2)}`, '['.repeat(MB)])
      expect(stripHiddenMarkdown(text)).toBe(text);
    // A title never closed on its line is no definition (CommonMark): shown, so kept.
    const unclosed = '[a]: /u "x\n'.repeat(MB / 10);
    expect(stripHiddenMarkdown(unclosed)).toBe(unclosed);
    expect(stripHiddenMarkdown('[//]: # (x)\n'.repeat(MB / 12))).toBe('');
  });
});

describe('findInvisible', () => {
  test('a megabyte of zero-width characters is counted in one pass; the lists stay short', () => {
    const report = findInvisible('\u200B\n'.repeat(MB / 2))!;
    expect(report.count).toBe(MB / 2);
    expect(report.lines).toHaveLength(100);
    expect(report.characters).toEqual(['U+200B']);
  });
});
