// Checks a diff-line position against the merge request's latest version before a comment is written.
// GitLab refuses a DiffNote whose position does not resolve to a line of the diff with a bare
// "Note {:line_code=>["can't be blank", …]}" (lib/api/discussions.rb); the rules it applies are those
// of doc/api/discussions.md: new_line alone for an added line, old_line alone for a removed one, both
// for an unchanged line (also one outside the diff's hunks, which GitLab unfolds), and the base/start/head
// shas of a version. This names the field at fault.
import type { ForgeClient } from '../../forge/client';
import { invalidArgument, ToolError } from '../errors';

interface PositionArgs {
  new_path?: string;
  old_path?: string;
  new_line?: number;
  old_line?: number;
  base_sha?: string;
  start_sha?: string;
  head_sha?: string;
}

interface Version {
  id: number;
  head_commit_sha: string;
  base_commit_sha: string;
  start_commit_sha: string;
}

interface VersionDiff {
  old_path: string;
  new_path: string;
  diff: string;
  new_file?: boolean;
  deleted_file?: boolean;
}

interface Line {
  old: number | null;
  new: number | null;
}

/** Each diff line with its old and new line numbers (null on the side it is absent from). */
function diffLines(diff: string): Line[] {
  const lines: Line[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const text of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
    } else if (text.startsWith('+')) lines.push({ old: null, new: newNo++ });
    else if (text.startsWith('-')) lines.push({ old: oldNo++, new: null });
    else if (text.startsWith(' ')) lines.push({ old: oldNo++, new: newNo++ });
  }
  return lines;
}

/**
 * The number on the other side of an unchanged line outside every hunk of `diff`, given its number on
 * one side (null when it is inside a hunk): the hunks before it shift it by what they added and
 * removed. GitLab unfolds such a line for a position that gives both numbers
 * (lib/gitlab/diff/lines_unfolder.rb).
 */
export function unfoldedLine(diff: string, line: number, side: 'old' | 'new'): number | null {
  let offset = 0;
  for (const text of diff.split('\n')) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
    if (!h) continue;
    const count = (v: string | undefined) => (v === undefined ? 1 : Number(v));
    // An empty side ("-5,0") names the line after which the other side's lines go.
    const range = (at: string, n: number) => ({ start: n === 0 ? Number(at) + 1 : Number(at), n });
    const old = range(h[1], count(h[2]));
    const neu = range(h[3], count(h[4]));
    const [from, to] = side === 'old' ? [old, neu] : [neu, old];
    if (line < from.start) return line + to.start - from.start;
    if (line < from.start + from.n) return null;
    offset = to.start + to.n - (from.start + from.n);
  }
  return line + offset;
}

/** "3-5, 9" from sorted numbers. */
function ranges(numbers: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; i++) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
    parts.push(i === j ? `${numbers[i]}` : `${numbers[i]}-${numbers[j]}`);
    i = j;
  }
  return parts.join(', ') || 'none';
}

const mismatch = (field: string, problem: string) => new ToolError('mismatch', `position.${field}: ${problem}. Nothing was written`);

/** A file GitLab can unfold hidden lines of: one neither added nor deleted (lib/gitlab/diff/lines_unfolder.rb). */
const canUnfold = (file: VersionDiff) => !file.new_file && !file.deleted_file;

/** Why (old_line, new_line) names no line of the file's diff, with the line numbers that would. */
function lineProblem(lines: Line[], file: VersionDiff, old: number | undefined, neu: number | undefined): ToolError {
  const path = file.new_path;
  const byNew = neu === undefined ? undefined : lines.find((l) => l.new === neu);
  const byOld = old === undefined ? undefined : lines.find((l) => l.old === old);
  if (byNew && byNew.old !== null && old === undefined)
    return mismatch('old_line', `new line ${neu} of ${path} is unchanged: give old_line ${byNew.old} as well`);
  if (byOld && byOld.new !== null && neu === undefined)
    return mismatch('new_line', `old line ${old} of ${path} is unchanged: give new_line ${byOld.new} as well`);
  if (byNew && byNew.old === null && old !== undefined) return mismatch('old_line', `new line ${neu} of ${path} is an added line: omit old_line`);
  if (byOld && byOld.new === null && neu !== undefined) return mismatch('new_line', `old line ${old} of ${path} is a removed line: omit new_line`);
  if (byNew && old !== undefined) return mismatch('old_line', `new line ${neu} of ${path} is old line ${byNew.old}, not ${old}`);
  const unfolds = canUnfold(file);
  if (unfolds && old !== undefined && neu !== undefined && !byOld) {
    const other = unfoldedLine(file.diff, old, 'old');
    if (other !== null)
      return mismatch('new_line', `old line ${old} of ${path} is an unchanged line outside the diff's hunks: its new line is ${other}, not ${neu}`);
  }
  const news = lines.filter((l) => l.new !== null).map((l) => l.new!);
  const olds = lines.filter((l) => l.old !== null).map((l) => l.old!);
  const field = neu !== undefined ? 'new_line' : 'old_line';
  const shown = `line ${neu ?? old} of ${path} is not in the merge request's diff (it shows new lines ${ranges(news)}; old lines ${ranges(olds)})`;
  // GitLab unfolds an unchanged line outside the hunks only when the position gives both numbers.
  const other = unfolds && (old === undefined) !== (neu === undefined) ? unfoldedLine(file.diff, (neu ?? old)!, neu !== undefined ? 'new' : 'old') : null;
  if (other === null || other < 1) return mismatch(field, shown);
  const pair = neu !== undefined ? `old_line ${other} with new_line ${neu}` : `old_line ${old} with new_line ${other}`;
  return mismatch(field, `${shown}; to comment on the unchanged line there, give both: ${pair}`);
}

/** Checks what can be checked without the forge; throws validation naming the field. */
export function checkPositionShape(p: PositionArgs): void {
  if (p.new_path === undefined && p.old_path === undefined) throw invalidArgument('position.new_path', "is required (the changed file's path)");
  for (const field of ['base_sha', 'start_sha', 'head_sha'] as const) {
    if (p[field] !== undefined && !/^[0-9a-f]{7,64}$/i.test(p[field]!)) throw invalidArgument(`position.${field}`, 'must be a commit SHA (hex)');
  }
  if (p.new_line === undefined && p.old_line === undefined) {
    throw invalidArgument('position.new_line', 'is required: new_line for an added line, old_line for a removed one, both for an unchanged one');
  }
}

/**
 * GitLab's text position for `p`, checked against the merge request's latest version: shas given must
 * be that version's (conflict otherwise: the branch moved since it was read), the path must be a
 * changed file and the line pair a line of its diff (mismatch otherwise).
 */
export async function resolvePosition(forge: ForgeClient, mrPath: string, p: PositionArgs): Promise<Record<string, unknown>> {
  const versions = await forge.list<Version>({ method: 'GET', path: `${mrPath}/versions`, query: { per_page: 1 } });
  const latest = versions.items[0];
  if (!latest) throw new ToolError('conflict', 'the merge request has no diff yet, so there is no line to comment on');
  const refs = { base_sha: latest.base_commit_sha, start_sha: latest.start_commit_sha, head_sha: latest.head_commit_sha };
  for (const field of ['head_sha', 'base_sha', 'start_sha'] as const) {
    const given = p[field];
    if (given !== undefined && given.toLowerCase() !== refs[field].toLowerCase()) {
      throw new ToolError(
        'conflict',
        `position.${field}: ${given} is not the merge request's latest version (its ${field} is ${refs[field]}); ` +
          'read the diff again, or omit the shas to comment on the latest version. Nothing was written',
      );
    }
  }
  const version = await forge.json<{ diffs?: VersionDiff[] }>({ method: 'GET', path: `${mrPath}/versions/${latest.id}` });
  const diffs = version.diffs ?? [];
  const file = diffs.find((d) => (p.new_path === undefined || d.new_path === p.new_path) && (p.old_path === undefined || d.old_path === p.old_path));
  if (!file) {
    const field = p.new_path !== undefined ? 'new_path' : 'old_path';
    const changed = diffs
      .slice(0, 20)
      .map((d) => d.new_path)
      .join(', ');
    throw mismatch(
      field,
      `${p[field]} is not a file changed in the merge request's latest version (changed: ${changed || 'nothing'}${diffs.length > 20 ? ', …' : ''})`,
    );
  }
  // An empty diff (GitLab collapsed a large file) cannot be checked here; GitLab judges the line itself.
  if (file.diff) {
    const lines = diffLines(file.diff);
    const old = p.old_line ?? null;
    const neu = p.new_line ?? null;
    // A line of the diff, or an unchanged line outside its hunks given with both numbers, which GitLab
    // unfolds (whether the old file reaches that far is GitLab's to judge: the diff does not say).
    const shown = lines.some((l) => l.old === old && l.new === neu);
    const unfolded = old !== null && neu !== null && canUnfold(file) && unfoldedLine(file.diff, old, 'old') === neu;
    if (!shown && !unfolded) throw lineProblem(lines, file, p.old_line, p.new_line);
  }
  const position: Record<string, unknown> = { ...refs, position_type: 'text', old_path: file.old_path, new_path: file.new_path };
  if (p.old_line !== undefined) position.old_line = p.old_line;
  if (p.new_line !== undefined) position.new_line = p.new_line;
  return position;
}
