// Repository records: a file read at a ref, an entry of a tree, a comparison of two refs (D33).
import { COMMIT_FIELDS, commit, DIFF_FIELDS, diff } from './commit';
import { compact, flag, isRecord, pick, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, INVISIBLE, list, S } from './schema-parts';

export const file: RecordKind = {
  about: 'A file at a ref: its text (or a description of a binary file) and the ids that guard a later write.',
  schema: fields({
    file_path: S,
    ref: S,
    size: I,
    blob_id: S,
    last_commit_id: S,
    execute_filemode: B,
    binary: B,
    mime_type: S,
    lfs: fields({ oid: S, size: I }),
    start_line: I,
    end_line: I,
    total_lines: I,
    content: S,
    truncated: B,
    next_start_line: I,
    note: S,
    invisible_characters: INVISIBLE,
  }),
  lean: (r) =>
    compact({
      file_path: r.file_path,
      ref: r.ref,
      size: r.size,
      // The blob and the commit that last changed the file; commit_id (the ref's head) and the
      // content's hash say nothing an agent acts on.
      blob_id: r.blob_id,
      last_commit_id: r.last_commit_id,
      execute_filemode: flag(r.execute_filemode),
      binary: flag(r.binary),
      mime_type: r.mime_type,
      lfs: r.lfs,
      start_line: r.start_line,
      end_line: r.end_line,
      total_lines: r.total_lines,
      content: r.content,
      truncated: flag(r.truncated),
      next_start_line: r.next_start_line,
      note: r.note,
    }),
};

/** Modes other than a plain file or a directory: executable, symlink, submodule. */
const PLAIN_MODES = new Set(['100644', '040000']);

export const treeEntry: RecordKind = {
  about: 'An entry of a repository tree: a file (blob), a directory (tree) or a submodule (commit).',
  schema: fields({ path: S, type: S, mode: S }),
  lean: (r) =>
    compact({
      path: r.path,
      type: r.type,
      mode: typeof r.mode === 'string' && !PLAIN_MODES.has(r.mode) ? r.mode : undefined,
    }),
};

/** A compared file's diff, with what the size budget did to it (src/tools/repository/compare.ts) and GitLab's own limits. */
function comparedDiff(d: Rec): Rec {
  return compact({ ...diff.lean(d), ...pick(d, ['diff_truncated', 'diff_omitted', 'diff_bytes']) });
}

/** Whether `list` is an array whose last item is the commit `last` (same id). */
function endsWith(list: unknown, last: Rec): boolean {
  if (!Array.isArray(list) || list.length === 0) return false;
  const tail: unknown = list[list.length - 1];
  return isRecord(tail) && tail.id === last.id;
}

export const compare: RecordKind = {
  about: 'Two refs compared: the commits between them and the changed files with their diffs.',
  // GitLab's other fields pass as they came (the spread below), so the record is open.
  schema: fields(
    {
      commit: fields(COMMIT_FIELDS),
      commits: list(fields(COMMIT_FIELDS)),
      diffs: list(fields({ ...DIFF_FIELDS, diff_truncated: B, diff_omitted: B, diff_bytes: I })),
      compare_timeout: B,
      compare_same_ref: B,
      web_url: S,
      commits_total: I,
      commits_note: S,
    },
    true,
  ),
  lean: (r) =>
    compact({
      ...r,
      // GitLab's `commit` is the last of `commits` again: kept only when the list does not end with it
      // (get_branch_diffs cuts a long list and keeps the head there, src/tools/repository/compare.ts).
      commit: isRecord(r.commit) && !endsWith(r.commits, r.commit) ? commit.lean(r.commit) : undefined,
      commits: Array.isArray(r.commits) ? r.commits.map((c) => (isRecord(c) ? commit.lean(c) : c)) : undefined,
      diffs: Array.isArray(r.diffs) ? r.diffs.map((d) => (isRecord(d) ? comparedDiff(d) : d)) : undefined,
      compare_timeout: flag(r.compare_timeout),
      compare_same_ref: flag(r.compare_same_ref),
    } satisfies Rec),
};
