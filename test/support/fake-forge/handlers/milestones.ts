// Project and group milestones: list (MilestonesFinder filters), get, create, edit (state_event
// moves active ⇄ closed), delete. The same handlers serve /projects/:id and /groups/:id.
import { milestoneHierarchyParams } from '../edition';
import type { Milestone } from '../model';
import { json, paramError, route, type Ctx, type Route } from './http';
import {
  castDate,
  findOwnMilestone,
  groupParent,
  nextIid,
  parentGroupOf,
  projectParent,
  projectsIn,
  requireMilestoneAdmin,
  selfAndDescendants,
  validateMilestone,
  type Parent,
} from './milestone-parent';
import { listResponse } from './paginate';
import { presentMilestone } from './present-milestones';

function iidsParam(ctx: Ctx): number[] | undefined {
  const raw = ctx.input.raw('iids');
  if (raw === undefined || raw === null || raw === '') return undefined;
  // Array[Integer], also accepted comma-separated.
  const parts = Array.isArray(raw) ? raw : String(raw).split(',');
  if (!parts.every((x) => /^\d+$/.test(String(x).trim()))) throw paramError('iids is invalid');
  return parts.map((x) => Number(x));
}

function dateTimeParam(ctx: Ctx, name: string): number | undefined {
  const v = ctx.input.str(name);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw paramError(`${name} is invalid`);
  return t;
}

/** The milestones a list may draw from before filters: own, plus ancestors' and descendants' when asked. */
function candidates(ctx: Ctx, parent: Parent, ancestors: boolean, descendants: boolean): Milestone[] {
  const m = ctx.model;
  if (parent.project) {
    const group = parentGroupOf(m, parent.project);
    return [...parent.milestones, ...(ancestors && group ? m.groupChain(group).flatMap((g) => g.milestones) : [])];
  }
  const g = parent.group!;
  const groups = new Set([g, ...(ancestors ? m.groupChain(g) : []), ...(descendants ? selfAndDescendants(m, g) : [])]);
  const projects = descendants ? projectsIn(m, selfAndDescendants(m, g)).filter((p) => m.canSee(p, ctx.user.id)) : [];
  return [...[...groups].flatMap((x) => x.milestones), ...projects.flatMap((p) => p.milestones)];
}

type Load = (ctx: Ctx) => Parent;

// Grape validates parameters before the endpoint runs, so each handler checks them before loading the parent.
function list(ctx: Ctx, load: Load): Response {
  const state = ctx.input.oneOf('state', ['active', 'closed', 'all'] as const) ?? 'all';
  const iids = iidsParam(ctx);
  const title = ctx.input.str('title');
  const search = ctx.input.str('search')?.toLowerCase();
  // Before 16.7 only include_parent_milestones is declared; the newer names are dropped.
  const hierarchy = milestoneHierarchyParams(ctx.model);
  if (hierarchy && ctx.input.has('include_ancestors') && ctx.input.has('include_parent_milestones')) {
    throw paramError('include_ancestors, include_parent_milestones are mutually exclusive');
  }
  const ancestors = (hierarchy ? ctx.input.bool('include_ancestors') : undefined) ?? ctx.input.bool('include_parent_milestones') ?? false;
  const descendants = (hierarchy ? ctx.input.bool('include_descendants') : undefined) ?? false;
  const before = dateTimeParam(ctx, 'updated_before');
  const after = dateTimeParam(ctx, 'updated_after');
  const parent = load(ctx);
  const items = candidates(ctx, parent, ancestors, descendants)
    .filter((x) => state === 'all' || x.state === state)
    // GitLab ignores iids when ancestors are included.
    .filter((x) => !iids || ancestors || iids.includes(x.iid))
    .filter((x) => title === undefined || x.title === title)
    .filter((x) => !search || `${x.title}\n${x.description}`.toLowerCase().includes(search))
    .filter((x) => before === undefined || Date.parse(x.updated_at) < before)
    .filter((x) => after === undefined || Date.parse(x.updated_at) > after)
    // due_date ascending with undated last, then title.
    .sort((a, b) => (a.due_date ?? '9999').localeCompare(b.due_date ?? '9999') || a.title.localeCompare(b.title));
  return listResponse(ctx, items, (x) => presentMilestone(ctx.model, x));
}

function create(ctx: Ctx, load: Load): Response {
  const title = ctx.input.required('title');
  const parent = load(ctx);
  requireMilestoneAdmin(parent);
  const now = ctx.model.now();
  const ms: Milestone = {
    id: ctx.model.nextId.milestone,
    iid: nextIid(parent.milestones),
    project_id: parent.project?.id ?? null,
    group_id: parent.group?.id ?? null,
    title,
    description: ctx.input.str('description') ?? '',
    state: 'active',
    due_date: castDate(ctx.input.str('due_date')) ?? null,
    start_date: castDate(ctx.input.str('start_date')) ?? null,
    created_at: now,
    updated_at: now,
  };
  validateMilestone(ctx.model, parent, ms, 'create');
  ctx.model.nextId.milestone++;
  parent.milestones.push(ms);
  return json(presentMilestone(ctx.model, ms), 201);
}

const EDITABLE = ['title', 'description', 'start_date', 'due_date', 'state_event'];

function edit(ctx: Ctx, load: Load): Response {
  if (!EDITABLE.some((k) => ctx.input.has(k))) throw paramError(`${EDITABLE.join(', ')} are missing, at least one parameter must be provided`);
  const stateEvent = ctx.input.oneOf('state_event', ['close', 'activate'] as const);
  const parent = load(ctx);
  const ms = findOwnMilestone(ctx, parent);
  requireMilestoneAdmin(parent);
  const next: Milestone = { ...ms };
  const title = ctx.input.str('title');
  if (title !== undefined) next.title = title;
  const description = ctx.input.str('description');
  if (description !== undefined) next.description = description;
  const due = castDate(ctx.input.str('due_date'));
  if (due !== undefined) next.due_date = due;
  const start = castDate(ctx.input.str('start_date'));
  if (start !== undefined) next.start_date = start;
  if (stateEvent) next.state = stateEvent === 'close' ? 'closed' : 'active';
  validateMilestone(ctx.model, parent, next, 'update');
  Object.assign(ms, next, { updated_at: ctx.model.now() });
  return json(presentMilestone(ctx.model, ms));
}

/** Issues and merge requests keep existing; they just lose the milestone. */
function remove(ctx: Ctx, parent: Parent): Response {
  const ms = findOwnMilestone(ctx, parent);
  requireMilestoneAdmin(parent);
  parent.milestones.splice(parent.milestones.indexOf(ms), 1);
  for (const p of ctx.model.projects.values()) {
    for (const i of p.issues.values()) if (i.milestone_id === ms.id) i.milestone_id = null;
    for (const mr of p.mergeRequests) if (mr.milestone_id === ms.id) mr.milestone_id = null;
  }
  return new Response(null, { status: 204 });
}

export const PARENTS: [string, Load][] = [
  ['/projects/:id', projectParent],
  ['/groups/:id', groupParent],
];

export const milestoneRoutes: Route[] = PARENTS.flatMap(([prefix, load]) => [
  route('GET', `${prefix}/milestones`, (ctx) => list(ctx, load)),
  route('GET', `${prefix}/milestones/:milestone_id`, (ctx) => {
    const parent = load(ctx);
    return json(presentMilestone(ctx.model, findOwnMilestone(ctx, parent)));
  }),
  route('POST', `${prefix}/milestones`, (ctx) => create(ctx, load)),
  route('PUT', `${prefix}/milestones/:milestone_id`, (ctx) => edit(ctx, load)),
  route('DELETE', `${prefix}/milestones/:milestone_id`, (ctx) => remove(ctx, load(ctx))),
]);
