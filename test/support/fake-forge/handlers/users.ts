// GET /users and GET /users/:id (lib/api/users.rb, app/finders/users_finder.rb) as a signed-in
// non-admin sees them: username matches exactly (case-insensitive), search matches part of the
// username or name; blocked users and bots are listed with their state.
import { json, notFound, paramError, route, type Route } from './http';
import { listResponse } from './paginate';
import { presentUserBasic, presentUserDetails } from './present-discovery';

export const userRoutes: Route[] = [
  route('GET', '/users', (ctx) => {
    const { model: m, input } = ctx;
    const username = input.str('username')?.toLowerCase();
    const search = input.str('search')?.toLowerCase();
    const active = input.bool('active') === true;
    const blocked = input.bool('blocked') === true;
    const humans = input.bool('humans') === true || input.bool('without_project_bots') === true;
    const list = [...m.users.values()]
      .filter((u) => {
        const facts = m.discovery.users.get(u.id);
        if (username !== undefined && u.username.toLowerCase() !== username) return false;
        if (search !== undefined && !`${u.username}\n${u.name}`.toLowerCase().includes(search)) return false;
        if (active && (facts?.state ?? 'active') !== 'active') return false;
        if (blocked && facts?.state !== 'blocked') return false;
        if (humans && facts?.bot) return false;
        return true;
      })
      .sort((a, b) => b.id - a.id);
    return listResponse(ctx, list, (u) => presentUserBasic(m, u));
  }),

  route('GET', '/users/:user_id', (ctx) => {
    // `requires :id, type: Integer`.
    if (!/^\d+$/.test(ctx.params.user_id)) throw paramError('id is invalid');
    const u = ctx.model.users.get(Number(ctx.params.user_id));
    if (!u) throw notFound('User');
    return json(presentUserDetails(ctx.model, u));
  }),
];
