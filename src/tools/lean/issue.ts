// Issues, the issues linked to one (RelatedIssue), and a link itself (IssueLink).
import { compact, count, flag, isRecord, issuableHead, labels, milestoneRef, pick, reference, user, users, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, ISSUABLE_HEAD, LABELS, MILESTONE_REF, REFERENCE, S, USER, USERS } from './schema-parts';

function leanIssue(r: Rec): Rec {
  const tasks = r.task_completion_status as { count?: number } | undefined;
  return compact({
    ...issuableHead(r),
    issue_type: r.issue_type,
    labels: labels(r.labels),
    milestone: milestoneRef(r.milestone),
    author: user(r.author),
    assignees: users(r.assignees),
    closed_by: user(r.closed_by),
    created_at: r.created_at,
    updated_at: r.updated_at,
    closed_at: r.closed_at,
    due_date: r.due_date,
    confidential: flag(r.confidential),
    discussion_locked: flag(r.discussion_locked),
    weight: r.weight,
    severity: r.issue_type === 'incident' ? r.severity : undefined,
    health_status: r.health_status,
    epic: isRecord(r.epic) ? pick(r.epic, ['id', 'iid', 'title']) : undefined,
    iteration: isRecord(r.iteration) ? pick(r.iteration, ['id', 'iid', 'title']) : undefined,
    user_notes_count: count(r.user_notes_count),
    merge_requests_count: count(r.merge_requests_count),
    blocking_issues_count: count(r.blocking_issues_count),
    task_completion_status: tasks && count(tasks.count) ? tasks : undefined,
    moved_to_id: r.moved_to_id,
    web_url: r.web_url,
  });
}

const ISSUE_FIELDS = {
  ...ISSUABLE_HEAD,
  issue_type: S,
  labels: LABELS,
  milestone: MILESTONE_REF,
  author: USER,
  assignees: USERS,
  closed_by: USER,
  created_at: S,
  updated_at: S,
  closed_at: S,
  due_date: S,
  confidential: B,
  discussion_locked: B,
  weight: I,
  severity: S,
  health_status: S,
  epic: fields({ id: I, iid: I, title: S }),
  iteration: fields({ id: I, iid: I, title: S }),
  user_notes_count: I,
  merge_requests_count: I,
  blocking_issues_count: I,
  task_completion_status: fields({ count: I, completed_count: I }, true),
  moved_to_id: I,
  web_url: S,
};

export const issue: RecordKind = {
  about: 'An issue: what it asks, its state, people, labels and milestone.',
  lean: leanIssue,
  schema: fields(ISSUE_FIELDS),
};

export const linkedIssue: RecordKind = {
  about: 'An issue linked to another, with the link seen from that other issue.',
  schema: fields({ ...ISSUE_FIELDS, issue_link_id: I, link_type: S, link_created_at: S }),
  lean: (r) => compact({ ...leanIssue(r), issue_link_id: r.issue_link_id, link_type: r.link_type, link_created_at: r.link_created_at }),
};

export const issueLink: RecordKind = {
  about: 'A link between two issues.',
  schema: fields({ source_issue: REFERENCE, target_issue: REFERENCE, link_type: S }),
  lean: (r) => compact({ source_issue: reference(r.source_issue), target_issue: reference(r.target_issue), link_type: r.link_type }),
};
