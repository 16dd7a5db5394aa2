// Commits, their CI statuses, their diffs, and blame ranges.
import { compact, flag, isRecord, pick, user, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { diffRows } from './diff-lines';
import { ANY_OBJECT, B, DIFF_ROWS, fields, I, INVISIBLE, N, S, STRINGS, USER } from './schema-parts';

/** Who wrote a commit and when; the committer only where it differs from the author. */
function authorship(r: Rec): Rec {
  return {
    author_name: r.author_name,
    authored_date: r.authored_date,
    committer_name: r.committer_name !== r.author_name ? r.committer_name : undefined,
    committed_date: r.committed_date !== r.authored_date ? r.committed_date : undefined,
  };
}

const AUTHORSHIP = { author_name: S, authored_date: S, committer_name: S, committed_date: S };

/** The commit's lean fields, for a comparison's commits too (repository.ts). */
export const COMMIT_FIELDS = {
  id: S,
  title: S,
  message: S,
  ...AUTHORSHIP,
  parent_ids: STRINGS,
  trailers: ANY_OBJECT,
  stats: fields({ additions: I, deletions: I, total: I }, true),
  status: S,
  last_pipeline: fields({ id: I, status: S }),
  web_url: S,
};

/** A diff's lean fields, for a merge request's and a comparison's diffs too. */
export const DIFF_FIELDS = {
  old_path: S,
  new_path: S,
  new_file: B,
  renamed_file: B,
  deleted_file: B,
  generated_file: B,
  a_mode: S,
  b_mode: S,
  too_large: B,
  collapsed: B,
  lines: DIFF_ROWS,
  invisible_characters: INVISIBLE,
};

export const commit: RecordKind = {
  about: 'A commit: its SHA, message, author and dates.',
  schema: fields(COMMIT_FIELDS),
  lean: (r) => {
    const pipeline = r.last_pipeline;
    return compact({
      id: r.id,
      // short_id is the id's first 8 characters.
      title: r.title,
      // The title is the message's first line: the message is kept only when it says more.
      message: typeof r.message === 'string' && r.message.trim() !== String(r.title ?? '').trim() ? r.message : undefined,
      ...authorship(r),
      parent_ids: r.parent_ids,
      trailers: r.trailers,
      stats: r.stats,
      status: r.status,
      last_pipeline: isRecord(pipeline) ? pick(pipeline, ['id', 'status']) : undefined,
      web_url: r.web_url,
    });
  },
};

export const commitSummary: RecordKind = {
  about: 'A commit in a history: its SHA, title, author and date (get_commit has its whole message, stats and parents).',
  schema: fields({ id: S, title: S, ...AUTHORSHIP, parent_ids: STRINGS, trailers: ANY_OBJECT, stats: COMMIT_FIELDS.stats, web_url: S }),
  lean: (r) =>
    compact({
      id: r.id,
      title: r.title,
      ...authorship(r),
      // More than one parent: a merge commit.
      parent_ids: Array.isArray(r.parent_ids) && r.parent_ids.length > 1 ? r.parent_ids : undefined,
      trailers: r.trailers,
      stats: r.stats,
      web_url: r.web_url,
    }),
};

export const commitStatus: RecordKind = {
  about: 'A CI status (check) reported on a commit.',
  schema: fields({
    id: I,
    name: S,
    status: S,
    ref: S,
    stage: S,
    description: S,
    target_url: S,
    coverage: N,
    allow_failure: B,
    pipeline_id: I,
    author: USER,
    created_at: S,
    started_at: S,
    finished_at: S,
  }),
  lean: (r) =>
    compact({
      id: r.id,
      name: r.name,
      status: r.status,
      ref: r.ref,
      stage: r.stage,
      description: r.description,
      target_url: r.target_url,
      coverage: r.coverage,
      allow_failure: flag(r.allow_failure),
      pipeline_id: r.pipeline_id,
      author: user(r.author),
      created_at: r.created_at,
      started_at: r.started_at,
      finished_at: r.finished_at,
    }),
};

export const diff: RecordKind = {
  about:
    'One changed file of a commit, with its diff as `lines`: rows [old_line, new_line, text], text exactly as in the diff (+, - or space first); ' +
    'an added line has old_line null, a removed one new_line null, a hunk header both null. A diff thread takes those two numbers as they are.',
  schema: fields(DIFF_FIELDS),
  lean: (r) =>
    compact({
      old_path: r.old_path !== r.new_path ? r.old_path : undefined,
      new_path: r.new_path,
      new_file: flag(r.new_file),
      renamed_file: flag(r.renamed_file),
      deleted_file: flag(r.deleted_file),
      generated_file: flag(r.generated_file),
      // A mode change (a file made executable) is a change too.
      a_mode: r.a_mode !== r.b_mode ? r.a_mode : undefined,
      b_mode: r.a_mode !== r.b_mode ? r.b_mode : undefined,
      // GitLab empties the diff of a file over its patch limit (too_large) or folded (collapsed): say why it is empty.
      too_large: flag(r.too_large),
      collapsed: flag(r.collapsed),
      // The diff as numbered rows [old_line, new_line, text] (D43, ./diff-lines.ts); full_response has GitLab's text.
      lines: typeof r.diff === 'string' && r.diff !== '' ? diffRows(r.diff) : undefined,
    }),
};

export const blameRange: RecordKind = {
  about: 'A range of lines of a file and the commit that last changed them.',
  schema: fields({ commit: fields({ id: S, title: S, author_name: S, authored_date: S }), lines: STRINGS, invisible_characters: INVISIBLE }),
  lean: (r) => {
    const c = isRecord(r.commit) ? r.commit : {};
    const message = typeof c.message === 'string' ? c.message.split('\n', 1)[0] : undefined;
    return compact({ commit: compact({ id: c.id, title: message, author_name: c.author_name, authored_date: c.authored_date }), lines: r.lines });
  },
};
