// Repository tags as lib/api/tags.rb answers them: list (order_by name|updated|version, sort,
// search with ^ and $ anchors), get (not_found!('Tag')), create (authorize_admin_tag, then
// Tags::CreateService's messages, 400; a protected tag the caller may not create is refused by the
// pre-receive check with GitLab's own sentence), delete (authorize!(:delete_tag, tag): a protected
// tag only by a Maintainer, 403 otherwise; 204). The entity is Entities::Tag: name, message,
// target, commit, release, protected, created_at.
import { ACCESS, type Project, wildcardMatch } from '../model';
import type { ProtectedTag } from '../model-releases';
import { badRequest, forbidden, json, loadProject, notFound, requireLevel, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { presentCommit } from './present';

export function protectionOf(ctx: Ctx, p: Project, name: string): ProtectedTag | undefined {
  return ctx.model.releases.of(p.id).protectedTags.find((rule) => wildcardMatch(rule.name, name));
}

export function presentTag(ctx: Ctx, p: Project, name: string) {
  const sha = p.tags.get(name)!;
  const info = ctx.model.releases.of(p.id).tagInfo.get(name);
  const commit = p.commits.get(sha);
  const release = ctx.model.releases.of(p.id).releases.find((r) => r.tag === name);
  return {
    name,
    message: info?.message ?? '',
    target: info?.objectSha ?? sha,
    commit: commit ? presentCommit(p, commit) : null,
    release: release ? { tag_name: release.tag, description: release.description } : null,
    protected: protectionOf(ctx, p, name) !== undefined,
    created_at: info?.created_at ?? null,
  };
}

/** Git's check-ref-format, the parts a tag name trips on most. */
export function validTagName(name: string): boolean {
  return name !== '' && !/[\s~^:?*[\\\x00-\x1f\x7f]|\.\.|@\{|\/\/|^[/.-]|[/.]$|\.lock$|^@$/.test(name) && !name.split('/').some((part) => part.startsWith('.'));
}

/** Tags::CreateService: the messages it answers with (app/services/tags/create_service.rb). */
export function createTag(ctx: Ctx, p: Project, name: string, ref: string, message: string | undefined): void {
  if (!validTagName(name)) throw badRequest('Tag name invalid');
  const sha = ctx.model.resolveRef(p, ref);
  if (!sha) throw badRequest(`Target ${ref} is invalid`);
  if (p.tags.has(name)) throw badRequest(`Tag ${name} already exists`);
  const rule = protectionOf(ctx, p, name);
  if (rule && ctx.model.accessLevel(p, ctx.user.id) < rule.create_access_level) {
    throw badRequest('You are not allowed to create this tag as it is protected.');
  }
  p.tags.set(name, sha);
  if (message !== undefined && message !== '') {
    ctx.model.releases.of(p.id).tagInfo.set(name, { message, objectSha: `${sha.slice(0, 32)}7a9c0b1e`, created_at: ctx.model.now() });
  }
}

function search(names: string[], term: string | undefined): string[] {
  if (!term) return names;
  const start = term.startsWith('^');
  const end = term.endsWith('$');
  const core = term.slice(start ? 1 : 0, end ? -1 : undefined);
  return names.filter((n) => (start && end ? n === core : start ? n.startsWith(core) : end ? n.endsWith(core) : n.includes(core)));
}

/** Version order: numeric parts compared as numbers (TagsFinder's version sort). */
function versionCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

export const tagRoutes: Route[] = [
  route('GET', '/projects/:id/repository/tags', (ctx) => {
    const sort = ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
    const orderBy = ctx.input.oneOf('order_by', ['name', 'updated', 'version'] as const) ?? 'updated';
    const term = ctx.input.str('search');
    const p = loadProject(ctx);
    requireLevel(ctx, p, p.visibility === 'private' ? ACCESS.reporter : ACCESS.none);
    const when = (name: string) => p.commits.get(p.tags.get(name)!)?.committed_date ?? '';
    const names = search([...p.tags.keys()], term).sort((a, b) => {
      const order =
        orderBy === 'name'
          ? a.localeCompare(b)
          : orderBy === 'version'
            ? versionCompare(a, b)
            : Date.parse(when(a)) - Date.parse(when(b)) || a.localeCompare(b);
      return sort === 'asc' ? order : -order;
    });
    return listResponse(ctx, names, (name) => presentTag(ctx, p, name));
  }),

  route('GET', '/projects/:id/repository/tags/:tag_name', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, p.visibility === 'private' ? ACCESS.reporter : ACCESS.none);
    if (!p.tags.has(ctx.params.tag_name)) throw notFound('Tag');
    return json(presentTag(ctx, p, ctx.params.tag_name));
  }),

  route('POST', '/projects/:id/repository/tags', (ctx) => {
    const name = ctx.input.required('tag_name');
    const ref = ctx.input.required('ref');
    const message = ctx.input.str('message');
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    createTag(ctx, p, name, ref, message);
    return json(presentTag(ctx, p, name), 201);
  }),

  route('DELETE', '/projects/:id/repository/tags/:tag_name', (ctx) => {
    const p = loadProject(ctx);
    const name = ctx.params.tag_name;
    if (!p.tags.has(name)) throw notFound('Tag');
    const level = ctx.model.accessLevel(p, ctx.user.id);
    // ProtectedRefAccess: a protected tag is deleted by Maintainers only (app/policies/protected_ref_policy.rb).
    if (level < ACCESS.developer || (protectionOf(ctx, p, name) && level < ACCESS.maintainer)) throw forbidden();
    p.tags.delete(name);
    ctx.model.releases.of(p.id).tagInfo.delete(name);
    return new Response(null, { status: 204 });
  }),
];
