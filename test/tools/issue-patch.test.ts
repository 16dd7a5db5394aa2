// The description patch formats as pure functions (D25): parsing, applying, mismatches,
// the diff preview, and that a preview applied as a patch gives the new text back.
import { describe, expect, test } from 'bun:test';
import { ToolError } from '../../src/tools/errors';
import { applyPatch, parsePatch } from '../../src/tools/issues/patch/apply';
import { lineDiff } from '../../src/tools/issues/patch/line-diff';
import { applySearchReplace, parseSearchReplace } from '../../src/tools/issues/patch/search-replace';
import { applyUnifiedDiff, parseUnifiedDiff } from '../../src/tools/issues/patch/unified-diff';

const DESC = ['# Login fails', '', '## Steps', '1. Open the app', '2. Click SSO', '', '## Tasks', '- [ ] Write tests', '- [ ] Fix redirect'].join('\n');

function failure(run: () => unknown): { kind: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('expected a ToolError');
}

const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

describe('search_replace', () => {
  test('one block replaces the exact text once', () => {
    const blocks = parseSearchReplace(block('- [ ] Write tests', '- [x] Write tests'));
    expect(blocks).toEqual([{ search: '- [ ] Write tests', replace: '- [x] Write tests' }]);
    expect(applySearchReplace(DESC, blocks, false)).toEqual({ text: DESC.replace('- [ ] Write tests', '- [x] Write tests'), replacements: 1 });
  });

  test('several blocks apply in order; multi-line text; an empty replacement deletes; CRLF patches work', () => {
    const patch = `${block('## Steps\n1. Open the app', '## Steps\n1. Open the app in a private window')}\r\n\r\n${block('2. Click SSO\n', '')}\n`;
    const { text } = applySearchReplace(DESC, parseSearchReplace(patch), false);
    expect(text).toBe(DESC.replace('1. Open the app', '1. Open the app in a private window').replace('2. Click SSO\n', ''));
  });

  test('a description with CRLF line endings keeps them', () => {
    const crlf = DESC.replaceAll('\n', '\r\n');
    const { text } = applySearchReplace(crlf, parseSearchReplace(block('## Tasks\n- [ ] Write tests', '## Tasks\n- [x] Write tests')), false);
    expect(text).toBe(crlf.replace('- [ ] Write tests', '- [x] Write tests'));
  });

  test('replacement text with $ patterns is inserted literally', () => {
    expect(applySearchReplace('cost: X', parseSearchReplace(block('X', "$& $1 $$ $'")), false).text).toBe("cost: $& $1 $$ $'");
  });

  test('more than one match fails unless allow_multiple, which replaces every one', () => {
    const blocks = parseSearchReplace(block('- [ ]', '- [x]'));
    expect(failure(() => applySearchReplace(DESC, blocks, false))).toEqual({
      kind: 'mismatch',
      message:
        'the block: the SEARCH text occurs 2 times; add neighbouring lines to make it unique, or set allow_multiple to replace every occurrence. Nothing was changed',
    });
    expect(applySearchReplace(DESC, blocks, true)).toEqual({ text: DESC.replaceAll('- [ ]', '- [x]'), replacements: 2 });
  });

  test('text that is not there is a mismatch, with a hint when only whitespace differs', () => {
    expect(failure(() => applySearchReplace(DESC, parseSearchReplace(block('3. Log in', 'x')), false))).toEqual({
      kind: 'mismatch',
      message: 'the block: the SEARCH text was not found in the description. Nothing was changed',
    });
    expect(failure(() => applySearchReplace(DESC, parseSearchReplace(block('1.  Open the app', 'x')), false)).message).toContain('whitespace is ignored');
    const twoBlocks = parseSearchReplace(`${block('Click SSO', 'Tap SSO')}\n${block('Click SSO', 'y')}`);
    expect(failure(() => applySearchReplace(DESC, twoBlocks, false)).message).toContain(
      'block 2: the SEARCH text was not found in the description; blocks apply in order',
    );
  });

  test.each([
    ['text outside a block', `hello\n${block('a', 'b')}`, 'line 1: text outside a block'],
    ['no divider', '<<<<<<< SEARCH\na\n>>>>>>> REPLACE', 'line 3: block 1 has no ======= line after its SEARCH text'],
    ['an unclosed block', '<<<<<<< SEARCH\na\n=======\nb', 'block 1 is not closed by >>>>>>> REPLACE'],
    ['an empty SEARCH text', block('', 'new'), 'block 1: the SEARCH text is empty'],
    ['no block at all', '\n\n', 'no <<<<<<< SEARCH block found'],
  ])('a malformed patch (%s) is a validation error on patch', (_, patch, message) => {
    const error = failure(() => parseSearchReplace(patch));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(`patch: ${message}`);
  });

  test('an outer ``` fence is ignored', () => {
    expect(parseSearchReplace(`\`\`\`\n${block('a', 'b')}\n\`\`\``)).toEqual([{ search: 'a', replace: 'b' }]);
  });
});

describe('unified_diff', () => {
  const diff = (...hunks: string[]) => ['--- a/description', '+++ b/description', ...hunks].join('\n');

  test('applies hunks with their context checked', () => {
    const patch = diff(
      '@@ -3,3 +3,3 @@',
      ' ## Steps',
      '-1. Open the app',
      '+1. Open the app in a private window',
      ' 2. Click SSO',
      '@@ -8,2 +8,3 @@',
      ' - [ ] Write tests',
      ' - [ ] Fix redirect',
      '+- [ ] Update docs',
    );
    expect(applyUnifiedDiff(DESC, parseUnifiedDiff(patch))).toBe(
      `${DESC.replace('1. Open the app', '1. Open the app in a private window')}\n- [ ] Update docs`,
    );
  });

  test('headers are optional; a wrong line number is tolerated when the lines occur exactly once later; a trailing newline is not a line', () => {
    const patch = ['@@ -1,2 +1,2 @@', ' ## Tasks', '-- [ ] Write tests', '+- [x] Write tests', ''].join('\n');
    expect(applyUnifiedDiff(DESC, parseUnifiedDiff(patch))).toBe(DESC.replace('- [ ] Write tests', '- [x] Write tests'));
  });

  test('an empty patch line counts as an empty context line; "\\ No newline" markers are skipped', () => {
    const patch = diff('@@ -1,3 +1,3 @@', '-# Login fails', '+# Login fails with SSO', '', ' ## Steps', '\\ No newline at end of file');
    expect(applyUnifiedDiff(DESC, parseUnifiedDiff(patch))).toBe(DESC.replace('# Login fails', '# Login fails with SSO'));
  });

  test('inserting into an empty description', () => {
    expect(applyUnifiedDiff('', parseUnifiedDiff(diff('@@ -0,0 +1,2 @@', '+first', '+second')))).toBe('first\nsecond');
  });

  test('context that does not match is a mismatch naming the line', () => {
    const patch = diff('@@ -4,1 +4,1 @@', '-1. Open the browser', '+1. Open the app');
    expect(failure(() => applyUnifiedDiff(DESC, parseUnifiedDiff(patch)))).toEqual({
      kind: 'mismatch',
      message:
        'hunk 1 (@@ -4,1 +4,1 @@): line 4 is "1. Open the app", the hunk expects "1. Open the browser"; context and removed lines must match the description exactly. Nothing was changed',
    });
  });

  test('lines not at the stated position that occur several times elsewhere are ambiguous', () => {
    const patch = diff('@@ -1,1 +1,1 @@', '-', '+(blank)');
    expect(failure(() => applyUnifiedDiff(DESC, parseUnifiedDiff(patch))).message).toContain('occur at lines 2, 6');
  });

  test.each([
    ['junk before the first hunk', 'please apply\n@@ -1 +1 @@\n-a\n+b', 'line 1: expected the --- / +++ header'],
    ['no hunk', '--- a/description\n+++ b/description\n', 'no @@ -l,s +l,s @@ hunk found'],
    ['a bad hunk header', diff('@@ -1 +1 @@', '-a', '+b', '@@ one @@'), 'line 6: malformed hunk header'],
    ['a line without a prefix', diff('@@ -1 +1 @@', '*a'), 'line 4: a hunk line must start with'],
    ['a hunk that changes nothing', diff('@@ -1,1 +1,1 @@', ' # Login fails'), 'hunk 1 (@@ -1,1 +1,1 @@) changes nothing'],
  ])('a malformed diff (%s) is a validation error on patch', (_, patch, message) => {
    const error = failure(() => parseUnifiedDiff(patch));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(`patch: ${message}`);
  });
});

describe('diff preview', () => {
  test('a unified diff with three lines of context and correct ranges', () => {
    const after = DESC.replace('2. Click SSO', '2. Click "Sign in with SSO"');
    expect(lineDiff(DESC, after)).toEqual({
      diff: [
        '--- a/description',
        '+++ b/description',
        '@@ -2,7 +2,7 @@',
        ' ',
        ' ## Steps',
        ' 1. Open the app',
        '-2. Click SSO',
        '+2. Click "Sign in with SSO"',
        ' ',
        ' ## Tasks',
        ' - [ ] Write tests',
      ].join('\n'),
      added: 1,
      removed: 1,
    });
  });

  test('no change, no diff', () => {
    expect(lineDiff(DESC, DESC)).toEqual({ diff: '', added: 0, removed: 0 });
  });

  test.each([
    ['an edit in the middle', DESC, DESC.replace('## Steps', '## Steps to reproduce')],
    ['lines added at the end', DESC, `${DESC}\n- [ ] Release\n`],
    ['everything removed', DESC, ''],
    ['from empty', '', 'new\ntext'],
    ['scattered edits', DESC, DESC.replace('# Login', '# SSO login').replace('- [ ] Fix', '- [x] Fix')],
    ['CRLF text', DESC.replaceAll('\n', '\r\n'), DESC.replaceAll('\n', '\r\n').replace('Open', 'Start')],
  ])('the preview of %s applies back as a unified_diff patch', (_, before, after) => {
    const { diff } = lineDiff(before, after);
    expect(applyUnifiedDiff(before, parseUnifiedDiff(diff))).toBe(after);
  });
});

describe('applyPatch', () => {
  test('summarizes each format', () => {
    const sr = applyPatch(parsePatch('search_replace', block('- [ ]', '- [x]')), DESC, true);
    expect(sr.summary).toBe('1 search/replace block, 2 replacements; +2 -2 lines');
    const ud = applyPatch(parsePatch('unified_diff', '@@ -1 +1 @@\n-# Login fails\n+# Login fails on Safari'), DESC);
    expect(ud.summary).toBe('a unified diff of 1 hunk; +1 -1 lines');
    expect(ud.description).toStartWith('# Login fails on Safari\n');
    expect(ud.diff).toContain('+# Login fails on Safari');
  });
});
