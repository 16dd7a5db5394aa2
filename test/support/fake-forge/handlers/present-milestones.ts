// JSON shapes of milestones and of what milestone endpoints list: GitLab's Entities::Milestone,
// Entities::IssueBasic and Entities::MergeRequestBasic (the fields tools and tests look at).
import type { ForgeModel, Issue, MergeRequest, Milestone } from '../model';
import { paidTier } from '../edition';
import { presentUser } from './present';

/** Project milestones live under the project's URL, group milestones under the group's. */
function milestoneWebUrl(m: ForgeModel, ms: Milestone): string {
  const base = ms.project_id !== null ? m.projects.get(ms.project_id)?.web_url : m.groups.get(ms.group_id!)?.web_url;
  return `${base}/-/milestones/${ms.iid}`;
}

export function presentMilestone(m: ForgeModel, ms: Milestone) {
  const today = m.now().slice(0, 10);
  const owner = ms.project_id !== null ? { project_id: ms.project_id } : { group_id: ms.group_id };
  return {
    id: ms.id,
    iid: ms.iid,
    ...owner,
    title: ms.title,
    description: ms.description,
    state: ms.state,
    created_at: ms.created_at,
    updated_at: ms.updated_at,
    due_date: ms.due_date,
    start_date: ms.start_date,
    expired: ms.due_date !== null && ms.due_date < today,
    web_url: milestoneWebUrl(m, ms),
  };
}

function milestoneOf(m: ForgeModel, id: number | null) {
  if (id === null) return null;
  for (const p of m.projects.values()) {
    const found = p.milestones.find((x) => x.id === id);
    if (found) return presentMilestone(m, found);
  }
  for (const g of m.groups.values()) {
    const found = g.milestones.find((x) => x.id === id);
    if (found) return presentMilestone(m, found);
  }
  return null;
}

function userOf(m: ForgeModel, id: number) {
  const u = m.users.get(id);
  return u ? presentUser(m, u) : null;
}

export function presentIssueBasic(m: ForgeModel, i: Issue) {
  const p = m.projects.get(i.project_id)!;
  const assignees = i.assignee_ids.map((id) => userOf(m, id)).filter((u) => u !== null);
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.project_id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    closed_by: i.closed_by_id === null ? null : userOf(m, i.closed_by_id),
    labels: [...i.labels],
    milestone: milestoneOf(m, i.milestone_id),
    assignees,
    author: userOf(m, i.author_id),
    type: 'ISSUE',
    assignee: assignees[0] ?? null,
    issue_type: i.issue_type,
    due_date: i.due_date,
    confidential: i.confidential,
    discussion_locked: i.discussion_locked,
    ...(paidTier(m) ? { weight: i.weight } : {}),
    web_url: `${p.web_url}/-/issues/${i.iid}`,
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${p.path_with_namespace}#${i.iid}` },
  };
}

export function presentMergeRequestBasic(m: ForgeModel, mr: MergeRequest) {
  const p = m.projects.get(mr.project_id)!;
  const draft = /^(draft:|\[draft\])/i.test(mr.title);
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_at: mr.state === 'merged' ? mr.updated_at : null,
    closed_at: mr.state === 'closed' ? mr.updated_at : null,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    author: userOf(m, mr.author_id),
    assignees: [],
    reviewers: [],
    source_project_id: mr.source_project_id ?? mr.project_id,
    target_project_id: mr.project_id,
    labels: [],
    draft,
    work_in_progress: draft,
    milestone: milestoneOf(m, mr.milestone_id),
    merge_status: 'can_be_merged',
    detailed_merge_status: mr.state === 'opened' ? 'mergeable' : 'not_open',
    sha: p.branches.get(mr.source_branch) ?? null,
    web_url: `${p.web_url}/-/merge_requests/${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${p.path_with_namespace}!${mr.iid}` },
  };
}

/** Burndown events (EE's Burndown#as_json): each issue's creation, and its closing when closed. */
export function burndownEvents(issues: Issue[]) {
  const events = issues.flatMap((i) => {
    const created = { created_at: i.created_at, weight: i.weight, action: 'created' };
    return i.closed_at ? [created, { created_at: i.closed_at, weight: i.weight, action: 'closed' }] : [created];
  });
  return events.sort((a, b) => a.created_at.localeCompare(b.created_at));
}
