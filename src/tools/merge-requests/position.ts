// Checks a diff-line position against the merge request's latest version before a comment is written.
// GitLab refuses a DiffNote whose position does not resolve to a line of the diff with a bare
// "Note {:line_code=>["can't be blank", …]}" (lib/api/discussions.rb); the rules it applies are those
// of doc/api/discussions.md: new_line alone for an added line, old_line alone for a removed one, both
// for an unchanged line, and the base/start/head shas of a version. This names the field at fault.
import type { ForgeClient } from '../../forge/client';
import { invalidArgument, ToolError } from '../errors';

export interface PositionArgs {
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
}

interface Line {
  old: number | null;
  new: number | null;
}

/** Each diff line with its old and new line numbers (null on the side it is absent from). */
export function diffLines(diff: string): Line[] {
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

/** Why (old_line, new_line) names no line of the file's diff, with the line numbers that would. */
function lineProblem(lines: Line[], path: string, old: number | undefined, neu: number | undefined): ToolError {
  const byNew = neu === undefined ? undefined : lines.find((l) => l.new === neu);
  const byOld = old === undefined ? undefined : lines.find((l) => l.old === old);
  if (byNew && byNew.old !== null && old === undefined) return mismatch('old_line', `new line ${neu} of ${path} is unchanged: give old_line ${byNew.old} as well`);
  if (byOld && byOld.new !== null && neu === undefined) return mismatch('new_line', `old line ${old} of ${path} is unchanged: give new_line ${byOld.new} as well`);
  if (byNew && byNew.old === null && old !== undefined) return mismatch('old_line', `new line ${neu} of ${path} is an added line: omit old_line`);
  if (byOld && byOld.new === null && neu !== undefined) return mismatch('new_line', `old line ${old} of ${path} is a removed line: omit new_line`);
  if (byNew && old !== undefined) return mismatch('old_line', `new line ${neu} of ${path} is old line ${byNew.old}, not ${old}`);
  const news = lines.filter((l) => l.new !== null).map((l) => l.new!);
  const olds = lines.filter((l) => l.old !== null).map((l) => l.old!);
  const field = neu !== undefined ? 'new_line' : 'old_line';
  return mismatch(field, `line ${neu ?? old} of ${path} is not in the merge request's diff (it shows new lines ${ranges(news)}; old lines ${ranges(olds)})`);
}

/** Checks what can be checked without the forge; throws validation naming the field. */
export function checkPositionShape(p: PositionArgs): void {
  if (p.new_path === undefined && p.old_path === undefined) throw invalidArgument('position.new_path', 'is required (the changed file\'s path)');
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
      throw new ToolError('conflict', `position.${field}: ${given} is not the merge request's latest version (its ${field} is ${refs[field]}); ` +
        'read the diff again, or omit the shas to comment on the latest version. Nothing was written');
    }
  }
  const version = await forge.json<{ diffs?: VersionDiff[] }>({ method: 'GET', path: `${mrPath}/versions/${latest.id}` });
  const diffs = version.diffs ?? [];
  const file = diffs.find((d) => (p.new_path === undefined || d.new_path === p.new_path) && (p.old_path === undefined || d.old_path === p.old_path));
  if (!file) {
    const field = p.new_path !== undefined ? 'new_path' : 'old_path';
    const changed = diffs.slice(0, 20).map((d) => d.new_path).join(', ');
    throw mismatch(field, `${p[field]} is not a file changed in the merge request's latest version (changed: ${changed || 'nothing'}${diffs.length > 20 ? ', …' : ''})`);
  }
  const path = file.new_path;
  // An empty diff (GitLab collapsed a large file) cannot be checked here; GitLab judges the line itself.
  if (file.diff) {
    const lines = diffLines(file.diff);
    const old = p.old_line ?? null;
    const neu = p.new_line ?? null;
    if (!lines.some((l) => l.old === old && l.new === neu)) throw lineProblem(lines, path, p.old_line, p.new_line);
  }
  const position: Record<string, unknown> = { ...refs, position_type: 'text', old_path: file.old_path, new_path: file.new_path };
  if (p.old_line !== undefined) position.old_line = p.old_line;
  if (p.new_line !== undefined) position.new_line = p.new_line;
  return position;
}
