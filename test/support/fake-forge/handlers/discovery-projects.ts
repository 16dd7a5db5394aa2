// GET /projects and GET /groups/:id/projects (lib/api/projects.rb, lib/api/groups.rb, app/finders/
// projects_finder.rb): the projects the caller may read, filtered and ordered as GitLab does.
import type { ForgeModel, Group, Project, User } from '../model';
import { notFound, paramError, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { canRead, canReadGroup, effectiveLevel, presentProjectDetails } from './present-discovery';

const ORDER_BY = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count'] as const;
const VISIBILITY = ['private', 'internal', 'public'] as const;
const ACCESS_LEVELS = [10, 15, 20, 30, 40, 50];

/** A group by id or full path, 404 when the caller may not read it (find_group!). */
export function loadGroup(ctx: Ctx, param = 'id'): Group {
  const g = ctx.model.findGroup(ctx.params[param]);
  if (!g || !canReadGroup(ctx.model, g, ctx.user.id)) throw notFound('Group');
  return g;
}

/** The group and every subgroup below it. */
export function groupAndDescendants(m: ForgeModel, g: Group): Set<number> {
  const ids = new Set([g.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const x of m.groups.values())
      if (x.parent_id !== null && ids.has(x.parent_id) && !ids.has(x.id)) {
        ids.add(x.id);
        grew = true;
      }
  }
  return ids;
}

function sortValue(m: ForgeModel, p: Project, orderBy: string): string | number {
  const facts = m.discovery.projects.get(p.id);
  switch (orderBy) {
    case 'name':
      return p.name.toLowerCase();
    case 'path':
      return p.path.toLowerCase();
    case 'last_activity_at':
    case 'updated_at':
      return facts?.last_activity_at ?? '';
    case 'created_at':
      return `${facts?.created_at ?? ''}#${String(p.id).padStart(10, '0')}`;
    case 'star_count':
      return facts?.star_count ?? 0;
    default:
      return p.id;
  }
}

/** The shared filters of both lists (ProjectsFinder's params). */
function filtered(ctx: Ctx, candidates: Project[]): Project[] {
  const { model: m, user, input } = ctx;
  const search = input.str('search');
  const searchNamespaces = input.bool('search_namespaces') === true;
  const membership = input.bool('membership') === true;
  const owned = input.bool('owned') === true;
  const starred = input.bool('starred') === true;
  const archived = input.bool('archived');
  const visibility = input.oneOf('visibility', VISIBILITY);
  const minAccess = input.int('min_access_level');
  if (minAccess !== undefined && !ACCESS_LEVELS.includes(minAccess)) throw paramError('min_access_level does not have a valid value');
  const topics = (input.str('topic') ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const orderBy = input.oneOf('order_by', ORDER_BY) ?? 'created_at';
  const sort = input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
  const needle = search?.toLowerCase();
  const list = candidates.filter((p) => {
    const facts = m.discovery.projects.get(p.id);
    const level = effectiveLevel(m, p, user.id);
    if (!canRead(m, p, user.id)) return false;
    if (membership && level === 0) return false;
    if (owned && !ownedBy(m, p, user)) return false;
    // The fake keeps no stars of its own users: nothing is starred.
    if (starred) return false;
    if (archived !== undefined && (facts?.archived ?? false) !== archived) return false;
    if (visibility && p.visibility !== visibility) return false;
    if (minAccess !== undefined && level < minAccess) return false;
    if (topics.length && !topics.every((t) => (facts?.topics ?? []).some((x) => x.toLowerCase() === t))) return false;
    if (needle !== undefined) {
      const fields = [p.name, p.path, facts?.description ?? '', ...(searchNamespaces ? [p.path_with_namespace] : [])].map((f) => f.toLowerCase());
      // Gitlab::SQL::Pattern (lib/gitlab/sql/pattern.rb): a term of fewer than
      // MIN_CHARS_FOR_PARTIAL_MATCHING (3) characters matches a whole value only, not a part.
      const matches = needle.length >= 3 ? fields.some((f) => f.includes(needle)) : fields.some((f) => f === needle);
      if (!matches) return false;
    }
    return true;
  });
  const factor = sort === 'asc' ? 1 : -1;
  return list.sort((a, b) => {
    const x = sortValue(m, a, orderBy);
    const y = sortValue(m, b, orderBy);
    return (x < y ? -1 : x > y ? 1 : 0) * factor || (a.id - b.id) * factor;
  });
}

/** Owner of a personal project, or Owner of the project or its group. */
function ownedBy(m: ForgeModel, p: Project, user: User): boolean {
  if (p.namespace.kind === 'user') return m.discovery.users.get(user.id)?.namespaceId === p.namespace.id;
  return effectiveLevel(m, p, user.id) >= 50;
}

function present(ctx: Ctx) {
  const statistics = ctx.input.bool('statistics') === true;
  return (p: Project) => presentProjectDetails(ctx.model, p, { statistics, userId: ctx.user.id });
}

export const discoveryProjectRoutes: Route[] = [
  route('GET', '/projects', (ctx) => listResponse(ctx, filtered(ctx, [...ctx.model.projects.values()]), present(ctx))),

  route('GET', '/groups/:id/projects', (ctx) => {
    const g = loadGroup(ctx);
    const groups = ctx.input.bool('include_subgroups') === true ? groupAndDescendants(ctx.model, g) : new Set([g.id]);
    const inGroup = [...ctx.model.projects.values()].filter((p) => p.namespace.kind !== 'user' && groups.has(p.namespace.id));
    return listResponse(ctx, filtered(ctx, inGroup), present(ctx));
  }),
];
