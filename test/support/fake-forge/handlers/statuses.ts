// Commit statuses: list per commit, and create/update following GitLab's job state machine.
import type { CommitStatus } from '../model';
import { ACCESS, ApiError, badRequest, json, loadProject, notFound, requireLevel, route, type Route } from './http';
import { listResponse } from './paginate';
import { presentStatus } from './present';

const STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
type State = (typeof STATES)[number];
const FINAL = new Set(['success', 'failed', 'canceled', 'skipped']);
/** State → the state-machine event GitLab fires for it (named in transition errors). */
const EVENT: Record<State, string> = { pending: 'enqueue', running: 'run', success: 'success', failed: 'drop', canceled: 'cancel', skipped: 'skip' };
const ALLOWED: Record<string, readonly string[]> = {
  created: STATES,
  pending: ['running', 'success', 'failed', 'canceled', 'skipped'],
  running: ['success', 'failed', 'canceled'],
};

function transition(s: CommitStatus, to: State, now: string): void {
  if (!(ALLOWED[s.status] ?? []).includes(to)) {
    throw badRequest(`Cannot transition status via :${EVENT[to]} from :${s.status}`);
  }
  s.status = to;
  if (to === 'running') s.started_at = now;
  if (FINAL.has(to)) s.finished_at = now;
}

/**
 * lib/api/commit_statuses.rb declares no requirements for :sha, so Grape reads a dot as the start of
 * a format suffix: `v1.0` never reaches the endpoint (a plain 404), unlike the commit routes
 * (API::COMMIT_ENDPOINT_REQUIREMENTS).
 */
function routedSha(sha: string): string {
  if (sha.includes('.')) throw new ApiError(404, { error: '404 Not Found' });
  return sha;
}

export const statusRoutes: Route[] = [
  route('GET', '/projects/:id/repository/commits/:sha/statuses', (ctx) => {
    const p = loadProject(ctx);
    const given = routedSha(ctx.params.sha);
    if (!ctx.model.resolveRef(p, given)) throw notFound('Commit');
    // The commit must exist, but pipelines are matched on the value as given: a branch or tag name matches none.
    const sha = given.toLowerCase();
    const ref = ctx.input.str('ref');
    const stage = ctx.input.str('stage');
    const name = ctx.input.str('name');
    const pipelineId = ctx.input.int('pipeline_id');
    const orderBy = ctx.input.oneOf('order_by', ['id', 'pipeline_id'] as const) ?? 'id';
    const sort = ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'asc';
    const all = ctx.input.bool('all') ?? false;
    const list = p.statuses
      .filter(
        (s) =>
          s.sha === sha &&
          (all || !s.retried) &&
          (ref === undefined || s.ref === ref) &&
          (stage === undefined || s.stage === stage) &&
          (name === undefined || s.name === name) &&
          (pipelineId === undefined || s.pipeline_id === pipelineId),
      )
      .sort((a, b) => (sort === 'asc' ? 1 : -1) * (a[orderBy] - b[orderBy] || a.id - b.id));
    return listResponse(ctx, list, (s) => presentStatus(ctx.model, s));
  }),

  route('POST', '/projects/:id/statuses/:sha', (ctx) => {
    const p = loadProject(ctx);
    const m = ctx.model;
    routedSha(ctx.params.sha);
    const state = ctx.input.oneOf('state', STATES);
    if (state === undefined) throw new ApiError(400, { error: 'state is missing' });
    const refParam = ctx.input.str('ref');
    const name = ctx.input.str('name') || ctx.input.str('context') || 'default';
    const targetUrl = ctx.input.str('target_url');
    const description = ctx.input.str('description');
    const coverage = ctx.input.float('coverage');
    const pipelineParam = ctx.input.int('pipeline_id');
    requireLevel(ctx, p, ACCESS.developer);
    for (const [field, v] of [
      ['target_url', targetUrl],
      ['description', description],
      ['name', name],
    ] as const) {
      if (v && v.length > 255) throw badRequest({ [field]: ['is too long (maximum is 255 characters)'] });
    }
    const sha = m.resolveRef(p, ctx.params.sha);
    if (!sha) throw notFound('Commit');
    const ref = refParam || m.branchesContaining(p, sha)[0];
    if (!ref) throw notFound('References for commit');
    const pipelines = p.statuses.filter((s) => s.sha === sha && s.ref === ref).map((s) => s.pipeline_id);
    let pipelineId: number;
    if (pipelineParam !== undefined) {
      if (!pipelines.includes(pipelineParam)) throw notFound('Pipeline for pipeline_id, sha and ref');
      pipelineId = pipelineParam;
    } else {
      pipelineId = pipelines.length ? Math.max(...pipelines) : m.nextId.pipeline++;
    }
    const now = m.now();
    // Only the caller's own pending/running job with the same name and ref is updated
    // (CreateCommitStatusService's scope: running_or_pending, for_ref, by_name, for_user); final
    // ones, and other users' jobs, get a new job.
    let s = p.statuses.find(
      (x) =>
        x.sha === sha &&
        x.ref === ref &&
        x.name === name &&
        x.pipeline_id === pipelineId &&
        x.authorId === ctx.user.id &&
        (x.status === 'pending' || x.status === 'running'),
    );
    let created = false;
    if (!s) {
      created = true;
      s = {
        id: 0,
        sha,
        ref,
        status: 'created',
        name,
        stage: 'external',
        target_url: null,
        description: null,
        created_at: now,
        started_at: null,
        finished_at: null,
        allow_failure: false,
        coverage: null,
        authorId: ctx.user.id,
        pipeline_id: pipelineId,
        retried: false,
      };
    }
    transition(s, state, now);
    if (targetUrl !== undefined) s.target_url = targetUrl;
    if (description !== undefined) s.description = description;
    if (coverage !== undefined) s.coverage = coverage;
    if (created) {
      s.id = m.nextId.status++;
      for (const old of p.statuses) if (old.pipeline_id === pipelineId && old.name === name && old.ref === ref) old.retried = true;
      p.statuses.push(s);
    }
    return json(presentStatus(m, s), 201);
  }),
];
