// Project and group wikis, as lib/api/wikis.rb answers them (lib/api/helpers/wikis_helpers.rb:
// a missing page is not_found!('Wiki Page')): list (WikiPageBasic, or WikiPage with_content; not
// paginated), get (a version on request), create, update (at_least_one_of content, title, format),
// delete (204). The slug is one path segment (NO_SLASH_URL_PART_REGEX): a slug with slashes comes
// %2F-encoded. Group wikis exist only in the Enterprise code (ee/lib/ee/api/helpers/wikis_helpers.rb
// adds :groups to wiki_resource_kinds), so on the Community Edition the route is unknown (404); the
// EE group policy takes read_wiki away without the group_wikis licence (Premium), so EE Free
// answers 403.
import { enterpriseCode, paidTier } from '../edition';
import { ACCESS } from '../model';
import { wikiSlug, wikiTitle, type WikiPage } from '../model-releases';
import { ApiError, badRequest, forbidden, json, loadProject, notFound, paramError, route, type Ctx, type Route } from './http';
import { groupParent } from './milestone-parent';

const FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const;

interface Wiki {
  pages: WikiPage[];
  level: number;
}

function projectWiki(ctx: Ctx): Wiki {
  const p = loadProject(ctx);
  return { pages: ctx.model.releases.wiki(`project:${p.id}`), level: ctx.model.accessLevel(p, ctx.user.id) };
}

function groupWiki(ctx: Ctx): Wiki {
  const parent = groupParent(ctx);
  // The group policy prevents read_wiki (and with it every wiki ability) without the licence.
  if (!paidTier(ctx.model)) throw forbidden();
  return { pages: ctx.model.releases.wiki(`group:${parent.group!.id}`), level: parent.level };
}

const latest = (page: WikiPage) => page.versions[0];

function basic(page: WikiPage) {
  const v = latest(page);
  return { format: v.format, slug: page.slug, title: v.title };
}

function full(page: WikiPage, version = latest(page)) {
  return { format: version.format, slug: page.slug, title: version.title, encoding: 'UTF-8', content: version.content, front_matter: {} };
}

function findPage(wiki: Wiki, slug: string): WikiPage {
  const page = wiki.pages.find((x) => x.slug === slug);
  if (!page) throw notFound('Wiki Page');
  return page;
}

function formatParam(ctx: Ctx): string {
  return ctx.input.oneOf('format', FORMATS) ?? 'markdown';
}

function requireWrite(wiki: Wiki): void {
  if (wiki.level < ACCESS.developer) throw forbidden();
}

function nextVersion(ctx: Ctx, title: string, format: string, content: string) {
  const n = ctx.model.releases.nextId.wikiVersion++;
  return { id: `${n.toString(16).padStart(8, '0')}${'a'.repeat(32)}`, title, format, content, authored_date: ctx.model.now() };
}

function routes(base: string, load: (ctx: Ctx) => Wiki): Route[] {
  return [
    route('GET', `${base}/wikis`, (ctx) => {
      const withContent = ctx.input.bool('with_content') ?? false;
      const wiki = load(ctx);
      const pages = [...wiki.pages].sort((a, b) => a.slug.localeCompare(b.slug));
      return json(pages.map((page) => (withContent ? full(page) : basic(page))));
    }),

    route('GET', `${base}/wikis/:slug`, (ctx) => {
      const version = ctx.input.str('version');
      ctx.input.bool('render_html');
      const page = findPage(load(ctx), ctx.params.slug);
      if (version === undefined) return json(full(page));
      const found = page.versions.find((v) => v.id === version);
      if (!found) throw notFound('Wiki Page');
      return json(full(page, found));
    }),

    route('POST', `${base}/wikis`, (ctx) => {
      const title = ctx.input.required('title');
      const content = ctx.input.required('content');
      const format = formatParam(ctx);
      const wiki = load(ctx);
      requireWrite(wiki);
      if (title.trim() === '') throw new ApiError(400, { message: { title: ["can't be blank"] } });
      const slug = wikiSlug(title);
      if (wiki.pages.some((x) => x.slug.toLowerCase() === slug.toLowerCase())) {
        throw badRequest('Duplicate page: A page with that title already exists');
      }
      const page: WikiPage = { slug, versions: [nextVersion(ctx, wikiTitle(slug), format, content)] };
      wiki.pages.push(page);
      return json(full(page), 201);
    }),

    route('PUT', `${base}/wikis/:slug`, (ctx) => {
      const title = ctx.input.str('title');
      const content = ctx.input.str('content');
      const format = ctx.input.oneOf('format', FORMATS);
      if (title === undefined && content === undefined && format === undefined) {
        throw paramError('content, title, format are missing, at least one parameter must be provided');
      }
      const wiki = load(ctx);
      requireWrite(wiki);
      const page = findPage(wiki, ctx.params.slug);
      const now = latest(page);
      if (title !== undefined && title.trim() !== '') {
        const slug = wikiSlug(title);
        if (slug !== page.slug && wiki.pages.some((x) => x.slug.toLowerCase() === slug.toLowerCase())) {
          throw badRequest('Duplicate page: A page with that title already exists');
        }
        page.slug = slug;
      }
      page.versions.unshift(nextVersion(ctx, wikiTitle(page.slug), format ?? now.format, content ?? now.content));
      return json(full(page));
    }),

    route('DELETE', `${base}/wikis/:slug`, (ctx) => {
      const wiki = load(ctx);
      const page = findPage(wiki, ctx.params.slug);
      requireWrite(wiki);
      wiki.pages.splice(wiki.pages.indexOf(page), 1);
      return new Response(null, { status: 204 });
    }),
  ];
}

const projectRoutes = routes('/projects/:id', projectWiki);
const groupRoutes = routes('/groups/:id', groupWiki);

/** The group routes answer only where the Enterprise code runs; elsewhere the router finds no route (404). */
export const wikiRoutes: Route[] = [
  ...projectRoutes,
  ...groupRoutes.map((r) => ({ ...r, handler: (ctx: Ctx) => (enterpriseCode(ctx.model) ? r.handler(ctx) : json({ error: '404 Not Found' }, 404)) })),
];
