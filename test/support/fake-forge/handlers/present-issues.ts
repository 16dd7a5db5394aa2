// JSON shapes of GitLab's Entities::Issue, Note, Discussion, IssueLink, RelatedIssue, AwardEmoji
// and Todo (the fields tools and tests look at).
import type { ForgeModel, Issue, Project } from '../model';
import type { Award, Discussion, IssueLink, Note, Todo } from '../model-issues';
import { issueThreadsResolvable } from '../edition';
import { presentIssueBasic } from './present-milestones';
import { presentProject, presentUser } from './present';

function userOf(m: ForgeModel, id: number | null) {
  const u = id === null ? undefined : m.users.get(id);
  return u ? presentUser(m, u) : null;
}

/** Label names as GitLab shows them with with_labels_details=true. */
function labelDetails(name: string) {
  let id = 0;
  for (const ch of name) id = (id * 31 + ch.charCodeAt(0)) % 100_000;
  return { id, name, color: '#6699cc', description: null, description_html: '', text_color: '#FFFFFF' };
}

export function presentIssue(m: ForgeModel, i: Issue, opts: { labelDetails?: boolean } = {}) {
  const p = m.projects.get(i.project_id)!;
  const awards = m.tracker.awardsOf('Issue', i.id);
  const url = `${m.webBase.replace(/\/$/, '')}/api/v4/projects/${p.id}`;
  const basic = presentIssueBasic(m, i);
  return {
    ...basic,
    labels: opts.labelDetails ? i.labels.map(labelDetails) : basic.labels,
    user_notes_count: m.tracker.notesOf(p.id, 'Issue', i.iid).filter((n) => !n.system).length,
    merge_requests_count: 0,
    upvotes: awards.filter((a) => a.name === 'thumbsup').length,
    downvotes: awards.filter((a) => a.name === 'thumbsdown').length,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    task_completion_status: { count: 0, completed_count: 0 },
    has_tasks: false,
    severity: 'UNKNOWN',
    _links: {
      self: `${url}/issues/${i.iid}`,
      notes: `${url}/issues/${i.iid}/notes`,
      award_emoji: `${url}/issues/${i.iid}/award_emoji`,
      project: url,
      closed_as_duplicate_of: null,
    },
    moved_to_id: null,
    service_desk_reply_to: null,
  };
}

export function presentNote(m: ForgeModel, n: Note) {
  const noteableId =
    n.noteable_type === 'Issue'
      ? m.projects.get(n.project_id)?.issues.get(n.noteable_iid)?.id
      : m.projects.get(n.project_id)?.mergeRequests.find((mr) => mr.iid === n.noteable_iid)?.id;
  // Issue notes are resolvable from GitLab 16.3 (app/models/concerns/noteable.rb RESOLVABLE_TYPES).
  const resolvable = n.type === 'DiscussionNote' && !n.system && (n.noteable_type !== 'Issue' || issueThreadsResolvable(m));
  const out: Record<string, unknown> = {
    id: n.id,
    type: n.type,
    body: n.body,
    attachment: null,
    author: userOf(m, n.author_id),
    created_at: n.created_at,
    updated_at: n.updated_at,
    system: n.system,
    noteable_id: noteableId ?? null,
    noteable_type: n.noteable_type,
    project_id: n.project_id,
    resolvable,
    confidential: n.internal,
    internal: n.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: n.noteable_iid,
    commands_changes: {},
  };
  if (resolvable) Object.assign(out, { resolved: n.resolved, resolved_by: userOf(m, n.resolved_by_id), resolved_at: n.resolved_at });
  return out;
}

export function presentDiscussion(m: ForgeModel, d: Discussion) {
  return { id: d.id, individual_note: d.individual_note, notes: d.notes.map((n) => presentNote(m, n)) };
}

export function presentAward(m: ForgeModel, a: Award) {
  return {
    id: a.id,
    name: a.name,
    user: userOf(m, a.user_id),
    created_at: a.created_at,
    updated_at: a.updated_at,
    awardable_id: a.awardable_id,
    awardable_type: a.awardable_type,
    url: null,
  };
}

function issueAt(m: ForgeModel, ref: { project_id: number; iid: number }): Issue {
  return m.projects.get(ref.project_id)!.issues.get(ref.iid)!;
}

/** Entities::IssueLink: both ends and the stored type. */
export function presentLink(m: ForgeModel, l: IssueLink) {
  return { source_issue: presentIssue(m, issueAt(m, l.source)), target_issue: presentIssue(m, issueAt(m, l.target)), link_type: l.link_type };
}

/** Entities::RelatedIssue: the other issue plus the link seen from `from` (blocks seen from its target is is_blocked_by). */
export function presentRelated(m: ForgeModel, l: IssueLink, from: Issue) {
  const isSource = l.source.project_id === from.project_id && l.source.iid === from.iid;
  const other = issueAt(m, isSource ? l.target : l.source);
  const linkType = l.link_type === 'blocks' && !isSource ? 'is_blocked_by' : l.link_type;
  return { ...presentIssue(m, other), issue_link_id: l.id, link_type: linkType, link_created_at: l.created_at, link_updated_at: l.updated_at };
}

export function presentTodo(m: ForgeModel, t: Todo) {
  const p: Project = m.projects.get(t.project_id)!;
  const issue = p.issues.get(t.target_iid);
  const { default_branch: _d, visibility: _v, web_url: _w, namespace: _n, ...project } = presentProject(p);
  return {
    id: t.id,
    project,
    author: userOf(m, t.author_id),
    action_name: t.action_name,
    target_type: t.target_type,
    target: issue ? presentIssue(m, issue) : null,
    target_url: `${p.web_url}/-/issues/${t.target_iid}`,
    body: t.body,
    state: t.state,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}
