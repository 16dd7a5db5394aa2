// Issues: list across projects or in one, get, create, update (incl. close/reopen), delete.
import { ensureLabels } from './labels';
import type { ForgeModel, Issue, Project } from '../model';
import { extractQuickActions } from '../quick-actions';
import { ACCESS, ApiError, forbidden, json, loadProject, paramError, route, type Ctx, type Params, type Route } from './http';
import { canEditIssue, canReadIssue, loadIssue, touch } from './issue-access';
import { filterIssues } from './issue-filters';
import { paidTier } from '../edition';
import { listResponse } from './paginate';
import { presentIssue } from './present-issues';

const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
const MAX_DESCRIPTION = 1_048_576;
const UPDATABLE = [
  'title',
  'description',
  'assignee_ids',
  'assignee_id',
  'confidential',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'weight',
  'issue_type',
];

/** ActiveRecord validation failures: 400 {"message": {"field": ["…"]}}. */
const invalid = (field: string, problem: string) => new ApiError(400, { message: { [field]: [problem] } });

function labelList(input: Params, name: string): string[] | undefined {
  const raw = input.raw(name);
  if (raw === undefined || raw === null) return undefined;
  const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}

/** assignee_ids[] (or assignee_id); 0 or an empty list unassigns; ids of users who cannot see the project are dropped. */
function assignees(ctx: Ctx, p: Project): number[] | undefined {
  const raw = ctx.input.raw('assignee_ids') ?? ctx.input.raw('assignee_id');
  if (raw === undefined || raw === null) return undefined;
  const ids = (Array.isArray(raw) ? raw : raw === '' ? [] : [raw]).map((v) => {
    if (!/^\d+$/.test(String(v))) throw paramError('assignee_ids is invalid');
    return Number(v);
  });
  const kept = ids.filter((id) => id !== 0 && ctx.model.users.has(id) && ctx.model.canSee(p, id));
  // Multiple assignees are a paid feature: CE keeps the first and drops the rest without a word
  // (app/services/issuable_base_service.rb filter_assignees, allows_multiple_assignees?).
  return paidTier(ctx.model) ? kept : kept.slice(0, 1);
}

/** Milestones of the project and its ancestor groups; anything else is ignored, as GitLab does. */
function milestoneFor(m: ForgeModel, p: Project, id: number): number | null {
  if (p.milestones.some((x) => x.id === id)) return id;
  const group = m.groups.get(p.namespace.id);
  const chain = group ? m.groupChain(group) : [];
  return chain.some((g) => g.milestones.some((x) => x.id === id)) ? id : null;
}

/**
 * Issues::BaseService#filter_params (app/services/issues/issue_type_helpers.rb): an issue_type the
 * caller may not create (`create_<type>`) is dropped without a word, on create and on update.
 * Incidents need Reporter (app/policies/project_policy.rb); test cases need Ultimate's quality
 * management (EE), which the fake does not model, so it never creates one.
 */
function mayCreateType(ctx: Ctx, p: Project, type: (typeof ISSUE_TYPES)[number]): boolean {
  if (type === 'test_case') return false;
  if (type === 'incident') return ctx.model.accessLevel(p, ctx.user.id) >= ACCESS.reporter;
  return true;
}

/** Field changes shared by create and update; metadata needs Reporter (GitLab drops it silently otherwise). */
function applyFields(ctx: Ctx, p: Project, issue: Issue): void {
  const { input } = ctx;
  const title = input.str('title');
  if (title !== undefined) {
    if (title.trim() === '') throw invalid('title', "can't be blank");
    if (title.length > 255) throw invalid('title', 'is too long (maximum is 255 characters)');
    issue.title = title;
  }
  const description = input.str('description');
  if (description !== undefined) {
    if (description.length > MAX_DESCRIPTION) throw invalid('description', `is too long (maximum is ${MAX_DESCRIPTION} characters)`);
    // GitLab runs the quick actions of a saved description and saves it without them (quick-actions.ts).
    const { text, commands } = extractQuickActions(description);
    issue.description = text;
    for (const command of commands) {
      ctx.model.quickActionsRun.push({ project_id: p.id, iid: issue.iid, command });
      if (command === 'close' && issue.state === 'opened') Object.assign(issue, { state: 'closed', closed_at: ctx.model.now(), closed_by_id: ctx.user.id });
      if (command === 'reopen' && issue.state === 'closed') Object.assign(issue, { state: 'opened', closed_at: null, closed_by_id: null });
    }
  }
  const issueType = input.oneOf('issue_type', ISSUE_TYPES);
  if (issueType && mayCreateType(ctx, p, issueType)) issue.issue_type = issueType;
  const confidential = input.bool('confidential');
  if (confidential !== undefined) issue.confidential = confidential;
  // weight is declared only in EE (ee/lib/ee/api/helpers/issues_helpers.rb): CE never reads it.
  const weight = paidTier(ctx.model) ? input.int('weight') : undefined;
  if (weight !== undefined && weight < 0) throw invalid('weight', 'must be greater than or equal to 0');
  const dueDate = input.str('due_date');
  if (dueDate !== undefined && dueDate !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) throw paramError('due_date is invalid');
  if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.reporter) return;
  const ids = assignees(ctx, p);
  if (ids) issue.assignee_ids = ids;
  const labels = labelList(input, 'labels');
  if (labels) issue.labels = labels;
  for (const l of labelList(input, 'add_labels') ?? []) if (!issue.labels.includes(l)) issue.labels.push(l);
  const removed = labelList(input, 'remove_labels');
  if (removed) issue.labels = issue.labels.filter((l) => !removed.includes(l));
  ensureLabels(ctx.model, p, issue.labels);
  const milestone = input.str('milestone_id');
  if (milestone !== undefined) {
    if (milestone !== '' && !/^\d+$/.test(milestone)) throw paramError('milestone_id is invalid');
    issue.milestone_id = milestone === '' || milestone === '0' ? null : milestoneFor(ctx.model, p, Number(milestone));
  }
  if (weight !== undefined) issue.weight = weight;
  if (dueDate !== undefined) issue.due_date = dueDate === '' ? null : dueDate;
  const locked = input.bool('discussion_locked');
  if (locked !== undefined) issue.discussion_locked = locked;
}

function listFrom(ctx: Ctx, projects: Project[], defaultScope: 'created_by_me' | 'all') {
  const readable = projects.flatMap((p) => [...p.issues.values()].filter((i) => canReadIssue(ctx.model, p, i, ctx.user.id)));
  const details = ctx.input.bool('with_labels_details') === true;
  return listResponse(ctx, filterIssues(ctx, readable, defaultScope), (i) => presentIssue(ctx.model, i, { labelDetails: details }));
}

export const issueRoutes: Route[] = [
  // GET /issues defaults to the caller's own issues (scope created_by_me); a project's list to all.
  route('GET', '/issues', (ctx) =>
    listFrom(
      ctx,
      [...ctx.model.projects.values()].filter((p) => ctx.model.canSee(p, ctx.user.id)),
      'created_by_me',
    ),
  ),
  route('GET', '/projects/:id/issues', (ctx) => listFrom(ctx, [loadProject(ctx)], 'all')),

  route('GET', '/projects/:id/issues/:issue_iid', (ctx) => {
    const { issue } = loadIssue(ctx);
    const response = json(presentIssue(ctx.model, issue));
    ctx.model.tracker.afterIssueRead?.(issue);
    return response;
  }),

  route('POST', '/projects/:id/issues', (ctx) => {
    const p = loadProject(ctx);
    ctx.input.required('title');
    const m = ctx.model;
    const iid = Math.max(0, ...p.issues.keys()) + 1;
    const now = m.now();
    const issue: Issue = {
      id: m.nextId.issue++,
      iid,
      project_id: p.id,
      title: '',
      description: '',
      state: 'opened',
      author_id: ctx.user.id,
      assignee_ids: [],
      labels: [],
      milestone_id: null,
      issue_type: 'issue',
      weight: null,
      confidential: false,
      discussion_locked: false,
      due_date: null,
      created_at: now,
      updated_at: now,
      closed_at: null,
      closed_by_id: null,
    };
    applyFields(ctx, p, issue);
    p.issues.set(iid, issue);
    return json(presentIssue(m, issue), 201);
  }),

  route('PUT', '/projects/:id/issues/:issue_iid', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    if (!UPDATABLE.some((k) => ctx.input.has(k))) throw paramError(`${UPDATABLE.join(', ')} are missing, at least one parameter must be provided`);
    const stateEvent = ctx.input.oneOf('state_event', ['close', 'reopen'] as const);
    if (!canEditIssue(ctx.model, p, issue, ctx.user.id)) throw forbidden();
    applyFields(ctx, p, issue);
    if (stateEvent === 'close' && issue.state === 'opened') {
      Object.assign(issue, { state: 'closed', closed_at: ctx.model.now(), closed_by_id: ctx.user.id });
    } else if (stateEvent === 'reopen' && issue.state === 'closed') {
      Object.assign(issue, { state: 'opened', closed_at: null, closed_by_id: null });
    }
    touch(ctx, issue);
    return json(presentIssue(ctx.model, issue));
  }),

  // Only project Owners (and admins) may delete issues.
  route('DELETE', '/projects/:id/issues/:issue_iid', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.owner) throw forbidden();
    p.issues.delete(issue.iid);
    ctx.model.tracker.forgetIssue(issue);
    return new Response(null, { status: 204 });
  }),
];
