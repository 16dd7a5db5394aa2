// The unified_diff patch format (D25): an optional `--- a/description` / `+++ b/description`
// header, then hunks `@@ -l,s +l,s @@` whose lines start with " " (context), "-" (removed) or
// "+" (added). Context and removed lines must match the description exactly. A hunk is looked for
// at its line number first, then anywhere after the previous hunk if it matches in exactly one place.
import { invalidArgument, ToolError } from '../../errors';
import { eolOf, joinLines, patchLines, quote, splitLines } from './lines';

interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
  /** An empty patch line, read as an empty context line (editors strip the lone space). */
  bare?: boolean;
}

export interface Hunk {
  header: string;
  oldStart: number;
  oldCount: number;
  lines: HunkLine[];
  newCount: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const FILE_HEADER = /^(diff |index |--- |\+\+\+ )/;
const EXAMPLE = 'e.g. "--- a/description\\n+++ b/description\\n@@ -3,2 +3,2 @@\\n context line\\n-old line\\n+new line"';

const sides = (lines: HunkLine[]) => ({
  old: lines.filter((l) => l.op !== '+').length,
  new: lines.filter((l) => l.op !== '-').length,
});

/** Blank lines after the hunk's declared length (a patch's final newline, a stripped fence) are not part of it. */
function trimBareTail(hunk: Hunk): void {
  for (;;) {
    const last = hunk.lines.at(-1);
    const { old, new: added } = sides(hunk.lines);
    if (!last?.bare || (old <= hunk.oldCount && added <= hunk.newCount)) return;
    hunk.lines.pop();
  }
}

export function parseUnifiedDiff(patch: string): Hunk[] {
  const lines = patchLines(patch);
  let i = 0;
  for (; i < lines.length && !lines[i].startsWith('@@'); i++) {
    if (lines[i].trim() !== '' && !FILE_HEADER.test(lines[i])) {
      throw invalidArgument('patch', `line ${i + 1}: expected the --- / +++ header or an @@ -l,s +l,s @@ hunk header, found ${quote(lines[i])}; ${EXAMPLE}`);
    }
  }
  if (i === lines.length) throw invalidArgument('patch', `no @@ -l,s +l,s @@ hunk found; ${EXAMPLE}`);
  const hunks: Hunk[] = [];
  while (i < lines.length) {
    const m = HUNK.exec(lines[i]);
    if (!m) throw invalidArgument('patch', `line ${i + 1}: malformed hunk header ${quote(lines[i])}; expected @@ -l,s +l,s @@`);
    const hunk: Hunk = {
      header: m[0],
      oldStart: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      newCount: m[4] === undefined ? 1 : Number(m[4]),
      lines: [],
    };
    for (i++; i < lines.length && !lines[i].startsWith('@@'); i++) {
      const line = lines[i];
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      if (line === '') hunk.lines.push({ op: ' ', text: '', bare: true });
      else if (line[0] === ' ' || line[0] === '-' || line[0] === '+') hunk.lines.push({ op: line[0] as HunkLine['op'], text: line.slice(1) });
      else throw invalidArgument('patch', `line ${i + 1}: a hunk line must start with " " (context), "-" (removed) or "+" (added), found ${quote(line)}`);
    }
    trimBareTail(hunk);
    if (!hunk.lines.some((l) => l.op !== ' ')) throw invalidArgument('patch', `hunk ${hunks.length + 1} (${hunk.header}) changes nothing`);
    hunks.push(hunk);
  }
  return hunks;
}

const mismatch = (message: string) => new ToolError('mismatch', `${message}. Nothing was changed`);

function difference(lines: readonly string[], expected: readonly string[], at: number): string {
  for (let j = 0; j < expected.length; j++) {
    const n = at + j;
    if (n >= lines.length) return `the description has ${lines.length} lines, the hunk expects line ${n + 1} to be ${quote(expected[j])}`;
    if (lines[n] !== expected[j]) {
      const spaces = lines[n].trimEnd() === expected[j].trimEnd() ? ' (they differ only in trailing whitespace)' : '';
      return `line ${n + 1} is ${quote(lines[n])}, the hunk expects ${quote(expected[j])}${spaces}`;
    }
  }
  return 'it overlaps the lines an earlier hunk changed';
}

/** Index in `lines` where the hunk's old lines start. */
function locate(lines: readonly string[], old: readonly string[], hunk: Hunk, from: number, label: string): number {
  if (old.length === 0) {
    // A pure insertion goes after line oldStart (0 = at the top).
    if (hunk.oldStart < from || hunk.oldStart > lines.length)
      throw mismatch(`${label}: cannot insert after line ${hunk.oldStart} (the description has ${lines.length} lines)`);
    return hunk.oldStart;
  }
  const at = (p: number) => p >= from && p + old.length <= lines.length && old.every((t, j) => lines[p + j] === t);
  const expected = Math.max(hunk.oldStart - 1, 0);
  if (at(expected)) return expected;
  const found: number[] = [];
  for (let p = from; p + old.length <= lines.length; p++) if (at(p)) found.push(p);
  if (found.length === 1) return found[0];
  if (found.length > 1) {
    throw mismatch(
      `${label}: its lines are not at line ${hunk.oldStart} and occur at lines ${found.map((p) => p + 1).join(', ')}; correct the line number or add context`,
    );
  }
  throw mismatch(`${label}: ${difference(lines, old, expected)}; context and removed lines must match the description exactly`);
}

export function applyUnifiedDiff(text: string, hunks: readonly Hunk[]): string {
  const eol = eolOf(text);
  const lines = splitLines(text, eol);
  const out: string[] = [];
  let cursor = 0;
  hunks.forEach((hunk, k) => {
    const old = hunk.lines.filter((l) => l.op !== '+').map((l) => l.text);
    const added = hunk.lines.filter((l) => l.op !== '-').map((l) => l.text);
    const pos = locate(lines, old, hunk, cursor, `hunk ${k + 1} (${hunk.header})`);
    out.push(...lines.slice(cursor, pos), ...added);
    cursor = pos + old.length;
  });
  out.push(...lines.slice(cursor));
  return joinLines(out, eol);
}
