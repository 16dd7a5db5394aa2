// GET /search, /groups/:id/search and /projects/:id/search (lib/api/search.rb,
// lib/api/helpers/search_helpers.rb; EE: ee/lib/ee/api/helpers/search_helpers.rb and
// ee/lib/ee/api/search.rb). Which scopes answer where:
// - the Community Edition declares, globally, projects, issues, merge_requests, milestones,
//   snippet_titles and users; in a group the same but snippet_titles; in a project issues,
//   merge_requests, milestones, notes, wiki_blobs, commits, blobs and users. Any other scope is
//   Grape's 400 "scope does not have a valid value".
// - EE adds wiki_blobs, blobs, commits and notes to the global and group scopes, and answers them
//   only with advanced search (or, for blobs, exact code search): without it, 400
//   {"message":{"error":"Scope supported only with advanced search or exact code search"}} for
//   blobs and "…only with advanced search" for the others. A project's own search of code, commits,
//   comments and wiki needs neither (basic search reads the repository).
import { enterpriseCode } from '../edition';
import type { ForgeModel, Project } from '../model';
import { blobBytes, snapshotAt } from '../model-repository';
import { badRequest, loadProject, paramError, route, type Ctx, type Route } from './http';
import { canReadIssue } from './issue-access';
import { listResponse } from './paginate';
import { presentIssue, presentNote } from './present-issues';
import { presentMergeRequestBasic, presentMilestone } from './present-milestones';
import { presentCommit } from './present';
import { canRead, effectiveLevel, presentProjectDetails, presentUserBasic } from './present-discovery';
import { groupAndDescendants, loadGroup } from './discovery-projects';

type Level = 'global' | 'group' | 'project';

const CE_SCOPES: Record<Level, string[]> = {
  global: ['projects', 'issues', 'merge_requests', 'milestones', 'snippet_titles', 'users'],
  group: ['projects', 'issues', 'merge_requests', 'milestones', 'users'],
  project: ['issues', 'merge_requests', 'milestones', 'notes', 'wiki_blobs', 'commits', 'blobs', 'users'],
};
const EE_EXTRA = ['wiki_blobs', 'blobs', 'commits', 'notes'];
const ADVANCED_ONLY = ['wiki_blobs', 'commits', 'notes'];

export function searchScopes(m: ForgeModel, level: Level): string[] {
  // EE code declares the extra scopes whether or not it is licensed (ee/lib/ee/api/search.rb).
  if (level === 'project' || !enterpriseCode(m)) return CE_SCOPES[level];
  return [...CE_SCOPES[level], ...EE_EXTRA, ...(level === 'group' ? ['epics'] : [])];
}

/** Lines of context GitLab's basic code search shows around a match (the fake's choice: 2 before, 2 after). */
const CONTEXT = 2;

function blobHits(m: ForgeModel, p: Project, ref: string, needle: string) {
  const sha = m.resolveRef(p, ref);
  if (!sha) return [];
  const hits: Record<string, unknown>[] = [];
  for (const [path, blob] of [...snapshotAt(m, p, sha)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (blob.size > 1_000_000) continue;
    const text = new TextDecoder().decode(blobBytes(blob));
    if (text.includes('\0')) continue;
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const matches = lines.flatMap((line, i) => (line.toLowerCase().includes(needle) ? [i] : []));
    let k = 0;
    while (k < matches.length) {
      const start = Math.max(0, matches[k] - CONTEXT);
      let end = Math.min(lines.length - 1, matches[k] + CONTEXT);
      while (k + 1 < matches.length && matches[k + 1] - CONTEXT <= end + 1) end = Math.min(lines.length - 1, matches[++k] + CONTEXT);
      k++;
      hits.push({
        basename: path.replace(/\.[^./]*$/, ''),
        data: `${lines.slice(start, end + 1).join('\n')}\n`,
        path,
        filename: path,
        id: null,
        ref,
        startline: start + 1,
        project_id: p.id,
      });
    }
  }
  return hits;
}

function hits(ctx: Ctx, level: Level, scope: string, projects: Project[]): unknown[] {
  const { model: m, user, input } = ctx;
  const needle = input.required('search').toLowerCase();
  const state = input.oneOf('state', ['all', 'opened', 'closed', 'merged'] as const);
  const confidential = input.bool('confidential');
  const sort = input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
  input.oneOf('order_by', ['created_at'] as const);
  const byCreated = <T extends { created_at: string; id: number }>(list: T[]) =>
    list.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id) * (sort === 'asc' ? 1 : -1));
  const has = (...texts: (string | null | undefined)[]) => texts.some((t) => (t ?? '').toLowerCase().includes(needle));
  const ref = (p: Project) => (level === 'project' ? input.str('ref') : undefined) ?? p.default_branch;
  switch (scope) {
    case 'projects':
      return projects.filter((p) => has(p.name, p.path, m.discovery.projects.get(p.id)?.description)).map((p) => presentProjectDetails(m, p));
    case 'issues':
      return byCreated(
        projects.flatMap((p) =>
          [...p.issues.values()].filter(
            (i) =>
              canReadIssue(m, p, i, user.id) &&
              has(i.title, i.description) &&
              (!state || state === 'all' || i.state === state) &&
              (confidential === undefined || i.confidential === confidential),
          ),
        ),
      ).map((i) => presentIssue(m, i));
    case 'merge_requests':
      return byCreated(
        projects.flatMap((p) => p.mergeRequests.filter((mr) => has(mr.title, mr.description) && (!state || state === 'all' || mr.state === state))),
      ).map((mr) => presentMergeRequestBasic(m, mr));
    case 'milestones':
      return projects.flatMap((p) => p.milestones.filter((ms) => has(ms.title, ms.description))).map((ms) => presentMilestone(m, ms));
    case 'users': {
      const members = level === 'global' ? undefined : new Set([...m.users.keys()].filter((id) => projects.some((p) => effectiveLevel(m, p, id) > 0)));
      return [...m.users.values()].filter((u) => (!members || members.has(u.id)) && has(u.username, u.name)).map((u) => presentUserBasic(m, u));
    }
    case 'blobs':
      return projects.flatMap((p) => blobHits(m, p, ref(p), needle));
    case 'commits':
      return projects.flatMap((p) => {
        const sha = m.resolveRef(p, ref(p));
        return sha
          ? m
              .log(p, [sha])
              .filter((c) => has(c.message))
              .map((c) => ({ ...presentCommit(p, c), project_id: p.id }))
          : [];
      });
    case 'notes':
      return projects.flatMap((p) =>
        [...p.issues.values()]
          .filter((i) => canReadIssue(m, p, i, user.id))
          .flatMap((i) => m.tracker.notesOf(p.id, 'Issue', i.iid))
          .filter((n) => !n.system && has(n.body))
          .map((n) => presentNote(m, n)),
      );
    default:
      // snippet_titles, wiki_blobs and epics: the fake holds no snippets, wikis or epics.
      return [];
  }
}

function search(ctx: Ctx, level: Level, projects: Project[]): Response {
  const m = ctx.model;
  const scope = ctx.input.required('scope');
  ctx.input.required('search');
  if (!searchScopes(m, level).includes(scope)) throw paramError('scope does not have a valid value');
  if (level !== 'project' && EE_EXTRA.includes(scope) && !m.discovery.hasAdvancedSearch(m.edition)) {
    throw badRequest({
      error: ADVANCED_ONLY.includes(scope) ? 'Scope supported only with advanced search' : 'Scope supported only with advanced search or exact code search',
    });
  }
  return listResponse(ctx, hits(ctx, level, scope, projects));
}

const readable = (ctx: Ctx) => [...ctx.model.projects.values()].filter((p) => canRead(ctx.model, p, ctx.user.id));

export const searchRoutes: Route[] = [
  route('GET', '/search', (ctx) => search(ctx, 'global', readable(ctx))),
  route('GET', '/groups/:id/search', (ctx) => {
    const g = loadGroup(ctx);
    const ids = groupAndDescendants(ctx.model, g);
    return search(
      ctx,
      'group',
      readable(ctx).filter((p) => p.namespace.kind !== 'user' && ids.has(p.namespace.id)),
    );
  }),
  route('GET', '/projects/:id/search', (ctx) => search(ctx, 'project', [loadProject(ctx)])),
];
