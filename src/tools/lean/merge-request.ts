// Merge requests (the merge requests of a milestone; the merge request tools use the same kind).
import { compact, count, flag, issuableHead, labels, milestoneRef, user, users, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, ISSUABLE_HEAD, LABELS, MILESTONE_REF, S, USER, USERS } from './schema-parts';

export function leanMergeRequest(r: Rec): Rec {
  return compact({
    ...issuableHead(r),
    draft: flag(r.draft ?? r.work_in_progress),
    source_branch: r.source_branch,
    target_branch: r.target_branch,
    // project_id is the target project (GitLab's project_id is target_project_id); a merge request
    // from a fork names the fork apart, so the caller can tell where the source branch lives.
    source_project_id: r.source_project_id !== r.target_project_id ? r.source_project_id : undefined,
    sha: r.sha,
    merge_commit_sha: r.merge_commit_sha,
    squash_commit_sha: r.squash_commit_sha,
    detailed_merge_status: r.detailed_merge_status ?? r.merge_status,
    has_conflicts: flag(r.has_conflicts),
    labels: labels(r.labels),
    milestone: milestoneRef(r.milestone),
    author: user(r.author),
    assignees: users(r.assignees),
    reviewers: users(r.reviewers),
    merged_by: user(r.merged_by ?? r.merge_user),
    created_at: r.created_at,
    updated_at: r.updated_at,
    merged_at: r.merged_at,
    closed_at: r.closed_at,
    user_notes_count: count(r.user_notes_count),
    web_url: r.web_url,
  });
}

/** leanMergeRequest's fields, for the detailed record too (merge-request-review.ts). */
export const MERGE_REQUEST_FIELDS = {
  ...ISSUABLE_HEAD,
  draft: B,
  source_branch: S,
  target_branch: S,
  source_project_id: I,
  sha: S,
  merge_commit_sha: S,
  squash_commit_sha: S,
  detailed_merge_status: S,
  has_conflicts: B,
  labels: LABELS,
  milestone: MILESTONE_REF,
  author: USER,
  assignees: USERS,
  reviewers: USERS,
  merged_by: USER,
  created_at: S,
  updated_at: S,
  merged_at: S,
  closed_at: S,
  user_notes_count: I,
  web_url: S,
};

export const mergeRequest: RecordKind = {
  about: 'A merge request: its branches, state, people and merge status.',
  lean: leanMergeRequest,
  schema: fields(MERGE_REQUEST_FIELDS),
};
