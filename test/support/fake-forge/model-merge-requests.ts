// Review state of the fake forge's merge requests: what model.ts's MergeRequest (kept small for the
// milestone endpoints) does not hold — people, labels, flags, diff versions, approvals, diff-note
// positions and draft notes. ForgeModel holds one MergeRequestReviews; `of(mr)` gives an MR's state,
// creating defaults for merge requests seeded without one.
import { createHash } from 'node:crypto';
import type { DiffFile, MergeRequest } from './model';

/** GitLab's Gitlab::Diff::Position as sent and shown (text positions; image ones are not modelled). */
export interface Position {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: 'text' | 'image' | 'file';
  old_path: string | null;
  new_path: string | null;
  old_line: number | null;
  new_line: number | null;
}

/** One MergeRequestDiff ("version"): its refs and the diff of its files. */
export interface MrVersion {
  id: number;
  head_commit_sha: string;
  base_commit_sha: string;
  start_commit_sha: string;
  created_at: string;
  diffs: DiffFile[];
}

export interface Approval {
  user_id: number;
  approved_at: string;
}

export interface MrState {
  assignee_ids: number[];
  reviewer_ids: number[];
  labels: string[];
  squash: boolean;
  force_remove_source_branch: boolean;
  discussion_locked: boolean;
  /** The source cannot be merged into the target without conflicts. */
  has_conflicts: boolean;
  /** Status of the head pipeline (null: no pipeline). */
  head_pipeline_status: 'running' | 'pending' | 'success' | 'failed' | null;
  /**
   * The head pipeline's id in the CI model (model-ci.ts): the pipeline of the source branch at the head
   * sha, as GitLab's MergeRequest#head_pipeline. Null when a test sets only a status: the record then
   * has a stand-in id no pipeline route serves.
   */
  head_pipeline_id: number | null;
  /** Set to auto-merge when the pipeline succeeds. */
  merge_when_pipeline_succeeds: boolean;
  merge_user_id: number | null;
  merged_by_id: number | null;
  merged_at: string | null;
  closed_by_id: number | null;
  closed_at: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  /** Newest first, like GitLab's versions list. Empty: the MR has no diff yet. */
  versions: MrVersion[];
  approvals: Approval[];
  /** Approvals the MR's rules require (paid editions only). */
  approvals_required: number;
}

export interface DraftNote {
  id: number;
  project_id: number;
  merge_request_iid: number;
  author_id: number;
  note: string;
  /** The thread it replies to, when it is a reply. */
  discussion_id: string | null;
  resolve_discussion: boolean;
  position: Position | null;
  commit_id: string | null;
}

/** Project settings that gate merging (GitLab's project-level merge checks). */
export interface MergeSettings {
  only_allow_merge_if_pipeline_succeeds: boolean;
  only_allow_merge_if_all_discussions_are_resolved: boolean;
  /** Paid editions: may the author approve their own MR (GitLab's default: no). */
  merge_requests_author_approval: boolean;
  /**
   * Paid editions: approvers confirm with their password ("Require user re-authentication to approve");
   * the API takes it as `approval_password` and answers 401 without it (ee/app/services/ee/merge_requests/approval_service.rb,
   * ee/spec/requests/api/merge_request_approvals_spec.rb).
   */
  require_password_to_approve: boolean;
}

export const fakeSha = (label: string) => createHash('sha1').update(`fake-forge:${label}`).digest('hex');

export class MergeRequestReviews {
  private states = new Map<number, MrState>();
  /** note id → its diff position (the note is a DiffNote). */
  positions = new Map<number, Position>();
  drafts: DraftNote[] = [];
  settings = new Map<number, MergeSettings>();
  nextId = { version: 1, draft: 1, mergeRequest: 1 };

  /** The review state of a merge request (global id), created with defaults on first use. */
  of(mr: MergeRequest): MrState {
    let state = this.states.get(mr.id);
    if (!state) {
      state = {
        assignee_ids: [],
        reviewer_ids: [],
        labels: [],
        squash: false,
        force_remove_source_branch: false,
        discussion_locked: false,
        has_conflicts: false,
        head_pipeline_status: null,
        head_pipeline_id: null,
        merge_when_pipeline_succeeds: false,
        merge_user_id: null,
        merged_by_id: null,
        merged_at: mr.state === 'merged' ? mr.updated_at : null,
        closed_by_id: null,
        closed_at: mr.state === 'closed' ? mr.updated_at : null,
        merge_commit_sha: mr.state === 'merged' ? fakeSha(`merge:${mr.id}`) : null,
        squash_commit_sha: null,
        versions: [],
        approvals: [],
        approvals_required: 0,
      };
      this.states.set(mr.id, state);
    }
    return state;
  }

  settingsOf(projectId: number): MergeSettings {
    let s = this.settings.get(projectId);
    if (!s) {
      s = {
        only_allow_merge_if_pipeline_succeeds: false,
        only_allow_merge_if_all_discussions_are_resolved: false,
        merge_requests_author_approval: false,
        require_password_to_approve: false,
      };
      this.settings.set(projectId, s);
    }
    return s;
  }

  draftsOf(projectId: number, iid: number, authorId: number): DraftNote[] {
    return this.drafts.filter((d) => d.project_id === projectId && d.merge_request_iid === iid && d.author_id === authorId);
  }
}
