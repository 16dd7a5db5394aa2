// Record kinds of the merge request tools (D33): one merge request in detail, its file diffs (with the
// budget marks list_merge_request_diffs adds), versions, threads whose notes keep their diff position,
// the approval state, and draft notes. Registered in ./index.ts as one spread.
import { compact, count, flag, isRecord, pick, user, users, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { leanMergeRequest } from './merge-request';
import { diff as commitDiff } from './commit';
import { leanNote } from './note';
import { B, fields, I, S, STRINGS, list, USER, USERS } from './schema-parts';
import { DIFF_FIELDS } from './commit';
import { MERGE_REQUEST_FIELDS } from './merge-request';
import { NOTE_FIELDS } from './note';

/** A diff position: the file and lines a note sits on, and the version's head it was made on. */
function position(value: unknown): Rec | undefined {
  // A reply's draft carries an all-null position: no file, no position.
  if (!isRecord(value) || (value.new_path == null && value.old_path == null)) return undefined;
  return pick(value, ['new_path', 'old_path', 'new_line', 'old_line', 'head_sha', 'base_sha', 'start_sha', 'position_type']);
}

const POSITION = fields({ new_path: S, old_path: S, new_line: I, old_line: I, head_sha: S, base_sha: S, start_sha: S, position_type: S });
const MR_NOTE = fields({ ...NOTE_FIELDS, position: POSITION });

/** A note of a merge request: a diff note keeps its position (file, lines, version). */
function leanMrNote(r: Rec): Rec {
  const lean = leanNote(r);
  const at = position(r.position);
  return at ? { ...lean, position: at } : lean;
}

const mergeRequestDetail: RecordKind = {
  about: 'One merge request in detail: also its diff_refs (the shas diff comments use), head pipeline and merge settings.',
  schema: fields({
    ...MERGE_REQUEST_FIELDS,
    diff_refs: fields({ base_sha: S, head_sha: S, start_sha: S }),
    head_pipeline: fields({ id: I, status: S, web_url: S }),
    merge_when_pipeline_succeeds: B,
    blocking_discussions_resolved: B,
    squash: B,
    force_remove_source_branch: B,
    discussion_locked: B,
    changes_count: S,
    merge_error: S,
    can_merge: B,
    not_applied: STRINGS,
    labels_created: STRINGS,
    head_pipeline_warning: S,
  }),
  lean: (r) => {
    const pipeline = isRecord(r.head_pipeline) ? r.head_pipeline : r.pipeline;
    const canMerge = isRecord(r.user) ? r.user.can_merge : undefined;
    return compact({
      ...leanMergeRequest(r),
      description: r.description,
      diff_refs: isRecord(r.diff_refs) ? pick(r.diff_refs, ['base_sha', 'head_sha', 'start_sha']) : undefined,
      head_pipeline: isRecord(pipeline) ? pick(pipeline, ['id', 'status', 'web_url']) : undefined,
      merge_when_pipeline_succeeds: flag(r.merge_when_pipeline_succeeds),
      blocking_discussions_resolved: r.blocking_discussions_resolved === false ? false : undefined,
      squash: flag(r.squash),
      force_remove_source_branch: flag(r.force_remove_source_branch),
      discussion_locked: flag(r.discussion_locked),
      changes_count: r.changes_count,
      merge_error: r.merge_error,
      // Ours, not GitLab's: merge_merge_request merged without a passed head pipeline (D43).
      head_pipeline_warning: r.head_pipeline_warning,
      can_merge: typeof canMerge === 'boolean' ? canMerge : undefined,
      // Not GitLab's: create_merge_request and update_merge_request add what GitLab did not keep.
      not_applied: Array.isArray(r.not_applied) ? r.not_applied : undefined,
      // Ours, not GitLab's: the labels a write named that GitLab created (tools/labels/created.ts).
      labels_created: r.labels_created,
    });
  },
};

const mrDiff: RecordKind = {
  about:
    'One changed file of a merge request, with its diff as numbered `lines` as a commit diff has them (cut or left out past the size budget, which it says).',
  schema: fields({ ...DIFF_FIELDS, diff_truncated: B, diff_lines_omitted: I, diff_omitted: B }),
  lean: (r) =>
    compact({
      ...commitDiff.lean(r),
      diff_truncated: flag(r.diff_truncated),
      diff_lines_omitted: count(r.diff_lines_omitted),
      diff_omitted: flag(r.diff_omitted),
    }),
};

const mrVersion: RecordKind = {
  about: 'A diff version of a merge request (one per push): its head, base and start commits.',
  schema: fields({ id: I, head_commit_sha: S, base_commit_sha: S, start_commit_sha: S, created_at: S, real_size: S }),
  lean: (r) => pick(r, ['id', 'head_commit_sha', 'base_commit_sha', 'start_commit_sha', 'created_at', 'real_size']),
};

const mrDiscussion: RecordKind = {
  about: 'A merge request thread: its id (discussion_id) and its comments, diff comments with their position.',
  schema: fields({ id: S, individual_note: B, notes: list(MR_NOTE) }),
  lean: (r) =>
    compact({
      id: r.id,
      individual_note: flag(r.individual_note),
      notes: Array.isArray(r.notes) ? r.notes.map((n) => (isRecord(n) ? leanMrNote(n) : n)) : undefined,
    }),
};

const mrNote: RecordKind = { about: 'A comment on a merge request; a diff comment with its position.', lean: leanMrNote, schema: MR_NOTE };

const approvalState: RecordKind = {
  about: 'Who approved a merge request and whether the caller can; paid editions: how many approvals are required and left.',
  schema: fields({
    approved: B,
    approvals_required: I,
    approvals_left: I,
    approved_by: list(fields({ user: USER, approved_at: S })),
    user_has_approved: B,
    user_can_approve: B,
    approval_rules_left: STRINGS,
    suggested_approvers: USERS,
  }),
  lean: (r) =>
    compact({
      approved: r.approved,
      approvals_required: r.approvals_required,
      approvals_left: r.approvals_left,
      approved_by: Array.isArray(r.approved_by)
        ? r.approved_by.map((a) => (isRecord(a) ? compact({ user: user(a.user), approved_at: a.approved_at }) : a))
        : undefined,
      user_has_approved: r.user_has_approved,
      user_can_approve: r.user_can_approve,
      approval_rules_left: Array.isArray(r.approval_rules_left) ? r.approval_rules_left.map((rule) => (isRecord(rule) ? rule.name : rule)) : undefined,
      suggested_approvers: users(r.suggested_approvers),
    }),
};

const draftNote: RecordKind = {
  about: 'A review comment not yet published: its id, text, thread it replies to or diff position.',
  schema: fields({ id: I, note: S, discussion_id: S, resolve_discussion: B, position: POSITION }),
  lean: (r) =>
    compact({
      id: r.id,
      note: r.note,
      discussion_id: r.discussion_id,
      resolve_discussion: flag(r.resolve_discussion),
      position: position(r.position),
    }),
};

export const mergeRequestReviewKinds = {
  merge_request_detail: mergeRequestDetail,
  mr_diff: mrDiff,
  mr_version: mrVersion,
  mr_discussion: mrDiscussion,
  mr_note: mrNote,
  approval_state: approvalState,
  draft_note: draftNote,
} satisfies Record<string, RecordKind>;
