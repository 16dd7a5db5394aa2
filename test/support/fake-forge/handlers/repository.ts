// Repository tree and compare (GitLab lib/api/repositories.rb) and a commit with several file
// actions (lib/api/commits.rb, POST :id/repository/commits).
import { diffSnapshots, mergeBase, snapshotAt, treeEntries } from '../model-repository';
import { presentCommit, stats } from './present';
import { lastPipeline } from './commits';
import type { Ctx } from './http';
import { json, loadProject, notFound, paramError, route, type Route } from './http';
import { listResponse } from './paginate';
import { resolveRepoRef } from './repository-files';
import { writeCommit, type ActionKind, type WriteAction } from './repository-write';

const ACTIONS: readonly ActionKind[] = ['create', 'update', 'move', 'delete', 'chmod'];

/** Grape's nested-parameter checks of POST commits' `actions`, with its `actions[0][file_path]` names. */
function actionsParam(ctx: Ctx): WriteAction[] {
  const raw = ctx.input.raw('actions');
  if (raw === undefined || raw === null) throw paramError('actions is missing');
  if (!Array.isArray(raw)) throw paramError('actions is invalid');
  // Not verified against GitLab: an empty list is refused here as Grape refuses blank values.
  if (raw.length === 0) throw paramError('actions is empty');
  return raw.map((item, i) => {
    const name = (k: string) => `actions[${i}][${k}]`;
    if (typeof item !== 'object' || item === null) throw paramError(`actions[${i}] is invalid`);
    const a = item as Record<string, unknown>;
    const str = (k: string) => {
      const v = a[k];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string') throw paramError(`${name(k)} is invalid`);
      return v;
    };
    const action = str('action');
    if (action === undefined) throw paramError(`${name('action')} is missing`);
    if (!(ACTIONS as readonly string[]).includes(action)) throw paramError(`${name('action')} does not have a valid value`);
    const filePath = str('file_path');
    if (filePath === undefined) throw paramError(`${name('file_path')} is missing`);
    const previous = str('previous_path');
    if (action === 'move' && previous === undefined) throw paramError(`${name('previous_path')} is missing`);
    const content = str('content');
    if (action === 'update' && content === undefined) throw paramError(`${name('content')} is missing`);
    const encoding = str('encoding') ?? 'text';
    if (encoding !== 'text' && encoding !== 'base64') throw paramError(`${name('encoding')} does not have a valid value`);
    const mode = a.execute_filemode;
    if (mode !== undefined && typeof mode !== 'boolean') throw paramError(`${name('execute_filemode')} is invalid`);
    return {
      action: action as ActionKind,
      file_path: filePath,
      previous_path: previous,
      content,
      encoding,
      last_commit_id: str('last_commit_id'),
      execute_filemode: mode as boolean | undefined,
    };
  });
}

export const repositoryRoutes: Route[] = [
  route('GET', '/projects/:id/repository/tree', (ctx) => {
    const p = loadProject(ctx);
    const recursive = ctx.input.bool('recursive') ?? false;
    const pagination = ctx.input.oneOf('pagination', ['legacy', 'keyset', 'none'] as const) ?? 'legacy';
    if (pagination === 'none' && !recursive) throw paramError('pagination cannot be "none" unless "recursive" is true');
    const sha = resolveRepoRef(ctx.model, p, ctx.input.str('ref') ?? p.default_branch);
    if (!sha) throw notFound('Tree');
    const path = (ctx.input.str('path') ?? '').replace(/^\/+|\/+$/g, '');
    const entries = treeEntries(snapshotAt(ctx.model, p, sha), path, recursive);
    if (!entries) throw notFound('Tree');
    return listResponse(ctx, entries);
  }),

  route('GET', '/projects/:id/repository/compare', (ctx) => {
    const p = loadProject(ctx);
    const m = ctx.model;
    const fromRef = ctx.input.required('from');
    const toRef = ctx.input.required('to');
    const straight = ctx.input.bool('straight') ?? false;
    const from = resolveRepoRef(m, p, fromRef);
    const to = resolveRepoRef(m, p, toRef);
    if (!from || !to) throw notFound('Ref');
    // straight: from..to compares the two trees; otherwise from...to compares to with the merge base.
    const base = straight ? from : (mergeBase(m, p, from, to) ?? from);
    const excluded = m.reachable(p, [from]);
    const commits = m
      .log(p, [to])
      .filter((c) => !excluded.has(c.id))
      .reverse();
    const diffs = diffSnapshots(snapshotAt(m, p, base), snapshotAt(m, p, to));
    return json({
      commit: commits.length ? presentCommit(p, commits[commits.length - 1], { trailers: true }) : null,
      commits: commits.map((c) => presentCommit(p, c, { trailers: true })),
      diffs: diffs.map((d) => ({ ...d, collapsed: false, too_large: false, generated_file: false })),
      compare_timeout: false,
      compare_same_ref: from === to,
      web_url: `${p.web_url}/-/compare/${from}...${to}`,
    });
  }),

  route('POST', '/projects/:id/repository/commits', (ctx) => {
    const p = loadProject(ctx);
    const branch = ctx.input.required('branch', false);
    const message = ctx.input.required('commit_message');
    const actions = actionsParam(ctx);
    const startBranch = ctx.input.str('start_branch');
    const startSha = ctx.input.str('start_sha');
    if (startBranch !== undefined && startSha !== undefined) throw paramError('start_branch, start_sha are mutually exclusive');
    const withStats = ctx.input.bool('stats') ?? true;
    const c = writeCommit(ctx.model, p, ctx.user, {
      api: 'commits',
      branch,
      commitMessage: message,
      startBranch,
      startSha,
      authorName: ctx.input.str('author_name'),
      authorEmail: ctx.input.str('author_email'),
      actions,
    });
    const out: Record<string, unknown> = { ...presentCommit(p, c, { trailers: true }) };
    if (withStats) out.stats = stats(c);
    const pipeline = lastPipeline(ctx.model, p, c.id);
    return json({ ...out, status: pipeline?.status ?? null, project_id: p.id, last_pipeline: pipeline }, 201);
  }),
];
