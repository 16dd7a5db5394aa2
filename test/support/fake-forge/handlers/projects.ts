// GET /user, GET /projects/:id, PUT /projects/:id (default_branch only).
import { ACCESS, badRequest, json, loadProject, paramError, requireLevel, route, type Route } from './http';
import { presentProject } from './present';
import { presentProjectDetails, presentUserDetails } from './present-discovery';

export const projectRoutes: Route[] = [
  // Entities::UserPublic: the caller's own profile, its state and whether it is a bot included.
  route('GET', '/user', (ctx) => json({ ...presentUserDetails(ctx.model, ctx.user), email: ctx.user.email })),

  // Entities::ProjectWithAccess: license and statistics only when asked (lib/api/projects.rb).
  route('GET', '/projects/:id', (ctx) =>
    json(
      presentProjectDetails(ctx.model, loadProject(ctx), {
        license: ctx.input.bool('license') === true,
        statistics: ctx.input.bool('statistics') === true,
        userId: ctx.user.id,
      }),
    ),
  ),

  route('PUT', '/projects/:id', (ctx) => {
    const p = loadProject(ctx);
    const branch = ctx.input.str('default_branch');
    // Grape's at_least_one_of; only default_branch is modelled.
    if (branch === undefined) throw paramError('default_branch are missing, at least one parameter must be provided');
    requireLevel(ctx, p, ACCESS.maintainer);
    if (!p.branches.has(branch)) throw badRequest('Could not set the default branch');
    p.default_branch = branch;
    return json(presentProject(p));
  }),
];
