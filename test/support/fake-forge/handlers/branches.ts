// Repository branches: list/search, get (+HEAD), create, delete.
import type { Ctx } from './http';
import { ACCESS, badRequest, forbidden, json, loadProject, notFound, paramError, requireLevel, route, type Route } from './http';
import { listResponse } from './paginate';
import { presentBranch } from './present';

/** git check-ref-format rules GitLab applies to branch names. */
export function validRefName(name: string): boolean {
  if (!name || name === 'HEAD' || name.startsWith('-') || name.startsWith('/') || name.startsWith('refs/')) return false;
  if (/[\s~^:?*[\\\x00-\x1f\x7f]/.test(name) || name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  return !name.split('/').some((part) => part.startsWith('.'));
}

/** GitLab's branch search: case-insensitive substring, `^` anchors start, `$` anchors end. */
export function searchMatch(search: string, name: string): boolean {
  let s = search.toLowerCase();
  const n = name.toLowerCase();
  const start = s.startsWith('^');
  const end = s.endsWith('$') && s.length > (start ? 1 : 0);
  if (start) s = s.slice(1);
  if (end) s = s.slice(0, -1);
  if (start && end) return n === s;
  if (start) return n.startsWith(s);
  if (end) return n.endsWith(s);
  return n.includes(s);
}

const DELETE_PROTECTED =
  'You are not allowed to delete protected branches from this project. ' + 'Only a project maintainer or owner can delete a protected branch.';

function getBranch(ctx: Ctx) {
  const p = loadProject(ctx);
  const name = ctx.params.branch;
  if (!validRefName(name)) throw badRequest('The branch refname is invalid');
  if (!p.branches.has(name)) throw notFound('Branch');
  return { p, name };
}

export const branchRoutes: Route[] = [
  route('GET', '/projects/:id/repository/branches', (ctx) => {
    const p = loadProject(ctx);
    const search = ctx.input.str('search');
    const regex = ctx.input.str('regex');
    if (search !== undefined && regex !== undefined) throw paramError('search, regex are mutually exclusive');
    const sort = ctx.input.oneOf('sort', ['name_asc', 'updated_asc', 'updated_desc'] as const) ?? 'name_asc';
    let re: RegExp | undefined;
    if (regex !== undefined) {
      try {
        re = new RegExp(regex);
      } catch {
        throw badRequest('Regex is invalid');
      }
    }
    const updated = (n: string) => Date.parse(p.commits.get(p.branches.get(n)!)!.committed_date);
    const names = [...p.branches.keys()]
      .filter((n) => (search ? searchMatch(search, n) : true) && (re ? re.test(n) : true))
      .sort((a, b) => (sort === 'name_asc' ? (a < b ? -1 : a > b ? 1 : 0) : (sort === 'updated_asc' ? 1 : -1) * (updated(a) - updated(b)) || (a < b ? -1 : 1)));
    const head = p.branches.get(p.default_branch);
    const reach = ctx.model.reachable(p, head ? [head] : []);
    return listResponse(ctx, names, (n) => presentBranch(ctx.model, p, ctx.user.id, n, reach));
  }),

  route('GET', '/projects/:id/repository/branches/:branch', (ctx) => {
    const { p, name } = getBranch(ctx);
    return json(presentBranch(ctx.model, p, ctx.user.id, name));
  }),

  // GitLab answers HEAD on a branch with 204 (exists) or 404.
  route('HEAD', '/projects/:id/repository/branches/:branch', (ctx) => {
    getBranch(ctx);
    return new Response(null, { status: 204 });
  }),

  route('POST', '/projects/:id/repository/branches', (ctx) => {
    const p = loadProject(ctx);
    const name = ctx.input.required('branch');
    const ref = ctx.input.required('ref');
    requireLevel(ctx, p, ACCESS.developer);
    const m = ctx.model;
    // Creating a branch that a protected rule covers needs push rights on it (or Maintainer).
    if (m.matchingRules(p, name).length && !m.canPush(p, ctx.user.id, name) && m.accessLevel(p, ctx.user.id) < ACCESS.maintainer) {
      throw forbidden();
    }
    if (!validRefName(name)) throw badRequest('Branch name is invalid');
    if (p.branches.has(name)) throw badRequest('Branch already exists');
    if (ref.trim() === '') throw badRequest('Ref is missing');
    const sha = m.resolveRef(p, ref);
    if (!sha) throw badRequest(`Invalid reference name: ${ref}`);
    p.branches.set(name, sha);
    return json(presentBranch(m, p, ctx.user.id, name), 201);
  }),

  route('DELETE', '/projects/:id/repository/branches/:branch', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    const name = ctx.params.branch;
    if (!validRefName(name)) throw badRequest('The branch refname is invalid');
    if (!p.branches.has(name)) throw notFound('Branch');
    // Current GitLab surfaces these git-hook refusals as 400 with the hook message.
    if (name === p.default_branch) throw badRequest('The default branch of a project cannot be deleted.');
    if (ctx.model.matchingRules(p, name).length) throw badRequest(DELETE_PROTECTED);
    p.branches.delete(name);
    return new Response(null, { status: 204 });
  }),
];
