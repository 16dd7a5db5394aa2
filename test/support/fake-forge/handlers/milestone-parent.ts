// What project and group milestone endpoints share: the parent (a project or a group) with its
// milestones and the caller's access level, milestone lookup by global id, and the hierarchy
// walks behind include_ancestors / include_descendants and title uniqueness.
import type { ForgeModel, Group, Milestone, Project } from '../model';
import { ACCESS, badRequest, forbidden, loadProject, notFound, paramError, type Ctx } from './http';

export interface Parent {
  /** Exactly one of project / group is set. */
  project?: Project;
  group?: Group;
  /** The parent's own milestones (mutable). */
  milestones: Milestone[];
  level: number;
}

export function projectParent(ctx: Ctx): Parent {
  const project = loadProject(ctx);
  return { project, milestones: project.milestones, level: ctx.model.accessLevel(project, ctx.user.id) };
}

/** Groups by numeric id or (%2F-encoded) full path; private groups without access are hidden (404). */
export function groupParent(ctx: Ctx): Parent {
  const group = ctx.model.findGroup(ctx.params.id);
  const level = group ? ctx.model.groupAccessLevel(group, ctx.user.id) : ACCESS.none;
  if (!group || (group.visibility === 'private' && level === ACCESS.none)) throw notFound('Group');
  return { group, milestones: group.milestones, level };
}

/** admin_milestone: Reporter or above on the parent (GitLab 15.0–17.6; Planner since 17.7). */
export function requireMilestoneAdmin(parent: Parent): void {
  if (parent.level < ACCESS.reporter) throw forbidden();
}

/** `parent.milestones.find(id)`: only the parent's own milestones; ActiveRecord's bare 404 otherwise. */
export function findOwnMilestone(ctx: Ctx, parent: Parent): Milestone {
  const raw = ctx.params.milestone_id;
  if (!/^\d+$/.test(raw)) throw paramError('milestone_id is invalid');
  const found = parent.milestones.find((m) => m.id === Number(raw));
  if (!found) throw notFound();
  return found;
}

export function parentGroupOf(m: ForgeModel, p: Project): Group | undefined {
  return m.groups.get(p.namespace.id);
}

/** The group and every group below it. */
export function selfAndDescendants(m: ForgeModel, g: Group): Group[] {
  return [...m.groups.values()].filter((x) => m.groupChain(x).includes(g));
}

/** Projects directly in one of the groups. */
export function projectsIn(m: ForgeModel, groups: Group[]): Project[] {
  const ids = new Set(groups.map((g) => g.id));
  return [...m.projects.values()].filter((p) => ids.has(p.namespace.id));
}

/** Milestones whose titles a milestone of this parent must not repeat (Milestone#uniqueness_of_title). */
export function titleScope(m: ForgeModel, parent: Parent): Milestone[] {
  if (parent.project) {
    const group = parentGroupOf(m, parent.project);
    return [...parent.project.milestones, ...(group ? m.groupChain(group).flatMap((g) => g.milestones) : [])];
  }
  const g = parent.group!;
  const below = selfAndDescendants(m, g);
  const hierarchy = new Set([...m.groupChain(g), ...below]);
  return [...[...hierarchy].flatMap((x) => x.milestones), ...projectsIn(m, below).flatMap((p) => p.milestones)];
}

/** Ruby's Hash#inspect of model errors, as GitLab interpolates them into "Failed to … milestone …". */
function rubyErrors(errors: Record<string, string[]>): string {
  return `{${Object.entries(errors)
    .map(([k, v]) => `:${k}=>[${v.map((s) => JSON.stringify(s)).join(', ')}]`)
    .join(', ')}}`;
}

/** Model validation of a milestone about to be saved; `verb` is "create" or "update". */
export function validateMilestone(m: ForgeModel, parent: Parent, ms: Milestone, verb: 'create' | 'update'): void {
  const errors: Record<string, string[]> = {};
  if (ms.title.trim() === '') errors.title = ["can't be blank"];
  else if (titleScope(m, parent).some((x) => x.id !== ms.id && x.title === ms.title)) {
    errors.title = ['already being used for another group or project milestone.'];
  }
  if (ms.start_date && ms.due_date && ms.due_date <= ms.start_date) errors.due_date = ['must be greater than start date'];
  if (Object.keys(errors).length) throw badRequest(`Failed to ${verb} milestone ${rubyErrors(errors)}`);
}

/** Rails casts a date it cannot parse (2024-02-30) to nil rather than failing. */
export function castDate(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const d = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return d.toISOString().slice(0, 10) === value.trim() ? value.trim() : null;
}

export function nextIid(milestones: Milestone[]): number {
  return Math.max(0, ...milestones.map((x) => x.iid)) + 1;
}
