// A unified diff between two versions of a description, for previews and summaries. Common leading
// and trailing lines are skipped first (patches are local), then the middle is diffed by longest
// common subsequence; a middle too large for that is shown as removed-then-added.
import { eolOf, splitLines } from './lines';

type Op = { op: ' ' | '-' | '+'; text: string };

const CONTEXT = 3;
/** Cells of the LCS table (4 bytes each) before falling back to a block replacement. */
const MAX_CELLS = 4_000_000;

function lcsOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // suffix[i * (m + 1) + j] = LCS length of a[i..] and b[j..]
  const suffix = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      suffix[i * (m + 1) + j] = a[i] === b[j] ? suffix[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(suffix[(i + 1) * (m + 1) + j], suffix[i * (m + 1) + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ op: ' ', text: a[i] });
      i++;
      j++;
    } else if (j >= m || (i < n && suffix[(i + 1) * (m + 1) + j] >= suffix[i * (m + 1) + j + 1])) {
      ops.push({ op: '-', text: a[i++] });
    } else {
      ops.push({ op: '+', text: b[j++] });
    }
  }
  return ops;
}

function diffOps(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle =
    midA.length * midB.length <= MAX_CELLS
      ? lcsOps(midA, midB)
      : [...midA.map((text): Op => ({ op: '-', text })), ...midB.map((text): Op => ({ op: '+', text }))];
  const same = (text: string): Op => ({ op: ' ', text });
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

/** `@@ -l,s +l,s @@`; an empty side starts at the line before, as diff(1) writes it. */
function header(ops: readonly Op[], from: number, to: number): string {
  const count = (side: '-' | '+', end: number) => ops.slice(0, end).filter((o) => o.op === ' ' || o.op === side).length;
  const range = (side: '-' | '+') => {
    const before = count(side, from);
    const size = count(side, to) - before;
    return `${size === 0 ? before : before + 1},${size}`;
  };
  return `@@ -${range('-')} +${range('+')} @@`;
}

interface LineDiff {
  /** Unified diff with `--- a/description` / `+++ b/description`; empty when nothing changed. */
  diff: string;
  added: number;
  removed: number;
}

export function lineDiff(before: string, after: string): LineDiff {
  const eol = eolOf(before);
  const ops = diffOps(splitLines(before, eol), splitLines(after, eol));
  const changes = ops.flatMap((o, i) => (o.op === ' ' ? [] : [i]));
  if (changes.length === 0) return { diff: '', added: 0, removed: 0 };
  // Changes closer than twice the context share one hunk.
  const groups: [number, number][] = [];
  for (const i of changes) {
    const last = groups.at(-1);
    if (last && i - last[1] <= 2 * CONTEXT + 1) last[1] = i;
    else groups.push([i, i]);
  }
  const out = ['--- a/description', '+++ b/description'];
  for (const [first, last] of groups) {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length, last + 1 + CONTEXT);
    out.push(header(ops, from, to), ...ops.slice(from, to).map((o) => `${o.op}${o.text}`));
  }
  return { diff: out.join('\n'), added: ops.filter((o) => o.op === '+').length, removed: ops.filter((o) => o.op === '-').length };
}
