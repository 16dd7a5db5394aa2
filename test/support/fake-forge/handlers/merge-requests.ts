// Merge requests: list across projects or in one, get, create, update (incl. close/reopen) and merge,
// as GitLab's lib/api/merge_requests.rb answers them (status codes and error bodies included).
import { ensureLabels } from './labels';
import type { DiffFile, ForgeModel, MergeRequest, Project } from '../model';
import { fakeSha, type MrState, type MrVersion } from '../model-merge-requests';
import { idNoneAny, list, milestoneTitle } from './finder-params';
import { ApiError, forbidden, json, loadProject, notFound, paramError, route, unauthorized, type Ctx, type Route } from './http';
import {
  canCreateMergeRequestFrom,
  canCreateMergeRequestIn,
  canMergeInto,
  canReadMergeRequests,
  canUpdateMergeRequest,
  detailedMergeStatus,
  isDraft,
  loadMergeRequest,
  sourceProjectOf,
} from './merge-request-access';
import { listResponse } from './paginate';
import { mergeChecksShaFirst, paidTier, reviewsForMeScope } from '../edition';
import { presentMergeRequest } from './present-merge-requests';

const MAX_DESCRIPTION = 1_048_576;
const UPDATABLE = [
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'description',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'milestone',
  'remove_source_branch',
  'allow_collaboration',
  'allow_maintainer_to_push',
  'squash',
  'target_branch',
  'title',
  'state_event',
  'discussion_locked',
  'merge_after',
];
const EXCLUSIVE: [string, string][] = [
  ['assignee_id', 'assignee_username'],
  ['author_id', 'author_username'],
  ['reviewer_id', 'reviewer_username'],
];

/** ActiveRecord validation failures: 400 {"message": {"field": ["…"]}}. */
const invalid = (field: string, problem: string) => new ApiError(400, { message: { [field]: [problem] } });
/** handle_merge_request_errors!: error!(errors[:x], 422) / conflict!(…) with the messages as a list. */
const unprocessable = (message: string) => new ApiError(422, { message: [message] });

function idList(ctx: Ctx, p: Project, name: string): number[] | undefined {
  const raw = ctx.input.raw(name);
  if (raw === undefined || raw === null) return undefined;
  const ids = (Array.isArray(raw) ? raw : raw === '' ? [] : String(raw).split(',')).map((v) => {
    if (!/^\d+$/.test(String(v).trim())) throw paramError(`${name} is invalid`);
    return Number(v);
  });
  return ids.filter((id) => id !== 0 && ctx.model.users.has(id) && ctx.model.canSee(p, id));
}

/** MergeRequestsFinder as far as the tools use it. */
function filterMergeRequests(ctx: Ctx, mrs: MergeRequest[], defaultScope: 'created_by_me' | 'all'): MergeRequest[] {
  const { input, model: m, user } = ctx;
  for (const [a, b] of EXCLUSIVE) if (input.has(a) && input.has(b)) throw paramError(`${a}, ${b} are mutually exclusive`);
  // reviews_for_me joined the scope's values in 18.4 (edition.ts); before, Grape refuses it with a 400.
  const scopes = ['created_by_me', 'assigned_to_me', ...(reviewsForMeScope(m) ? ['reviews_for_me'] : []), 'all', 'created-by-me', 'assigned-to-me'] as const;
  const scope = (input.oneOf('scope', scopes) ?? defaultScope).replaceAll('-', '_');
  const state = input.oneOf('state', ['opened', 'closed', 'locked', 'merged', 'all'] as const) ?? 'all';
  const wip = input.oneOf('wip', ['yes', 'no'] as const);
  const assigneeId = idNoneAny(input, 'assignee_id');
  const reviewerId = idNoneAny(input, 'reviewer_id');
  const authorId = input.int('author_id');
  const userIdOf = (name: string | undefined) => (name === undefined ? undefined : ([...m.users.values()].find((u) => u.username === name)?.id ?? -1));
  const authorName = userIdOf(input.str('author_username'));
  const assigneeName = userIdOf(input.str('assignee_username'));
  const reviewerName = userIdOf(input.str('reviewer_username'));
  const labels = list(input, 'labels')?.map((l) => l.toLowerCase());
  const milestone = input.str('milestone');
  const source = input.str('source_branch');
  const target = input.str('target_branch');
  const search = input.str('search')?.toLowerCase();
  const dates = (['created_after', 'created_before', 'updated_after', 'updated_before'] as const).map((k) => {
    const v = input.str(k);
    if (v !== undefined && Number.isNaN(Date.parse(v))) throw paramError(`${k} is invalid`);
    return v === undefined ? undefined : Date.parse(v);
  });
  const people = (ids: number[], filter: number | 'none' | 'any' | undefined) =>
    filter === undefined || (filter === 'none' ? ids.length === 0 : filter === 'any' ? ids.length > 0 : ids.includes(filter));
  const kept = mrs.filter((mr) => {
    const st = m.reviews.of(mr);
    if (scope === 'created_by_me' && mr.author_id !== user.id) return false;
    if (scope === 'assigned_to_me' && !st.assignee_ids.includes(user.id)) return false;
    if (scope === 'reviews_for_me' && !st.reviewer_ids.includes(user.id)) return false;
    if (state !== 'all' && mr.state !== state) return false;
    if (wip && isDraft(mr) !== (wip === 'yes')) return false;
    if (!people(st.assignee_ids, assigneeId) || !people(st.assignee_ids, assigneeName)) return false;
    if (!people(st.reviewer_ids, reviewerId) || !people(st.reviewer_ids, reviewerName)) return false;
    if ((authorId !== undefined && mr.author_id !== authorId) || (authorName !== undefined && mr.author_id !== authorName)) return false;
    if (labels && !labels.every((l) => st.labels.some((x) => x.toLowerCase() === l))) return false;
    if (milestone !== undefined) {
      const title = milestoneTitle(m, mr.milestone_id);
      const lower = milestone.toLowerCase();
      if (lower === 'none' ? title !== undefined : lower === 'any' ? title === undefined : title !== milestone) return false;
    }
    if ((source !== undefined && mr.source_branch !== source) || (target !== undefined && mr.target_branch !== target)) return false;
    if (search && !`${mr.title}\n${mr.description}`.toLowerCase().includes(search)) return false;
    const [ca, cb, ua, ub] = dates;
    const created = Date.parse(mr.created_at);
    const updated = Date.parse(mr.updated_at);
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

function listFrom(ctx: Ctx, projects: Project[], defaultScope: 'created_by_me' | 'all') {
  const readable = projects.filter((p) => canReadMergeRequests(ctx.model, p, ctx.user.id)).flatMap((p) => p.mergeRequests);
  return listResponse(ctx, filterMergeRequests(ctx, readable, defaultScope), (mr) => presentMergeRequest(ctx.model, mr, ctx.user.id));
}

/**
 * The source branch's commits brought into the target repository, as MergeRequest#fetch_ref! does
 * (refs/merge-requests/:iid/head): a fork's commits are then the target's to diff and to read.
 */
function fetchSourceCommits(m: ForgeModel, source: Project, target: Project, head: string): void {
  if (source === target) return;
  for (const id of m.reachable(source, [head])) if (!target.commits.has(id)) target.commits.set(id, source.commits.get(id)!);
}

/** A new version from the commit graph: the files the source's own commits touch (newest diff per path). */
function versionFor(m: ForgeModel, source: Project, p: Project, mr: MergeRequest): MrVersion | undefined {
  const head = source.branches.get(mr.source_branch);
  const start = p.branches.get(mr.target_branch);
  if (!head || !start) return undefined;
  fetchSourceCommits(m, source, p, head);
  const targetReach = m.reachable(p, [start]);
  const own = m.log(p, [head]).filter((c) => !targetReach.has(c.id));
  const base = m.log(p, [head]).find((c) => targetReach.has(c.id))?.id ?? start;
  const byPath = new Map<string, DiffFile>();
  for (const c of [...own].reverse()) {
    for (const d of c.diffs) {
      const earlier = byPath.get(d.new_path);
      byPath.set(d.new_path, earlier ? { ...d, new_file: earlier.new_file, a_mode: earlier.a_mode } : d);
    }
  }
  return {
    id: m.reviews.nextId.version++,
    head_commit_sha: head,
    base_commit_sha: base,
    start_commit_sha: start,
    created_at: m.now(),
    diffs: [...byPath.values()],
  };
}

function milestoneFor(m: ForgeModel, p: Project, id: number): number | null {
  if (p.milestones.some((x) => x.id === id)) return id;
  const group = m.groups.get(p.namespace.id);
  return group && m.groupChain(group).some((g) => g.milestones.some((x) => x.id === id)) ? id : null;
}

/** Field changes shared by create and update. */
function applyFields(ctx: Ctx, p: Project, mr: MergeRequest, st: MrState): void {
  const { input } = ctx;
  const title = input.str('title');
  if (title !== undefined) {
    if (title.trim() === '') throw invalid('title', "can't be blank");
    if (title.length > 255) throw invalid('title', 'is too long (maximum is 255 characters)');
    mr.title = title;
  }
  const description = input.str('description');
  if (description !== undefined) {
    if (description.length > MAX_DESCRIPTION) throw invalid('description', `is too long (maximum is ${MAX_DESCRIPTION} characters)`);
    mr.description = description;
  }
  // Several assignees or reviewers are paid features: CE keeps the first id and drops the rest
  // without a word (filter_assignee and filter_reviewer, allows_multiple_assignees?/reviewers?).
  const firstOnCe = (ids: number[]) => (paidTier(ctx.model) ? ids : ids.slice(0, 1));
  const assignees = idList(ctx, p, input.has('assignee_ids') ? 'assignee_ids' : 'assignee_id');
  if (assignees) st.assignee_ids = firstOnCe(assignees);
  const reviewers = idList(ctx, p, 'reviewer_ids');
  if (reviewers) st.reviewer_ids = firstOnCe(reviewers);
  const labels = list(input, 'labels');
  if (labels) st.labels = [...new Set(labels)];
  for (const l of list(input, 'add_labels') ?? []) if (!st.labels.includes(l)) st.labels.push(l);
  const removed = list(input, 'remove_labels');
  if (removed) st.labels = st.labels.filter((l) => !removed.includes(l));
  ensureLabels(ctx.model, p, st.labels);
  const milestone = input.str('milestone_id');
  if (milestone !== undefined) {
    if (milestone !== '' && !/^\d+$/.test(milestone)) throw paramError('milestone_id is invalid');
    mr.milestone_id = milestone === '' || milestone === '0' ? null : milestoneFor(ctx.model, p, Number(milestone));
  }
  const remove = input.bool('remove_source_branch');
  if (remove !== undefined) st.force_remove_source_branch = remove;
  const squash = input.bool('squash');
  if (squash !== undefined) st.squash = squash;
  const locked = input.bool('discussion_locked');
  if (locked !== undefined) st.discussion_locked = locked;
}

/** MergeRequest#validate_branches: another open merge request of the target from the same source project and branches. */
function openDuplicate(p: Project, mr: MergeRequest): MergeRequest | undefined {
  const sourceId = mr.source_project_id ?? mr.project_id;
  return p.mergeRequests.find(
    (x) =>
      x !== mr &&
      x.state === 'opened' &&
      x.source_branch === mr.source_branch &&
      x.target_branch === mr.target_branch &&
      (x.source_project_id ?? x.project_id) === sourceId,
  );
}

function merge(ctx: Ctx, p: Project, mr: MergeRequest, st: MrState): void {
  const m = ctx.model;
  const now = m.now();
  const head = st.versions[0]?.head_commit_sha ?? '';
  Object.assign(mr, { state: 'merged', updated_at: now });
  Object.assign(st, {
    merged_by_id: ctx.user.id,
    merged_at: now,
    merge_when_pipeline_succeeds: false,
    merge_commit_sha: fakeSha(`merge:${mr.id}:${head}`),
    squash_commit_sha: st.squash ? fakeSha(`squash:${mr.id}:${head}`) : null,
  });
  if (ctx.input.bool('should_remove_source_branch') ?? st.force_remove_source_branch) sourceProjectOf(m, mr)?.branches.delete(mr.source_branch);
}

export const mergeRequestRoutes: Route[] = [
  // GET /merge_requests defaults to the caller's own merge requests (scope created_by_me); a project's list to all.
  route('GET', '/merge_requests', (ctx) => listFrom(ctx, [...ctx.model.projects.values()], 'created_by_me')),
  route('GET', '/projects/:id/merge_requests', (ctx) => listFrom(ctx, [loadProject(ctx)], 'all')),

  route('GET', '/projects/:id/merge_requests/:merge_request_iid', (ctx) => {
    const { mr } = loadMergeRequest(ctx);
    return json(presentMergeRequest(ctx.model, mr, ctx.user.id, true));
  }),

  // POST with target_project_id opens a merge request from a fork (:id, the source project) in the
  // target project: MergeRequests::CreateService#set_projects! finds the target (404 when there is
  // none) and checks create_merge_request_from on the source and create_merge_request_in on the
  // target (403); MergeRequest#validate_fork then wants both in one fork network (422).
  route('POST', '/projects/:id/merge_requests', (ctx) => {
    const source = loadProject(ctx);
    const m = ctx.model;
    ctx.input.required('title');
    const sourceBranch = ctx.input.required('source_branch');
    const targetBranch = ctx.input.required('target_branch');
    const targetId = ctx.input.int('target_project_id');
    if (!canCreateMergeRequestFrom(m, source, ctx.user.id)) throw forbidden();
    const p = targetId === undefined ? source : m.projects.get(targetId);
    // Project.find raises RecordNotFound, which the API answers with its bare 404.
    if (!p) throw notFound();
    if (!canCreateMergeRequestIn(m, p, ctx.user.id)) throw forbidden();
    const now = m.now();
    const mr: MergeRequest = {
      id: m.reviews.nextId.mergeRequest++,
      iid: Math.max(0, ...p.mergeRequests.map((x) => x.iid)) + 1,
      project_id: p.id,
      ...(source === p ? {} : { source_project_id: source.id }),
      title: '',
      description: '',
      state: 'opened',
      source_branch: sourceBranch,
      target_branch: targetBranch,
      author_id: ctx.user.id,
      milestone_id: null,
      created_at: now,
      updated_at: now,
    };
    const st = m.reviews.of(mr);
    // Assignees, reviewers and the milestone are judged in the target project (set_projects!).
    applyFields(ctx, p, mr, st);
    if (source === p && sourceBranch === targetBranch) throw unprocessable("You can't use same project/branch for source and target");
    if (!m.inSameForkNetwork(source, p)) throw unprocessable('Source project is not a fork of the target project');
    for (const [what, name, project] of [
      ['Source', sourceBranch, source],
      ['Target', targetBranch, p],
    ] as const) {
      if (!project.branches.has(name)) throw unprocessable(`${what} branch "${name}" does not exist`);
    }
    const duplicate = openDuplicate(p, mr);
    if (duplicate) throw new ApiError(409, { message: [`Another open merge request already exists for this source branch: !${duplicate.iid}`] });
    const first = versionFor(m, source, p, mr);
    if (first) st.versions = [first];
    p.mergeRequests.push(mr);
    return json(presentMergeRequest(m, mr, ctx.user.id, true), 201);
  }),

  route('PUT', '/projects/:id/merge_requests/:merge_request_iid', (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    if (!UPDATABLE.some((k) => ctx.input.has(k))) throw paramError(`${UPDATABLE.join(', ')} are missing, at least one parameter must be provided`);
    const stateEvent = ctx.input.oneOf('state_event', ['close', 'reopen'] as const);
    if (!canUpdateMergeRequest(ctx.model, p, mr, ctx.user.id)) throw forbidden();
    const target = ctx.input.str('target_branch');
    if (target !== undefined) {
      if (target.trim() === '') throw paramError('target_branch is empty');
      if (target === mr.source_branch) throw unprocessable("You can't use same project/branch for source and target");
      mr.target_branch = target;
    }
    applyFields(ctx, p, mr, st);
    const now = ctx.model.now();
    if (stateEvent === 'close' && mr.state === 'opened') {
      mr.state = 'closed';
      Object.assign(st, { closed_at: now, closed_by_id: ctx.user.id, merge_when_pipeline_succeeds: false });
    } else if (stateEvent === 'reopen' && mr.state === 'closed') {
      const duplicate = openDuplicate(p, mr);
      if (duplicate) throw new ApiError(409, { message: [`Another open merge request already exists for this source branch: !${duplicate.iid}`] });
      mr.state = 'opened';
      Object.assign(st, { closed_at: null, closed_by_id: null });
    }
    mr.updated_at = now;
    return json(presentMergeRequest(ctx.model, mr, ctx.user.id, true));
  }),

  // lib/api/merge_requests.rb: 401 without merge rights on the target, 405 when neither an immediate
  // merge nor auto-merge (while the head pipeline runs) can happen, then 409 on a sha that is not the
  // head (check_sha_param! comes after the mergeability checks), then the merge or the auto-merge.
  // The newest releases (edition.ts mergeChecksShaFirst) check in this order: a namespace that requires
  // a sha and got none (400), merge rights (401), the sha (409, build_merge_params' check_sha_param!),
  // then mergeability (405, execute_merge). Older ones judged mergeability before the sha.
  route('PUT', '/projects/:id/merge_requests/:merge_request_iid/merge', (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    const m = ctx.model;
    const sha = ctx.input.str('sha');
    if (m.shaRequiredForMerge.has(p.namespace.full_path) && !sha) throw new ApiError(400, { message: 'SHA must be provided when merging' });
    if (!canMergeInto(m, p, ctx.user.id, mr.target_branch)) throw unauthorized();
    const auto = ctx.input.bool('auto_merge') === true || ctx.input.bool('merge_when_pipeline_succeeds') === true;
    const notAllowed = () => new ApiError(405, { message: '405 Method Not Allowed' });
    const active = st.head_pipeline_status === 'running' || st.head_pipeline_status === 'pending';
    const later = auto && active;
    const head = st.versions[0]?.head_commit_sha;
    const checkSha = () => {
      if (sha !== undefined && sha !== head) throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${head}` });
    };
    if (mergeChecksShaFirst(m)) checkSha();
    if (detailedMergeStatus(m, mr, st, { skipCi: later }) !== 'mergeable') throw notAllowed();
    checkSha();
    if (ctx.input.bool('squash')) st.squash = true;
    if (later) Object.assign(st, { merge_when_pipeline_succeeds: true, merge_user_id: ctx.user.id });
    else merge(ctx, p, mr, st);
    return json(presentMergeRequest(m, mr, ctx.user.id, true));
  }),
];
