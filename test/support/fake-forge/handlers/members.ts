// Project and group members (lib/api/members.rb with app/finders/members_finder.rb and
// group_members_finder.rb): /members lists direct members, /members/all adds those inherited from
// ancestor groups, each user once with the highest access level.
import type { ForgeModel, Group, User } from '../model';
import { json, loadProject, notFound, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { presentMember } from './present-discovery';
import { loadGroup } from './discovery-projects';

type Entry = { user: User; level: number };

function merge(m: ForgeModel, sources: Map<number, number>[]): Entry[] {
  const levels = new Map<number, number>();
  for (const source of sources) for (const [id, level] of source) levels.set(id, Math.max(levels.get(id) ?? 0, level));
  return [...levels].flatMap(([id, level]) => {
    const user = m.users.get(id);
    return user ? [{ user, level }] : [];
  });
}

function filtered(ctx: Ctx, entries: Entry[]): Entry[] {
  const query = ctx.input.str('query')?.toLowerCase();
  const raw = ctx.input.raw('user_ids');
  const ids = raw === undefined ? undefined : (Array.isArray(raw) ? raw : [raw]).map(Number);
  return entries
    .filter((e) => (!query || `${e.user.username}\n${e.user.name}`.toLowerCase().includes(query)) && (!ids || ids.includes(e.user.id)))
    .sort((a, b) => a.user.id - b.user.id);
}

const ancestors = (m: ForgeModel, g: Group | undefined) => (g ? m.groupChain(g).map((x) => x.members) : []);

function one(ctx: Ctx, entries: Entry[]): Response {
  const id = Number(ctx.params.user_id);
  const found = entries.find((e) => e.user.id === id);
  if (!found) throw notFound('Member');
  return json(presentMember(ctx.model, found.user, found.level));
}

function projectMembers(ctx: Ctx, all: boolean): Entry[] {
  const p = loadProject(ctx);
  const group = p.namespace.kind === 'user' ? undefined : ctx.model.groups.get(p.namespace.id);
  return merge(ctx.model, [p.members, ...(all ? ancestors(ctx.model, group) : [])]);
}

function groupMembers(ctx: Ctx, all: boolean): Entry[] {
  const g = loadGroup(ctx);
  return merge(ctx.model, all ? ancestors(ctx.model, g) : [g.members]);
}

export const memberRoutes: Route[] = [
  route('GET', '/projects/:id/members', (ctx) =>
    listResponse(ctx, filtered(ctx, projectMembers(ctx, false)), (e) => presentMember(ctx.model, e.user, e.level)),
  ),
  route('GET', '/projects/:id/members/all', (ctx) =>
    listResponse(ctx, filtered(ctx, projectMembers(ctx, true)), (e) => presentMember(ctx.model, e.user, e.level)),
  ),
  route('GET', '/projects/:id/members/all/:user_id', (ctx) => one(ctx, projectMembers(ctx, true))),
  route('GET', '/groups/:id/members', (ctx) => listResponse(ctx, filtered(ctx, groupMembers(ctx, false)), (e) => presentMember(ctx.model, e.user, e.level))),
  route('GET', '/groups/:id/members/all', (ctx) => listResponse(ctx, filtered(ctx, groupMembers(ctx, true)), (e) => presentMember(ctx.model, e.user, e.level))),
];
