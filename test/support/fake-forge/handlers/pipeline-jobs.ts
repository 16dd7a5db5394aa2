// Jobs (lib/api/ci/jobs.rb, lib/api/ci/pipelines.rb, doc/api/jobs.md): a pipeline's jobs, one job,
// its log (the whole trace as text/plain, no range support; an empty 200 when it has none), retry
// (403 "Job is not retryable" unless finished) and cancel (201 with the job unchanged when finished).
import { ciOf, CANCELABLE, STATUSES, type Job } from '../model-ci';
import { jobForceCancel } from '../edition';
import type { Project } from '../model';
import { ACCESS, ApiError, json, loadProject, notFound, paramError, requireLevel, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { latestJobs, loadPipeline } from './pipelines';
import { presentJob } from './present-ci';

/** Ci::Build#retryable?: finished, and not already retried. */
const RETRYABLE = new Set(['success', 'failed', 'canceled']);

function loadJob(ctx: Ctx, p: Project): Job {
  if (!/^\d+$/.test(ctx.params.job_id)) throw paramError('job_id is invalid');
  const job = ciOf(p).jobs.find((j) => j.id === Number(ctx.params.job_id));
  if (!job) throw notFound();
  return job;
}

function present(ctx: Ctx, p: Project, job: Job, status = 200) {
  const pl = ciOf(p).pipelines.find((x) => x.id === job.pipeline_id)!;
  return json(presentJob(ctx.model, p, job, pl), status);
}

/** `scope` takes one status or several (scope[]=…); any unknown value is refused. */
function scopeParam(ctx: Ctx): string[] | undefined {
  const raw = ctx.input.raw('scope');
  if (raw === undefined || raw === null) return undefined;
  const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
  if (values.some((v) => !(STATUSES as readonly string[]).includes(v))) throw paramError('scope does not have a valid value');
  return values;
}

export const pipelineJobRoutes: Route[] = [
  route('GET', '/projects/:id/pipelines/:pipeline_id/jobs', (ctx) => {
    const p = loadProject(ctx);
    const pl = loadPipeline(ctx, p);
    const scope = scopeParam(ctx);
    const withRetried = ctx.input.bool('include_retried') ?? false;
    const jobs = (withRetried ? ciOf(p).jobs.filter((j) => j.pipeline_id === pl.id) : latestJobs(p, pl))
      .filter((j) => scope === undefined || scope.includes(j.status))
      .sort((a, b) => a.id - b.id);
    return listResponse(ctx, jobs, (j) => presentJob(ctx.model, p, j, pl));
  }),

  route('GET', '/projects/:id/jobs/:job_id', (ctx) => {
    const p = loadProject(ctx);
    return present(ctx, p, loadJob(ctx, p));
  }),

  route('GET', '/projects/:id/jobs/:job_id/trace', (ctx) => {
    const p = loadProject(ctx);
    const job = loadJob(ctx, p);
    const headers: Record<string, string> = { 'content-type': 'text/plain', 'content-disposition': `infile; filename="${job.id}.log"` };
    const trace = job.trace;
    if (typeof trace === 'function') return new Response(trace(), { headers });
    return new Response(trace ?? '', { headers });
  }),

  route('POST', '/projects/:id/jobs/:job_id/retry', (ctx) => {
    const p = loadProject(ctx);
    const job = loadJob(ctx, p);
    requireLevel(ctx, p, ACCESS.developer);
    if (job.retried || !RETRYABLE.has(job.status)) throw new ApiError(403, { message: '403 Forbidden - Job is not retryable' });
    const now = ctx.model.now();
    job.retried = true;
    const fresh: Job = {
      ...job,
      id: ctx.model.nextId.status++,
      status: 'pending',
      retried: false,
      failure_reason: null,
      user_id: ctx.user.id,
      created_at: now,
      started_at: null,
      finished_at: null,
      trace: null,
    };
    ciOf(p).jobs.push(fresh);
    const pl = ciOf(p).pipelines.find((x) => x.id === job.pipeline_id)!;
    Object.assign(pl, { status: 'running', finished_at: null, updated_at: now });
    return present(ctx, p, fresh, 201);
  }),

  route('POST', '/projects/:id/jobs/:job_id/cancel', (ctx) => {
    const p = loadProject(ctx);
    const job = loadJob(ctx, p);
    const force = jobForceCancel(ctx.model) && (ctx.input.bool('force') ?? false);
    requireLevel(ctx, p, force ? ACCESS.maintainer : ACCESS.developer);
    // Build#cancel is a state-machine event: from a finished state it does nothing, and the job is returned as it is.
    if (CANCELABLE.has(job.status) || (force && job.status === 'canceling')) Object.assign(job, { status: 'canceled', finished_at: ctx.model.now() });
    return present(ctx, p, job, 201);
  }),
];
