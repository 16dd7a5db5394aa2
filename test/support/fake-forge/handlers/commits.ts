// Commits: list (log with filters), get one, diff; plus file blame.
import type { Commit, ForgeModel, Project } from '../model';
import type { Ctx } from './http';
import { badRequest, json, loadProject, notFound, paramError, route, type Route } from './http';
import { listResponse, uncountedListResponse } from './paginate';
import { compositeStatus, presentCommit } from './present';

function date(ctx: Ctx, name: string): number | undefined {
  const v = ctx.input.str(name);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw paramError(`${name} is invalid`);
  return t;
}

function resolveOr404(m: ForgeModel, p: Project, ref: string): string {
  const sha = m.resolveRef(p, ref);
  if (!sha) throw notFound('Commit');
  return sha;
}

/** Commits for ref_name: a ref, or a two-dot range `a..b` (in b, not in a). */
function logFor(ctx: Ctx, p: Project, firstParent: boolean): Commit[] {
  const m = ctx.model;
  if (ctx.input.bool('all')) {
    return m.log(p, [...p.branches.values(), ...p.tags.values()], firstParent);
  }
  const ref = ctx.input.str('ref_name') || p.default_branch;
  const range = /^(.+?)\.\.(.+)$/.exec(ref);
  if (range) {
    const exclude = new Set(m.log(p, [resolveOr404(m, p, range[1])]).map((c) => c.id));
    return m.log(p, [resolveOr404(m, p, range[2])], firstParent).filter((c) => !exclude.has(c.id));
  }
  return m.log(p, [resolveOr404(m, p, ref)], firstParent);
}

const touches = (c: Commit, path: string) =>
  c.diffs.some((d) => [d.old_path, d.new_path].some((f) => f === path || f.startsWith(path.endsWith('/') ? path : `${path}/`)));

export function lastPipeline(m: ForgeModel, p: Project, sha: string) {
  const mine = p.statuses.filter((s) => s.sha === sha);
  if (mine.length === 0) return null;
  const id = Math.max(...mine.map((s) => s.pipeline_id));
  const jobs = mine.filter((s) => s.pipeline_id === id && !s.retried);
  const first = mine.find((s) => s.pipeline_id === id)!;
  return {
    id,
    iid: id,
    project_id: p.id,
    sha,
    ref: first.ref,
    status: compositeStatus(jobs),
    source: 'external',
    created_at: first.created_at,
    updated_at: jobs
      .map((s) => s.finished_at ?? s.created_at)
      .sort()
      .pop(),
    web_url: `${p.web_url}/-/pipelines/${id}`,
  };
}

export const commitRoutes: Route[] = [
  route('GET', '/projects/:id/repository/commits', (ctx) => {
    const p = loadProject(ctx);
    const since = date(ctx, 'since');
    const until = date(ctx, 'until');
    const path = ctx.input.str('path');
    const author = ctx.input.str('author');
    const withStats = ctx.input.bool('with_stats') ?? false;
    const trailers = ctx.input.bool('trailers') ?? false;
    const firstParent = ctx.input.bool('first_parent') ?? false;
    // Seeded dates follow parent order, so date order and topo order coincide.
    ctx.input.oneOf('order', ['default', 'topo'] as const);
    const commits = logFor(ctx, p, firstParent).filter((c) => {
      const t = Date.parse(c.committed_date);
      if (since !== undefined && t < since) return false;
      if (until !== undefined && t > until) return false;
      if (path && !touches(c, path)) return false;
      // git log --author: match against "Name <email>", case-sensitive.
      if (author && !`${c.author_name} <${c.author_email}>`.includes(author)) return false;
      return true;
    });
    return uncountedListResponse(ctx, commits, (c) => presentCommit(p, c, { stats: withStats, trailers }));
  }),

  route('GET', '/projects/:id/repository/commits/:sha', (ctx) => {
    const p = loadProject(ctx);
    const withStats = ctx.input.bool('stats') ?? true;
    const c = p.commits.get(resolveOr404(ctx.model, p, ctx.params.sha))!;
    const pipeline = lastPipeline(ctx.model, p, c.id);
    return json({ ...presentCommit(p, c, { stats: withStats, trailers: true }), status: pipeline?.status ?? null, project_id: p.id, last_pipeline: pipeline });
  }),

  route('GET', '/projects/:id/repository/commits/:sha/diff', (ctx) => {
    const p = loadProject(ctx);
    const c = p.commits.get(resolveOr404(ctx.model, p, ctx.params.sha))!;
    // API::Entities::Diff, which exposes both flags on every file.
    return listResponse(ctx, c.diffs, (d) => ({ collapsed: false, too_large: false, ...d }));
  }),

  route('GET', '/projects/:id/repository/files/:file_path/blame', (ctx) => {
    const p = loadProject(ctx);
    const filePath = ctx.params.file_path;
    if (filePath.split('/').includes('..')) throw paramError('file_path should be a valid file path');
    const ref = ctx.input.required('ref', false);
    let range: { start: number; end: number } | undefined;
    if (ctx.input.raw('range') !== undefined) {
      const part = (k: 'start' | 'end') => {
        const v = ctx.input.int(`range.${k}`);
        if (v === undefined) throw paramError(`range[${k}] is missing`);
        if (v < 1) throw paramError(`range[${k}] does not have a valid value`);
        return v;
      };
      range = { start: part('start'), end: part('end') };
    }
    const m = ctx.model;
    const sha = resolveOr404(m, p, ref);
    const file = p.files.get(filePath);
    if (!file || !m.isAncestor(p, file.introducedBy, sha)) throw notFound('File');
    const total = file.blame.reduce((n, b) => n + b.lines.length, 0);
    if (range && range.start > range.end) throw badRequest('range[start] must be less than or equal to range[end]');
    if (range && range.end > total) throw badRequest('400 Bad request - range[end] is out of range');
    const from = range?.start ?? 1;
    const to = range?.end ?? total;
    const out: unknown[] = [];
    let line = 1;
    for (const b of file.blame) {
      const first = line;
      line += b.lines.length;
      const lo = Math.max(first, from);
      const hi = Math.min(line - 1, to);
      if (lo > hi) continue;
      const c = p.commits.get(b.commitId)!;
      out.push({
        commit: {
          id: c.id,
          message: c.message,
          parent_ids: [...c.parent_ids],
          authored_date: c.authored_date,
          author_name: c.author_name,
          author_email: c.author_email,
          committed_date: c.committed_date,
          committer_name: c.committer_name,
          committer_email: c.committer_email,
        },
        lines: b.lines.slice(lo - first, hi - first + 1),
      });
    }
    const last = file.blame.map((b) => p.commits.get(b.commitId)!).sort((a, b) => (a.committed_date < b.committed_date ? 1 : -1))[0];
    const size = file.blame.flatMap((b) => b.lines).join('\n').length + 1;
    return json(out, 200, {
      'x-gitlab-file-name': filePath.split('/').pop()!,
      'x-gitlab-file-path': filePath,
      'x-gitlab-ref': ref,
      'x-gitlab-commit-id': sha,
      'x-gitlab-last-commit-id': last.id,
      'x-gitlab-size': String(size),
      'x-gitlab-encoding': 'base64',
    });
  }),
];
