// Pipelines (lib/api/ci/pipelines.rb, doc/api/pipelines.md): list with GitLab's filters, get,
// create for a branch or tag with variables and inputs, retry (failed and canceled jobs), cancel (200 whatever
// the state, the pipeline unchanged when nothing could be canceled), and a merge request's pipelines.
import { pipelineCreatedFilters, pipelineInputs, pipelineNameFilter } from '../edition';
import { ciOf, CANCELABLE, STATUSES, type Job, type Pipeline } from '../model-ci';
import type { Project } from '../model';
import { ACCESS, ApiError, json, loadProject, notFound, paramError, requireLevel, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { resolveInputs } from './pipeline-inputs';
import { presentPipeline, presentPipelineBasic } from './present-ci';

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped']);
const SOURCES = [
  'unknown',
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'webide',
  'merge_request_event',
  'external_pull_request_event',
  'parent_pipeline',
  'ondemand_dast_scan',
  'ondemand_dast_validation',
  'security_orchestration_policy',
  'container_registry_push',
  'duo_workflow',
  'pipeline_execution_policy_schedule',
] as const;

/** `:pipeline_id` is an Integer param: anything else is Grape's 400; an unknown id is ActiveRecord's 404. */
export function loadPipeline(ctx: Ctx, p: Project): Pipeline {
  if (!/^\d+$/.test(ctx.params.pipeline_id)) throw paramError('pipeline_id is invalid');
  const found = ciOf(p).pipelines.find((pl) => pl.id === Number(ctx.params.pipeline_id));
  if (!found) throw notFound();
  return found;
}

/** The jobs of a pipeline that are not superseded by a retry. */
export const latestJobs = (p: Project, pl: Pipeline): Job[] => ciOf(p).jobs.filter((j) => j.pipeline_id === pl.id && !j.retried);

function dateParam(ctx: Ctx, name: string): number | undefined {
  const v = ctx.input.str(name);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw paramError(`${name} is invalid`);
  return t;
}

/** GitLab's UpdatedAtFilter and CreatedAtFilter (the scopes of UpdatedAtFilterable, CreatedAtFilterable): both ends included. */
function within(at: string, range: { after?: number; before?: number }): boolean {
  const t = Date.parse(at);
  return (range.after === undefined || t >= range.after) && (range.before === undefined || t <= range.before);
}

export const pipelineRoutes: Route[] = [
  route('GET', '/projects/:id/pipelines', (ctx) => {
    const p = loadProject(ctx);
    const m = ctx.model;
    const scope = ctx.input.oneOf('scope', ['running', 'pending', 'finished', 'branches', 'tags'] as const);
    const status = ctx.input.oneOf('status', STATUSES);
    const source = ctx.input.oneOf('source', SOURCES);
    const orderBy = ctx.input.oneOf('order_by', ['id', 'status', 'ref', 'updated_at', 'user_id'] as const) ?? 'id';
    const sort = ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
    const ref = ctx.input.str('ref');
    const sha = ctx.input.str('sha');
    const username = ctx.input.str('username');
    const yamlErrors = ctx.input.bool('yaml_errors');
    // Parameters a release does not have yet are dropped unread (edition.ts).
    const name = pipelineNameFilter(m) ? ctx.input.str('name') : undefined;
    const updated = { after: dateParam(ctx, 'updated_after'), before: dateParam(ctx, 'updated_before') };
    const created = pipelineCreatedFilters(m) ? { after: dateParam(ctx, 'created_after'), before: dateParam(ctx, 'created_before') } : {};
    const user = username === undefined ? undefined : [...m.users.values()].find((u) => u.username === username);
    let list = ciOf(p).pipelines.filter(
      (pl) =>
        (status === undefined || pl.status === status) &&
        (ref === undefined || pl.ref === ref) &&
        (sha === undefined || pl.sha === sha) &&
        // Child pipelines only when asked for by source (doc/api/pipelines.md).
        (source === undefined ? pl.source !== 'parent_pipeline' : pl.source === source) &&
        (username === undefined || pl.user_id === user?.id) &&
        (yamlErrors === undefined || (pl.yaml_errors !== null) === yamlErrors) &&
        (name === undefined || name === '' || pl.name === name) &&
        within(pl.updated_at, updated) &&
        within(pl.created_at, created) &&
        (scope === undefined ||
          (scope === 'running'
            ? pl.status === 'running'
            : scope === 'pending'
              ? pl.status === 'pending'
              : scope === 'finished'
                ? FINISHED.has(pl.status)
                : scope === 'tags'
                  ? pl.tag
                  : !pl.tag)),
    );
    if (scope === 'branches' || scope === 'tags') {
      // The latest pipeline of each ref.
      const latest = new Map<string, Pipeline>();
      for (const pl of list) if ((latest.get(pl.ref)?.id ?? 0) < pl.id) latest.set(pl.ref, pl);
      list = [...latest.values()];
    }
    const key = (pl: Pipeline): string | number => (orderBy === 'user_id' ? pl.user_id : orderBy === 'updated_at' ? Date.parse(pl.updated_at) : pl[orderBy]);
    list.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return (sort === 'asc' ? 1 : -1) * (x < y ? -1 : x > y ? 1 : a.id - b.id);
    });
    return listResponse(ctx, list, (pl) => presentPipelineBasic(p, pl));
  }),

  route('GET', '/projects/:id/pipelines/:pipeline_id', (ctx) => {
    const p = loadProject(ctx);
    return json(presentPipeline(ctx.model, p, loadPipeline(ctx, p)));
  }),

  route('POST', '/projects/:id/pipeline', (ctx) => {
    const p = loadProject(ctx);
    const m = ctx.model;
    const ref = ctx.input.required('ref');
    const raw = ctx.input.raw('variables');
    if (raw !== undefined && !Array.isArray(raw)) throw paramError('variables is invalid');
    const variables = ((raw ?? []) as Record<string, unknown>[]).map((v, i) => {
      const type = v.variable_type ?? 'env_var';
      if (type !== 'env_var' && type !== 'file') throw paramError(`variables[${i}][variable_type] does not have a valid value`);
      return { key: String(v.key ?? ''), value: String(v.value ?? ''), variable_type: type as 'env_var' | 'file' };
    });
    // `inputs` is a Hash parameter from 17.11; an earlier release drops it unread (edition.ts).
    const givenInputs = pipelineInputs(m) ? (ctx.input.raw('inputs') ?? {}) : {};
    if (typeof givenInputs !== 'object' || givenInputs === null || Array.isArray(givenInputs)) throw paramError('inputs is invalid');
    requireLevel(ctx, p, ACCESS.developer);
    // Ci::CreatePipelineService's chain: errors land on the pipeline and come back as validation errors.
    const invalid = (message: string) => new ApiError(400, { message: { base: [message] } });
    const branch = p.branches.get(ref);
    const tag = branch === undefined ? p.tags.get(ref) : undefined;
    const sha = branch ?? tag;
    if (sha === undefined) throw invalid('Reference not found');
    if (branch !== undefined && !m.canPush(p, ctx.user.id, ref)) throw invalid('Insufficient permissions to create a new pipeline');
    const bad = variables.find((v) => !/^[A-Za-z0-9_]+$/.test(v.key));
    if (bad) throw invalid(`Variables key can contain only letters, digits and '_'.`);
    const inputs = pipelineInputs(m) ? resolveInputs(ciOf(p).inputSpecs, givenInputs as Record<string, unknown>) : { values: {} };
    if ('error' in inputs) throw invalid(inputs.error);
    const now = m.now();
    const state = ciOf(p);
    const pl: Pipeline = {
      id: m.nextId.pipeline++,
      iid: state.nextIid++,
      project_id: p.id,
      sha,
      before_sha: '0'.repeat(40),
      ref,
      tag: tag !== undefined,
      status: 'pending',
      source: 'api',
      name: null,
      yaml_errors: null,
      user_id: ctx.user.id,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
      variables,
      inputs: inputs.values,
    };
    const job = (name: string, stage: string, status: string): Job => ({
      id: m.nextId.status++,
      pipeline_id: pl.id,
      name,
      stage,
      status,
      allow_failure: false,
      coverage: null,
      failure_reason: null,
      user_id: ctx.user.id,
      created_at: now,
      started_at: null,
      finished_at: null,
      retried: false,
      trace: null,
    });
    state.pipelines.push(pl);
    state.jobs.push(job('build', 'build', 'pending'), job('unit-tests', 'test', 'created'));
    return json(presentPipeline(m, p, pl), 201);
  }),

  route('POST', '/projects/:id/pipelines/:pipeline_id/retry', (ctx) => {
    const p = loadProject(ctx);
    const pl = loadPipeline(ctx, p);
    requireLevel(ctx, p, ACCESS.developer);
    const now = ctx.model.now();
    let retried = false;
    for (const old of latestJobs(p, pl)) {
      if (old.status === 'skipped') {
        old.status = 'created';
        retried = true;
        continue;
      }
      if (old.status !== 'failed' && old.status !== 'canceled') continue;
      old.retried = true;
      ciOf(p).jobs.push({
        ...old,
        id: ctx.model.nextId.status++,
        status: 'pending',
        retried: false,
        failure_reason: null,
        created_at: now,
        started_at: null,
        finished_at: null,
        user_id: ctx.user.id,
        trace: null,
      });
      retried = true;
    }
    if (retried) Object.assign(pl, { status: 'running', finished_at: null, updated_at: now });
    return json(presentPipeline(ctx.model, p, pl), 201);
  }),

  route('POST', '/projects/:id/pipelines/:pipeline_id/cancel', (ctx) => {
    const p = loadProject(ctx);
    const pl = loadPipeline(ctx, p);
    requireLevel(ctx, p, ACCESS.developer);
    const now = ctx.model.now();
    let canceled = false;
    for (const job of latestJobs(p, pl)) {
      if (!CANCELABLE.has(job.status)) continue;
      Object.assign(job, { status: 'canceled', finished_at: now });
      canceled = true;
    }
    if (canceled) Object.assign(pl, { status: 'canceled', finished_at: now, updated_at: now });
    return json(presentPipeline(ctx.model, p, pl), 200);
  }),

  route('GET', '/projects/:id/merge_requests/:merge_request_iid/pipelines', (ctx) => {
    const p = loadProject(ctx);
    const mr = p.mergeRequests.find((x) => String(x.iid) === ctx.params.merge_request_iid);
    if (!mr) throw notFound();
    const list = ciOf(p)
      .pipelines.filter((pl) => pl.ref === mr.source_branch || pl.ref === `refs/merge-requests/${mr.iid}/head`)
      .sort((a, b) => b.id - a.id);
    return listResponse(ctx, list, (pl) => presentPipelineBasic(p, pl));
  }),
];
