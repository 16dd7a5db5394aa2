// Who may see, change and merge a merge request, what keeps it from merging (GitLab's mergeability
// checks as detailed_merge_status names them), and the lookups every merge request route starts with.
import type { ForgeModel, MergeRequest, Project } from '../model';
import type { MrState } from '../model-merge-requests';
import { ACCESS, loadProject, notFound, type Ctx } from './http';
import { intParam } from './issue-access';

/** GitLab's draft title prefixes ("Draft:", "[Draft]", "(Draft)", any case, at the very start: merge_request_draft). */
export const DRAFT_PREFIX = /^(\[draft\]|\(draft\)|draft:)/i;
export const isDraft = (mr: MergeRequest) => DRAFT_PREFIX.test(mr.title);

/** Merge requests of private projects are for Reporters and above; others for anyone who sees the project. */
export function canReadMergeRequests(m: ForgeModel, p: Project, userId: number): boolean {
  if (!m.canSee(p, userId)) return false;
  return p.visibility !== 'private' || m.accessLevel(p, userId) >= ACCESS.reporter;
}

/** ProjectPolicy's create_merge_request_from: Developers and above push the source branch. */
export function canCreateMergeRequestFrom(m: ForgeModel, p: Project, userId: number): boolean {
  return m.accessLevel(p, userId) >= ACCESS.developer;
}

/**
 * ProjectPolicy's create_merge_request_in (guest_access and download_code): anyone signed in on an
 * internal or public project, Reporters and above on a private one (a private project's Guests may
 * not read its code).
 */
export function canCreateMergeRequestIn(m: ForgeModel, p: Project, userId: number): boolean {
  if (!m.canSee(p, userId)) return false;
  return p.visibility !== 'private' || m.accessLevel(p, userId) >= ACCESS.reporter;
}

/** The project a merge request's source branch is in: a fork, or the target project itself. */
export function sourceProjectOf(m: ForgeModel, mr: MergeRequest): Project | undefined {
  return m.projects.get(mr.source_project_id ?? mr.project_id);
}

/** update_merge_request: Developers and above, and the author. */
export function canUpdateMergeRequest(m: ForgeModel, p: Project, mr: MergeRequest, userId: number): boolean {
  return m.accessLevel(p, userId) >= ACCESS.developer || mr.author_id === userId;
}

/** can_be_merged_by?: allowed to merge into the target branch (protected branch merge levels included). */
export function canMergeInto(m: ForgeModel, p: Project, userId: number, branch: string): boolean {
  const level = m.accessLevel(p, userId);
  if (level < ACCESS.developer) return false;
  const rules = m.matchingRules(p, branch);
  if (rules.length === 0) return true;
  return rules.some((r) => r.merge.some((e) => e.access_level > 0 && level >= e.access_level));
}

/** find_merge_request_with_access: the project, then the merge request by iid; 404 when not readable. */
export function loadMergeRequest(ctx: Ctx): { p: Project; mr: MergeRequest; st: MrState } {
  const p = loadProject(ctx);
  const iid = intParam(ctx, 'merge_request_iid');
  const mr = p.mergeRequests.find((x) => x.iid === iid);
  if (!mr || !canReadMergeRequests(ctx.model, p, ctx.user.id)) throw notFound('Merge Request');
  return { p, mr, st: ctx.model.reviews.of(mr) };
}

export function unresolvedThreads(m: ForgeModel, mr: MergeRequest): number {
  return m.tracker
    .discussionsOf(mr.project_id, 'MergeRequest', mr.iid)
    .filter((d) => d.notes.some((n) => n.type === 'DiscussionNote' && !n.system && !n.resolved)).length;
}

export function approvalsLeft(m: ForgeModel, st: MrState): number {
  return m.premium ? Math.max(0, st.approvals_required - st.approvals.length) : 0;
}

/** detailed_merge_status: the first check that fails, or mergeable. */
export function detailedMergeStatus(m: ForgeModel, mr: MergeRequest, st: MrState, opts: { skipCi?: boolean } = {}): string {
  const settings = m.reviews.settingsOf(mr.project_id);
  if (mr.state !== 'opened') return 'not_open';
  if (isDraft(mr)) return 'draft_status';
  if (st.versions.length === 0) return 'commits_status';
  if (st.has_conflicts) return 'conflict';
  if (settings.only_allow_merge_if_all_discussions_are_resolved && unresolvedThreads(m, mr) > 0) return 'discussions_not_resolved';
  if (!opts.skipCi && settings.only_allow_merge_if_pipeline_succeeds) {
    if (st.head_pipeline_status === 'running' || st.head_pipeline_status === 'pending') return 'ci_still_running';
    if (st.head_pipeline_status !== 'success') return 'ci_must_pass';
  }
  if (approvalsLeft(m, st) > 0) return 'not_approved';
  return 'mergeable';
}
