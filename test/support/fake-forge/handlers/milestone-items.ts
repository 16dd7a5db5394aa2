// What hangs off one milestone: its issues and merge requests (paginated), its burndown events
// (an EE endpoint: absent unless model.premium), and promotion of a project milestone to the
// project's group.
import type { Issue, Milestone, Project } from '../model';
import { ACCESS, ApiError, forbidden, json, route, type Ctx, type Route } from './http';
import { findOwnMilestone, nextIid, parentGroupOf, projectParent, projectsIn, requireMilestoneAdmin, type Parent } from './milestone-parent';
import { PARENTS } from './milestones';
import { listResponse } from './paginate';
import { burndownEvents, presentIssueBasic, presentMergeRequestBasic } from './present-milestones';

/** IssuesFinder/MergeRequestsFinder scope: the project, or the group's own projects (no subgroups), as far as visible. */
function scopeProjects(ctx: Ctx, parent: Parent): Project[] {
  const projects = parent.project ? [parent.project] : projectsIn(ctx.model, [parent.group!]);
  return projects.filter((p) => ctx.model.canSee(p, ctx.user.id));
}

/** Confidential issues: Reporter and above, the author and the assignees only. */
function canSeeIssue(ctx: Ctx, p: Project, i: Issue): boolean {
  if (!i.confidential) return true;
  const uid = ctx.user.id;
  return ctx.model.accessLevel(p, uid) >= ACCESS.reporter || i.author_id === uid || i.assignee_ids.includes(uid);
}

function issuesOf(ctx: Ctx, parent: Parent, ms: Milestone): Issue[] {
  return scopeProjects(ctx, parent)
    .flatMap((p) => [...p.issues.values()].filter((i) => i.milestone_id === ms.id && canSeeIssue(ctx, p, i)))
    .sort((a, b) => a.id - b.id);
}

/** CE has no burndown route at all: the router's own 404, whoever asks. */
const routeAbsent = () => new ApiError(404, { error: '404 Not Found' });

function promote(ctx: Ctx): Response {
  const parent = projectParent(ctx);
  const project = parent.project!;
  requireMilestoneAdmin(parent);
  // `authorize! :admin_milestone, user_project.group`: no group (a personal namespace) is a plain 403 too.
  const group = parentGroupOf(ctx.model, project);
  if (!group || ctx.model.groupAccessLevel(group, ctx.user.id) < ACCESS.reporter) throw forbidden();
  const ms = findOwnMilestone(ctx, parent);
  const now = ctx.model.now();
  const promoted: Milestone = {
    ...ms,
    id: ctx.model.nextId.milestone++,
    iid: nextIid(group.milestones),
    project_id: null,
    group_id: group.id,
    created_at: now,
    updated_at: now,
  };
  // Milestones::PromoteService: every same-titled milestone of the group's projects is merged into
  // the new group milestone (issues and merge requests re-pointed) and then deleted.
  for (const p of projectsIn(ctx.model, [group])) {
    const merged = new Set(p.milestones.filter((x) => x.title === ms.title).map((x) => x.id));
    if (merged.size === 0) continue;
    for (const i of p.issues.values()) if (i.milestone_id !== null && merged.has(i.milestone_id)) i.milestone_id = promoted.id;
    for (const mr of p.mergeRequests) if (mr.milestone_id !== null && merged.has(mr.milestone_id)) mr.milestone_id = promoted.id;
    p.milestones.splice(0, p.milestones.length, ...p.milestones.filter((x) => !merged.has(x.id)));
  }
  group.milestones.push(promoted);
  // The endpoint ends in `status(200)`, which Grape also renders as the body.
  return json(200);
}

export const milestoneItemRoutes: Route[] = [
  ...PARENTS.flatMap(([prefix, load]) => [
    route('GET', `${prefix}/milestones/:milestone_id/issues`, (ctx) => {
      const parent = load(ctx);
      const ms = findOwnMilestone(ctx, parent);
      return listResponse(ctx, issuesOf(ctx, parent, ms), (i) => presentIssueBasic(ctx.model, i));
    }),
    route('GET', `${prefix}/milestones/:milestone_id/merge_requests`, (ctx) => {
      const parent = load(ctx);
      const ms = findOwnMilestone(ctx, parent);
      const mrs = scopeProjects(ctx, parent)
        .flatMap((p) => p.mergeRequests.filter((mr) => mr.milestone_id === ms.id))
        .sort((a, b) => a.id - b.id);
      return listResponse(ctx, mrs, (mr) => presentMergeRequestBasic(ctx.model, mr));
    }),
    route('GET', `${prefix}/milestones/:milestone_id/burndown_events`, (ctx) => {
      if (!ctx.model.premium) throw routeAbsent();
      const parent = load(ctx);
      const ms = findOwnMilestone(ctx, parent);
      // Not paginated in GitLab: Burndown#as_json is presented whole.
      return json(burndownEvents(issuesOf(ctx, parent, ms)));
    }),
  ]),
  route('POST', '/projects/:id/milestones/:milestone_id/promote', promote),
];
