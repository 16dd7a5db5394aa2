// JSON shapes of GitLab's Entities::MergeRequestBasic / MergeRequest, Diff, MergeRequestDiff(Full),
// MergeRequestApprovals (EE: ApprovalState), DraftNote, and of notes on merge requests (DiffNote
// with its position). Field order follows GitLab's entities.
import type { DiffFile, ForgeModel, MergeRequest, Project } from '../model';
import type { Discussion, Note } from '../model-issues';
import type { DraftNote, MrState, MrVersion } from '../model-merge-requests';
import { approvalsLeft, canMergeInto, detailedMergeStatus, isDraft, unresolvedThreads } from './merge-request-access';
import { presentMilestone } from './present-milestones';
import { presentNote } from './present-issues';
import { presentCommit, presentUser } from './present';
import { enterpriseCode } from '../edition';
import { ciOf } from '../model-ci';

function userOf(m: ForgeModel, id: number | null) {
  const u = id === null ? undefined : m.users.get(id);
  return u ? presentUser(m, u) : null;
}

function milestoneOf(m: ForgeModel, id: number | null) {
  if (id === null) return null;
  const all = [...[...m.projects.values()].flatMap((p) => p.milestones), ...[...m.groups.values()].flatMap((g) => g.milestones)];
  const found = all.find((x) => x.id === id);
  return found ? presentMilestone(m, found) : null;
}

export function presentMergeRequest(m: ForgeModel, mr: MergeRequest, userId: number, full = false) {
  const p = m.projects.get(mr.project_id)!;
  const st = m.reviews.of(mr);
  const latest = st.versions[0];
  const draft = isDraft(mr);
  const assignees = st.assignee_ids.map((id) => userOf(m, id)).filter((u) => u !== null);
  const basic: Record<string, unknown> = {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_by: userOf(m, st.merged_by_id),
    merge_user: userOf(m, st.merged_by_id ?? st.merge_user_id),
    merged_at: st.merged_at,
    closed_by: userOf(m, st.closed_by_id),
    closed_at: st.closed_at,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: m.tracker.notesOf(p.id, 'MergeRequest', mr.iid).filter((n) => !n.system).length,
    upvotes: 0,
    downvotes: 0,
    author: userOf(m, mr.author_id),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: st.reviewer_ids.map((id) => userOf(m, id)).filter((u) => u !== null),
    source_project_id: mr.source_project_id ?? p.id,
    target_project_id: p.id,
    labels: [...st.labels],
    draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: draft,
    milestone: milestoneOf(m, mr.milestone_id),
    merge_when_pipeline_succeeds: st.merge_when_pipeline_succeeds,
    merge_status: st.has_conflicts ? 'cannot_be_merged' : 'can_be_merged',
    detailed_merge_status: detailedMergeStatus(m, mr, st),
    merge_after: null,
    sha: latest?.head_commit_sha ?? null,
    merge_commit_sha: st.merge_commit_sha,
    squash_commit_sha: st.squash_commit_sha,
    discussion_locked: st.discussion_locked || null,
    should_remove_source_branch: null,
    force_remove_source_branch: st.force_remove_source_branch,
    prepared_at: mr.created_at,
    reference: `!${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${p.path_with_namespace}!${mr.iid}` },
    web_url: `${p.web_url}/-/merge_requests/${mr.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: st.squash,
    squash_on_merge: st.squash,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: st.has_conflicts,
    blocking_discussions_resolved: unresolvedThreads(m, mr) === 0 || !m.reviews.settingsOf(p.id).only_allow_merge_if_all_discussions_are_resolved,
  };
  // EE's entity exposes it whether or not a licence is present (ee/lib/ee/api/entities/merge_request_basic.rb).
  if (enterpriseCode(m)) basic.approvals_before_merge = null;
  if (!full) return basic;
  const source = (mr.source_project_id !== undefined && m.projects.get(mr.source_project_id)) || p;
  const real = st.head_pipeline_id === null ? undefined : ciOf(source).pipelines.find((x) => x.id === st.head_pipeline_id);
  const id = real?.id ?? 7000 + mr.id;
  const pipeline =
    st.head_pipeline_status === null
      ? null
      : {
          id,
          iid: real?.iid ?? mr.iid,
          project_id: source.id,
          sha: real?.sha ?? latest?.head_commit_sha ?? null,
          ref: mr.source_branch,
          status: st.head_pipeline_status,
          source: real?.source ?? 'push',
          web_url: `${source.web_url}/-/pipelines/${id}`,
        };
  return {
    ...basic,
    subscribed: false,
    changes_count: latest ? String(latest.diffs.length) : null,
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline,
    head_pipeline: pipeline,
    diff_refs: latest ? { base_sha: latest.base_commit_sha, head_sha: latest.head_commit_sha, start_sha: latest.start_commit_sha } : null,
    merge_error: null,
    first_contribution: false,
    user: { can_merge: canMergeInto(m, p, userId, mr.target_branch) },
  };
}

export function presentDiff(d: DiffFile) {
  return {
    diff: d.diff,
    collapsed: false,
    too_large: false,
    new_path: d.new_path,
    old_path: d.old_path,
    a_mode: d.a_mode,
    b_mode: d.b_mode,
    new_file: d.new_file,
    renamed_file: d.renamed_file,
    deleted_file: d.deleted_file,
    generated_file: false,
  };
}

export function presentVersion(mr: MergeRequest, v: MrVersion) {
  return {
    id: v.id,
    head_commit_sha: v.head_commit_sha,
    base_commit_sha: v.base_commit_sha,
    start_commit_sha: v.start_commit_sha,
    created_at: v.created_at,
    merge_request_id: mr.id,
    state: 'collected',
    real_size: String(v.diffs.length),
    patch_id_sha: null,
  };
}

export function presentVersionFull(m: ForgeModel, p: Project, mr: MergeRequest, v: MrVersion) {
  const base = m.reachable(p, [v.base_commit_sha]);
  const commits = m
    .log(p, [v.head_commit_sha])
    .filter((c) => !base.has(c.id))
    .map((c) => presentCommit(p, c));
  return { ...presentVersion(mr, v), commits, diffs: v.diffs.map(presentDiff) };
}

/** A note of a merge request: a DiffNote (with its position) when it was made on a diff line. */
export function presentMrNote(m: ForgeModel, n: Note) {
  const out = presentNote(m, n);
  const position = m.reviews.positions.get(n.id);
  if (!position) return out;
  return { ...out, type: 'DiffNote', position: { ...position } };
}

export function presentMrDiscussion(m: ForgeModel, d: Discussion) {
  return { id: d.id, individual_note: d.individual_note, notes: d.notes.map((n) => presentMrNote(m, n)) };
}

function approvedBy(m: ForgeModel, st: MrState) {
  return st.approvals.map((a) => ({ user: userOf(m, a.user_id), approved_at: a.approved_at }));
}

/** GET …/approvals: CE's MergeRequestApprovals; on paid editions EE's ApprovalState. */
export function presentApprovals(m: ForgeModel, mr: MergeRequest, userId: number, canApprove: boolean) {
  const st = m.reviews.of(mr);
  const mine = st.approvals.some((a) => a.user_id === userId);
  if (!m.premium) {
    return { user_has_approved: mine, user_can_approve: canApprove, approved: st.approvals.length > 0, approved_by: approvedBy(m, st) };
  }
  const left = approvalsLeft(m, st);
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merge_status: st.has_conflicts ? 'cannot_be_merged' : 'can_be_merged',
    approved: left === 0,
    approvals_required: st.approvals_required,
    approvals_left: left,
    require_password_to_approve: m.reviews.settingsOf(mr.project_id).require_password_to_approve,
    approved_by: approvedBy(m, st),
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: mine,
    user_can_approve: canApprove,
    approval_rules_left: left > 0 ? [{ id: 1, name: 'All Members', rule_type: 'any_approver' }] : [],
    has_approval_rules: st.approvals_required > 0,
    merge_request_approvers_available: true,
    multiple_approval_rules_available: true,
    invalid_approvers_rules: [],
  };
}

export function presentDraftNote(m: ForgeModel, d: DraftNote) {
  const mr = m.projects.get(d.project_id)!.mergeRequests.find((x) => x.iid === d.merge_request_iid)!;
  return {
    id: d.id,
    author_id: d.author_id,
    merge_request_id: mr.id,
    resolve_discussion: d.resolve_discussion,
    discussion_id: d.discussion_id,
    note: d.note,
    commit_id: d.commit_id,
    line_code: null,
    position: d.position ? { ...d.position } : null,
  };
}
