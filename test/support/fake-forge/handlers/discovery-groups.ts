// Groups, subgroups and namespaces (lib/api/groups.rb with app/finders/groups_finder.rb,
// lib/api/namespaces.rb with User#namespaces): what a signed-in non-admin sees.
import type { ForgeModel, Group, User } from '../model';
import { json, notFound, paramError, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { groupNamespace, presentGroup, presentNamespace, presentProjectDetails, userNamespace } from './present-discovery';
import { loadGroup } from './discovery-projects';
import { canRead } from './present-discovery';

const ORDER_BY = ['name', 'path', 'id', 'similarity'] as const;
const ACCESS_LEVELS = [10, 15, 20, 30, 40, 50];

/**
 * GroupsFinder for a non-admin: without all_available, the groups the user is a member of and
 * their descendants (authorized_groups.self_and_descendants); with it, every group they can read too.
 */
function groupsFor(ctx: Ctx, parent?: Group): Group[] {
  const { model: m, user, input } = ctx;
  const allAvailable = input.bool('all_available') === true;
  const owned = input.bool('owned') === true;
  const topLevel = input.bool('top_level_only') === true;
  const minAccess = input.int('min_access_level');
  if (minAccess !== undefined && !ACCESS_LEVELS.includes(minAccess)) throw paramError('min_access_level does not have a valid value');
  const search = input.str('search')?.toLowerCase();
  const orderBy = input.oneOf('order_by', ORDER_BY) ?? 'name';
  const sort = input.oneOf('sort', ['asc', 'desc'] as const) ?? 'asc';
  const list = [...m.groups.values()].filter((g) => {
    const level = m.groupAccessLevel(g, user.id);
    if (owned) {
      if ((g.members.get(user.id) ?? 0) < 50) return false;
    } else if (minAccess !== undefined) {
      if (level < minAccess) return false;
    } else if (level === 0 && !(allAvailable && g.visibility !== 'private')) return false;
    if (parent && g.parent_id !== parent.id) return false;
    if (topLevel && g.parent_id !== null) return false;
    if (search && !`${g.name}\n${g.path}`.toLowerCase().includes(search)) return false;
    return true;
  });
  const key = (g: Group) =>
    orderBy === 'id' || orderBy === 'similarity' ? String(g.id).padStart(10, '0') : orderBy === 'path' ? g.path.toLowerCase() : g.name.toLowerCase();
  const factor = sort === 'asc' ? 1 : -1;
  return list.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id) * factor);
}

/** User#namespaces: the personal namespace and the groups the user is a direct member of (owned_only: Owner). */
function namespacesOf(m: ForgeModel, u: User, ownedOnly: boolean) {
  const groups = [...m.groups.values()].filter((g) => (g.members.get(u.id) ?? 0) >= (ownedOnly ? 50 : 1));
  return [userNamespace(m, u), ...groups.map(groupNamespace)];
}

function findNamespace(ctx: Ctx) {
  const { model: m, user } = ctx;
  const raw = ctx.params.id;
  const own = userNamespace(m, user);
  if (raw === String(own.id) || raw.toLowerCase() === own.full_path.toLowerCase()) return own;
  const g = m.findGroup(raw);
  // read_namespace_via_membership: a group the user belongs to, directly or through an ancestor.
  if (g && m.groupAccessLevel(g, user.id) > 0) return groupNamespace(g);
  throw notFound('Namespace');
}

export const discoveryGroupRoutes: Route[] = [
  route('GET', '/groups', (ctx) => listResponse(ctx, groupsFor(ctx), (g) => presentGroup(ctx.model, g))),

  route('GET', '/groups/:id/subgroups', (ctx) => {
    const parent = loadGroup(ctx);
    return listResponse(ctx, groupsFor(ctx, parent), (g) => presentGroup(ctx.model, g));
  }),

  route('GET', '/groups/:id', (ctx) => {
    const g = loadGroup(ctx);
    const withProjects = ctx.input.bool('with_projects') ?? true;
    const projects = withProjects
      ? [...ctx.model.projects.values()]
          .filter((p) => p.namespace.kind !== 'user' && p.namespace.id === g.id && canRead(ctx.model, p, ctx.user.id))
          .map((p) => presentProjectDetails(ctx.model, p))
      : [];
    return json({ ...presentGroup(ctx.model, g), shared_with_groups: [], projects, shared_projects: [] });
  }),

  route('GET', '/namespaces', (ctx) => {
    const search = ctx.input.str('search')?.toLowerCase();
    const topLevel = ctx.input.bool('top_level_only') === true;
    const list = namespacesOf(ctx.model, ctx.user, ctx.input.bool('owned_only') === true).filter(
      (ns) => (!search || `${ns.name}\n${ns.path}`.toLowerCase().includes(search)) && (!topLevel || ns.parent_id === null),
    );
    return listResponse(ctx, list, (ns) => presentNamespace(ctx.model, ns));
  }),

  route('GET', '/namespaces/:id', (ctx) => json(presentNamespace(ctx.model, findNamespace(ctx)))),
];
