// GitLab's IssuesFinder as far as the issue tools use it: scope, state, people, labels, milestone,
// dates, search, type and the Grape parameter checks (mutually exclusive pairs, enum values).
import type { Issue } from '../model';
import { paidTier } from '../edition';
import { idNoneAny, list, milestoneTitle } from './finder-params';
import { paramError, type Ctx } from './http';

const SCOPES = ['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me'] as const;
const DUE_DATES = ['0', 'none', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'] as const;
const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
const EXCLUSIVE: [string, string][] = [
  ['assignee_id', 'assignee_username'],
  ['author_id', 'author_username'],
  ['milestone', 'milestone_id'],
  ['iteration_id', 'iteration_title'],
];

function dueDateMatch(filter: (typeof DUE_DATES)[number], i: Issue, today: string): boolean {
  const due = i.due_date;
  if (filter === '0' || filter === 'none') return due === null;
  if (due === null) return false;
  const shift = (days: number) => new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
  switch (filter) {
    case 'any':
      return true;
    case 'today':
      return due === today;
    case 'tomorrow':
      return due === shift(1);
    case 'overdue':
      return due < today;
    case 'week':
      return due >= today && due <= shift(7);
    case 'month':
      return due >= today && due <= shift(31);
    default:
      return due >= shift(-14) && due <= shift(62);
  }
}

/** Filters and orders `issues` (already limited to what the caller may read) like GitLab's finder. */
export function filterIssues(ctx: Ctx, issues: Issue[], defaultScope: 'created_by_me' | 'all'): Issue[] {
  const { input, model: m, user } = ctx;
  for (const [a, b] of EXCLUSIVE) if (input.has(a) && input.has(b)) throw paramError(`${a}, ${b} are mutually exclusive`);
  const scope = (input.oneOf('scope', SCOPES) ?? defaultScope).replaceAll('-', '_');
  const state = input.oneOf('state', ['opened', 'closed', 'all'] as const) ?? 'all';
  const issueType = input.oneOf('issue_type', ISSUE_TYPES);
  const dueDate = input.oneOf('due_date', DUE_DATES);
  const assigneeId = idNoneAny(input, 'assignee_id');
  // iteration_id is an EE filter (ee/lib/ee/api/helpers/issues_helpers.rb): CE ignores it and lists unfiltered.
  const iterationId = paidTier(m) ? idNoneAny(input, 'iteration_id') : undefined;
  const assigneeNames = list(input, 'assignee_username');
  // CE takes one assignee_username (lib/api/validations/validators/check_assignees_count.rb); EE lifts the limit.
  if (assigneeNames && assigneeNames.length > 1 && !paidTier(m)) {
    throw paramError(`assignee_username allows one value, but found ${assigneeNames.length}: ${assigneeNames.join(', ')}`);
  }
  const authorId = input.int('author_id');
  const authorName = input.str('author_username');
  const labels = list(input, 'labels');
  const milestone = input.str('milestone');
  const confidential = input.bool('confidential');
  const search = input.str('search')?.toLowerCase();
  const iids = list(input, 'iids')?.map(Number);
  const dates = (['created_after', 'created_before', 'updated_after', 'updated_before'] as const).map((k) => {
    const v = input.str(k);
    if (v !== undefined && Number.isNaN(Date.parse(v))) throw paramError(`${k} is invalid`);
    return v === undefined ? undefined : Date.parse(v);
  });
  const userIdOf = (name: string) => [...m.users.values()].find((u) => u.username === name)?.id ?? -1;
  const today = m.now().slice(0, 10);

  const kept = issues.filter((i) => {
    if (scope === 'created_by_me' && i.author_id !== user.id) return false;
    if (scope === 'assigned_to_me' && !i.assignee_ids.includes(user.id)) return false;
    if (state !== 'all' && i.state !== state) return false;
    if (issueType && i.issue_type !== issueType) return false;
    if (assigneeId === 'none' && i.assignee_ids.length > 0) return false;
    if (assigneeId === 'any' && i.assignee_ids.length === 0) return false;
    if (typeof assigneeId === 'number' && !i.assignee_ids.includes(assigneeId)) return false;
    if (assigneeNames && !assigneeNames.every((n) => i.assignee_ids.includes(userIdOf(n)))) return false;
    // No iterations are modelled: every issue has none.
    if (iterationId !== undefined && iterationId !== 'none') return false;
    if (authorId !== undefined && i.author_id !== authorId) return false;
    if (authorName !== undefined && i.author_id !== userIdOf(authorName)) return false;
    if (labels) {
      const wanted = labels.map((l) => l.toLowerCase());
      if (wanted.length === 1 && wanted[0] === 'none') {
        if (i.labels.length) return false;
      } else if (wanted.length === 1 && wanted[0] === 'any') {
        if (!i.labels.length) return false;
      } else if (!wanted.every((l) => i.labels.some((x) => x.toLowerCase() === l))) return false;
    }
    if (milestone !== undefined) {
      const title = milestoneTitle(m, i.milestone_id);
      const lower = milestone.toLowerCase();
      if (lower === 'none' ? title !== undefined : lower === 'any' ? title === undefined : title !== milestone) return false;
    }
    if (confidential !== undefined && i.confidential !== confidential) return false;
    if (search && !`${i.title}\n${i.description}`.toLowerCase().includes(search)) return false;
    if (iids && !iids.includes(i.iid)) return false;
    if (dueDate && !dueDateMatch(dueDate, i, today)) return false;
    const [ca, cb, ua, ub] = dates;
    const created = Date.parse(i.created_at);
    const updated = Date.parse(i.updated_at);
    return !(
      (ca !== undefined && created < ca) ||
      (cb !== undefined && created > cb) ||
      (ua !== undefined && updated < ua) ||
      (ub !== undefined && updated > ub)
    );
  });
  const orderBy = input.oneOf('order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
  const asc = (input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc') === 'asc';
  return kept.sort((a, b) => (asc ? 1 : -1) * (Date.parse(a[orderBy]) - Date.parse(b[orderBy])) || (asc ? a.id - b.id : b.id - a.id));
}
