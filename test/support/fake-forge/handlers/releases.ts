// Releases and their asset links as lib/api/releases.rb and lib/api/release/links.rb answer them.
// Create (Releases::CreateService): 409 "Release already exists", a missing tag without ref 422
// "Ref is not specified", the tag made by Tags::CreateService (its 400 messages, the protected tag's
// among them), milestones by title (400 "Milestone(s) not found: …"), links validated like
// Releases::Link (http, https or ftp URLs; names and URLs unique within the release). Update
// (Releases::UpdateService): 404 "Release does not exist" when there is none. Delete: Maintainer,
// 200 with the release. The entity is Entities::Release (author, commit, milestones with
// issue_stats, assets with sources and links, evidences, _links).
import { ACCESS, type Project } from '../model';
import type { Release, ReleaseLink } from '../model-releases';
import { presentMilestone } from './present-milestones';
import { ApiError, badRequest, json, loadProject, notFound, paramError, requireLevel, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { presentCommit, presentUser } from './present';
import { createTag } from './tags';

const LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const;

function presentLink(p: Project, r: Release, l: ReleaseLink) {
  const direct = l.filepath ? `${p.web_url}/-/releases/${encodeURIComponent(r.tag)}/downloads${l.filepath}` : l.url;
  return { id: l.id, name: l.name, url: l.url, direct_asset_url: direct, link_type: l.link_type };
}

function presentRelease(ctx: Ctx, p: Project, r: Release) {
  const m = ctx.model;
  const sha = p.tags.get(r.tag);
  const commit = sha ? p.commits.get(sha) : undefined;
  const author = m.users.get(r.author_id);
  const tagUrl = encodeURIComponent(r.tag);
  const milestones = r.milestone_ids
    .map((id) => p.milestones.find((x) => x.id === id))
    .filter((x) => x !== undefined)
    .map((x) => {
      const issues = [...p.issues.values()].filter((i) => i.milestone_id === x.id);
      return { ...presentMilestone(m, x), issue_stats: { total: issues.length, closed: issues.filter((i) => i.state === 'closed').length } };
    });
  const archive = (format: string) => ({ format, url: `${p.web_url}/-/archive/${tagUrl}/${p.path}-${tagUrl}.${format}` });
  const base = `${p.web_url}/-/releases/${tagUrl}`;
  const issues = `${p.web_url}/-/issues?release_tag=${tagUrl}&scope=all`;
  const mrs = `${p.web_url}/-/merge_requests?release_tag=${tagUrl}&scope=all`;
  return {
    name: r.name,
    tag_name: r.tag,
    description: r.description,
    created_at: r.created_at,
    released_at: r.released_at,
    upcoming_release: Date.parse(r.released_at) > Date.parse(m.now()),
    historical_release: Date.parse(r.released_at) < Date.parse(r.created_at),
    author: author ? presentUser(m, author) : null,
    commit: commit ? presentCommit(p, commit) : null,
    milestones,
    commit_path: sha ? `/${p.path_with_namespace}/-/commit/${sha}` : null,
    tag_path: `/${p.path_with_namespace}/-/tags/${tagUrl}`,
    assets: {
      count: 4 + r.links.length,
      sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map(archive),
      links: r.links.map((l) => presentLink(p, r, l)),
    },
    evidences: [{ sha: `${(sha ?? '0'.repeat(40)).slice(0, 40)}`, filepath: `${base}/evidences/1.json`, collected_at: r.created_at }],
    _links: {
      closed_issues_url: `${issues}&state=closed`,
      closed_merge_requests_url: `${mrs}&state=closed`,
      edit_url: `${base}/edit`,
      merged_merge_requests_url: `${mrs}&state=merged`,
      opened_issues_url: `${issues}&state=opened`,
      opened_merge_requests_url: `${mrs}&state=opened`,
      self: base,
    },
  };
}

function findRelease(ctx: Ctx, p: Project): Release {
  const found = ctx.model.releases.of(p.id).releases.find((r) => r.tag === ctx.params.tag_name);
  if (!found) throw notFound();
  return found;
}

function readProject(ctx: Ctx): Project {
  const p = loadProject(ctx);
  // read_release: Guests read a private project's releases (without the tag's commit, modelled as whole).
  requireLevel(ctx, p, p.visibility === 'private' ? ACCESS.guest : ACCESS.none);
  return p;
}

/** Milestones by title; each must be a milestone of the project (group ones need Premium and are not modelled). */
function milestoneIds(ctx: Ctx, p: Project): number[] | undefined {
  const raw = ctx.input.raw('milestones');
  if (raw === undefined || raw === null) return undefined;
  const titles = Array.isArray(raw) ? raw.map(String) : String(raw).split(',').filter(Boolean);
  const missing = titles.filter((t) => !p.milestones.some((x) => x.title === t));
  if (missing.length) throw badRequest(`Milestone(s) not found: ${missing.join(', ')}`);
  return titles.map((t) => p.milestones.find((x) => x.title === t)!.id);
}

type LinkInput = { name?: unknown; url?: unknown; direct_asset_path?: unknown; filepath?: unknown; link_type?: unknown };

/** Releases::Link's validations, with ActiveRecord's messages. */
function newLink(ctx: Ctx, existing: ReleaseLink[], input: LinkInput, label: (field: string) => string = (f) => f): ReleaseLink {
  const name = typeof input.name === 'string' ? input.name : undefined;
  const url = typeof input.url === 'string' ? input.url : undefined;
  if (name === undefined) throw paramError(`${label('name')} is missing`);
  if (url === undefined) throw paramError(`${label('url')} is missing`);
  const linkType = input.link_type === undefined ? 'other' : String(input.link_type);
  if (!(LINK_TYPES as readonly string[]).includes(linkType)) throw paramError(`${label('link_type')} does not have a valid value`);
  const rawPath = input.direct_asset_path ?? input.filepath;
  const filepath = typeof rawPath === 'string' && rawPath !== '' ? (rawPath.startsWith('/') ? rawPath : `/${rawPath}`) : null;
  const errors: Record<string, string[]> = {};
  if (!/^(https?|ftp):\/\/[^\s/]+/i.test(url)) errors.url = ['is blocked: Only allowed schemes are http, https, ftp'];
  if (existing.some((l) => l.url === url)) (errors.url ??= []).push('has already been taken');
  if (existing.some((l) => l.name === name)) errors.name = ['has already been taken'];
  if (filepath && !/^\/[\w\-./+]*$/.test(filepath)) errors.filepath = ['is in an invalid format'];
  if (Object.keys(errors).length) throw new ApiError(400, { message: errors });
  return { id: ctx.model.releases.nextId.link++, name, url, filepath, link_type: linkType as ReleaseLink['link_type'] };
}

function dateParam(ctx: Ctx, name: string): string | undefined {
  const v = ctx.input.str(name);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw paramError(`${name} is invalid`);
  return new Date(t).toISOString();
}

export const releaseRoutes: Route[] = [
  route('GET', '/projects/:id/releases', (ctx) => {
    const orderBy = ctx.input.oneOf('order_by', ['released_at', 'created_at'] as const) ?? 'released_at';
    const sort = ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
    ctx.input.bool('include_html_description');
    const p = readProject(ctx);
    const items = [...ctx.model.releases.of(p.id).releases].sort((a, b) => {
      const order = Date.parse(a[orderBy]) - Date.parse(b[orderBy]);
      return sort === 'asc' ? order : -order;
    });
    return listResponse(ctx, items, (r) => presentRelease(ctx, p, r));
  }),

  route('GET', '/projects/:id/releases/:tag_name', (ctx) => {
    ctx.input.bool('include_html_description');
    const p = readProject(ctx);
    return json(presentRelease(ctx, p, findRelease(ctx, p)));
  }),

  route('POST', '/projects/:id/releases', (ctx) => {
    const tag = ctx.input.required('tag_name');
    if (ctx.input.has('milestones') && ctx.input.has('milestone_ids')) throw paramError('Cannot specify milestones and milestone_ids at the same time');
    const releasedAt = dateParam(ctx, 'released_at');
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    const data = ctx.model.releases.of(p.id);
    if (data.releases.some((r) => r.tag === tag)) throw new ApiError(409, { message: 'Release already exists' });
    const milestones = milestoneIds(ctx, p) ?? [];
    const links: ReleaseLink[] = [];
    const rawLinks = ctx.input.raw('assets.links');
    if (rawLinks !== undefined && !Array.isArray(rawLinks)) throw paramError('assets[links] is invalid');
    ((rawLinks as LinkInput[] | undefined) ?? []).forEach((input, i) => links.push(newLink(ctx, links, input ?? {}, (f) => `assets[links][${i}][${f}]`)));
    if (!p.tags.has(tag)) {
      const ref = ctx.input.str('ref');
      if (!ref) throw new ApiError(422, { message: 'Ref is not specified' });
      createTag(ctx, p, tag, ref, ctx.input.str('tag_message'));
    }
    const now = ctx.model.now();
    const release: Release = {
      tag,
      name: ctx.input.str('name') || tag,
      description: ctx.input.str('description') ?? '',
      author_id: ctx.user.id,
      created_at: now,
      released_at: releasedAt ?? now,
      milestone_ids: milestones,
      links,
    };
    data.releases.push(release);
    return json(presentRelease(ctx, p, release), 201);
  }),

  route('PUT', '/projects/:id/releases/:tag_name', (ctx) => {
    if (ctx.input.has('milestones') && ctx.input.has('milestone_ids')) throw paramError('Cannot specify milestones and milestone_ids at the same time');
    const releasedAt = dateParam(ctx, 'released_at');
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    const release = ctx.model.releases.of(p.id).releases.find((r) => r.tag === ctx.params.tag_name);
    if (!release) throw new ApiError(404, { message: 'Release does not exist' });
    const milestones = milestoneIds(ctx, p);
    const name = ctx.input.str('name');
    const description = ctx.input.str('description');
    if (name !== undefined) release.name = name;
    if (description !== undefined) release.description = description;
    if (releasedAt !== undefined) release.released_at = releasedAt;
    if (milestones !== undefined) release.milestone_ids = milestones;
    return json(presentRelease(ctx, p, release));
  }),

  route('DELETE', '/projects/:id/releases/:tag_name', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.maintainer);
    const data = ctx.model.releases.of(p.id);
    const release = findRelease(ctx, p);
    const body = presentRelease(ctx, p, release);
    data.releases.splice(data.releases.indexOf(release), 1);
    return json(body);
  }),

  route('GET', '/projects/:id/releases/:tag_name/assets/links', (ctx) => {
    const p = readProject(ctx);
    const release = findRelease(ctx, p);
    return listResponse(ctx, release.links, (l) => presentLink(p, release, l));
  }),

  route('POST', '/projects/:id/releases/:tag_name/assets/links', (ctx) => {
    const input: LinkInput = {
      name: ctx.input.str('name'),
      url: ctx.input.str('url'),
      direct_asset_path: ctx.input.str('direct_asset_path'),
      filepath: ctx.input.str('filepath'),
      link_type: ctx.input.str('link_type'),
    };
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    const release = findRelease(ctx, p);
    const link = newLink(ctx, release.links, input);
    release.links.push(link);
    return json(presentLink(p, release, link), 201);
  }),

  route('DELETE', '/projects/:id/releases/:tag_name/assets/links/:link_id', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    const release = findRelease(ctx, p);
    const link = release.links.find((l) => String(l.id) === ctx.params.link_id);
    if (!link) throw notFound();
    release.links.splice(release.links.indexOf(link), 1);
    return json(presentLink(p, release, link));
  }),
];
