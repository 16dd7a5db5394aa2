// Test reports, artifacts, CI lint, environments, deployments, pipeline schedules and a pipeline's
// variables, as GitLab answers them:
//   lib/api/ci/pipelines.rb (test_report: TestReportEntity; test_report_summary: TestReportSummaryEntity;
//     variables: read_pipeline_variable, Developer and above),
//   lib/api/ci/job_artifacts.rb (the archive, 404 when the job has none; *artifact_path: 400 for a path
//     with a NUL byte or not UTF-8 (Gitlab::Ci::Build::Artifacts::Path#valid?), 404 for a missing entry),
//   lib/api/lint.rb (GET: read_code, content_ref resolved or 404 Commit; POST: create_pipeline, Developer),
//   lib/api/environments.rb (name and search mutually exclusive; stop: Developer),
//   lib/api/deployments.rb, lib/api/ci/pipeline_schedules.rb (play: 201 {"message":"201 Created"}).
import { zipEntry } from '../../zip';
import { ciOf, type Job } from '../model-ci';
import { ciExtraOf, type Deployment, type Environment, type Schedule, type TestSuite } from '../model-ci-extra';
import type { ForgeModel, Project } from '../model';
import { ACCESS, badRequest, json, loadProject, notFound, paramError, requireLevel, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { loadPipeline } from './pipelines';
import { atLeast } from '../edition';
import { presentJob } from './present-ci';
import { presentUser } from './present';

const sum = (suites: TestSuite[], status?: string) => suites.reduce((n, s) => n + s.cases.filter((c) => !status || c.status === status).length, 0);
const time = (s: TestSuite) => Math.round(s.cases.reduce((t, c) => t + c.execution_time, 0) * 1e6) / 1e6;

function presentSuite(s: TestSuite, withCases: boolean) {
  const count = (status: string) => s.cases.filter((c) => c.status === status).length;
  return {
    name: s.name,
    total_time: time(s),
    total_count: s.cases.length,
    success_count: count('success'),
    failed_count: count('failed'),
    skipped_count: count('skipped'),
    error_count: count('error'),
    ...(withCases
      ? {
          suite_error: s.suite_error,
          test_cases: s.cases.map((c) => ({
            status: c.status,
            name: c.name,
            classname: c.classname,
            file: c.file,
            execution_time: c.execution_time,
            system_output: c.system_output,
            stack_trace: c.stack_trace,
            recent_failures: null,
          })),
        }
      : { build_ids: s.build_ids, suite_error: s.suite_error }),
  };
}

function loadJob(ctx: Ctx, p: Project): Job {
  if (!/^\d+$/.test(ctx.params.job_id)) throw paramError('job_id is invalid');
  const job = ciOf(p).jobs.find((j) => j.id === Number(ctx.params.job_id));
  if (!job) throw notFound();
  return job;
}

function archiveBytes(ctx: Ctx, p: Project, job: Job): Uint8Array {
  const archive = ciExtraOf(p).artifacts.get(job.id);
  if (!archive) throw notFound();
  if (typeof archive === 'function') throw new Error('a streamed archive has no entries to extract');
  return archive;
}

function presentEnvironmentBasic(e: Environment) {
  return {
    id: e.id,
    name: e.name,
    slug: e.name,
    external_url: e.external_url,
    created_at: e.created_at,
    updated_at: e.updated_at,
    tier: e.tier,
    state: e.state,
    auto_stop_at: null,
  };
}

function presentDeployment(m: ForgeModel, p: Project, d: Deployment) {
  const env = ciExtraOf(p).environments.find((e) => e.id === d.environment_id)!;
  const job = ciOf(p).jobs.find((j) => j.id === d.job_id)!;
  const pl = ciOf(p).pipelines.find((x) => x.id === job.pipeline_id)!;
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    updated_at: d.updated_at,
    finished_at: d.finished_at,
    status: d.status,
    user: presentUser(m, m.users.get(d.user_id)!),
    environment: presentEnvironmentBasic(env),
    deployable: presentJob(m, p, job, pl),
  };
}

function presentEnvironment(m: ForgeModel, p: Project, e: Environment) {
  const last = ciExtraOf(p)
    .deployments.filter((d) => d.environment_id === e.id)
    .sort((a, b) => b.id - a.id)[0];
  return { ...presentEnvironmentBasic(e), last_deployment: last ? presentDeployment(m, p, last) : null };
}

function presentSchedule(ctx: Ctx, p: Project, s: Schedule, details: boolean) {
  const last = s.last_pipeline_id ? ciOf(p).pipelines.find((x) => x.id === s.last_pipeline_id) : undefined;
  return {
    id: s.id,
    description: s.description,
    ref: s.ref,
    cron: s.cron,
    cron_timezone: s.cron_timezone,
    next_run_at: s.next_run_at,
    active: s.active,
    created_at: s.created_at,
    updated_at: s.updated_at,
    owner: presentUser(ctx.model, ctx.model.users.get(s.owner_id)!),
    ...(details
      ? {
          last_pipeline: last ? { id: last.id, iid: last.iid, project_id: p.id, sha: last.sha, ref: last.ref, status: last.status, source: last.source } : null,
          // Variables only for those who may read them (read_pipeline_schedule_variables: Developer and above, as the owner is).
          ...(ctx.model.accessLevel(p, ctx.user.id) >= ACCESS.developer ? { variables: s.variables.map((v) => ({ ...v, raw: false })) } : {}),
        }
      : {}),
  };
}

const RESERVED = new Set([
  'stages',
  'variables',
  'default',
  'include',
  'workflow',
  'image',
  'services',
  'before_script',
  'after_script',
  'cache',
  'spec',
  'types',
  'pages:deploy',
]);
/** Gitlab::Config::Loader::Yaml: max_yaml_depth (100 by default). */
const MAX_DEPTH = 100;

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d);
    if (deepest > MAX_DEPTH) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/** Gitlab::Ci::Lint#legacy_validate on a static check: errors with GitLab's messages, no warnings, the merged YAML. */
function lint(content: string | null, includeJobs: boolean) {
  const result = (errors: string[], jobs: { name: string; stage: string }[] = []) => ({
    valid: errors.length === 0,
    errors,
    warnings: [],
    merged_yaml: errors.length ? null : content,
    includes: errors.length ? null : [],
    ...(includeJobs
      ? {
          jobs: jobs.map((j) => ({
            name: j.name,
            stage: j.stage,
            before_script: [],
            script: [],
            after_script: [],
            tag_list: [],
            only: null,
            except: null,
            environment: null,
            when: 'on_success',
            allow_failure: false,
            needs: null,
          })),
        }
      : {}),
  });
  if (content === null || content.trim() === '') return result(['Please provide content of .gitlab-ci.yml']);
  let config: unknown;
  try {
    config = Bun.YAML.parse(content);
  } catch (error) {
    if (error instanceof RangeError) return result(['The parsed YAML is too big']);
    return result([`(<unknown>): ${(error as Error).message}`]);
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return result(['Invalid configuration format']);
  if (depthOf(config) > MAX_DEPTH) return result(['The parsed YAML is too big']);
  const stages = Array.isArray((config as Record<string, unknown>).stages)
    ? ((config as Record<string, unknown>).stages as string[])
    : ['build', 'test', 'deploy'];
  const errors: string[] = [];
  const jobs: { name: string; stage: string }[] = [];
  for (const [name, job] of Object.entries(config as Record<string, unknown>)) {
    if (RESERVED.has(name) || name.startsWith('.')) continue;
    if (job === null || typeof job !== 'object' || Array.isArray(job)) {
      errors.push(`jobs:${name} config should be a hash`);
      continue;
    }
    const j = job as Record<string, unknown>;
    if (!('script' in j) && !('trigger' in j) && !('run' in j)) errors.push(`jobs:${name} config should implement the script:, run:, or trigger: keyword`);
    const stage = typeof j.stage === 'string' ? j.stage : 'test';
    if (!stages.includes(stage)) errors.push(`${name} job: chosen stage ${stage} does not exist; available stages are .pre, ${stages.join(', ')}, .post`);
    jobs.push({ name, stage });
  }
  if (errors.length === 0 && jobs.length === 0) errors.push('jobs config should contain at least one visible job');
  return result(errors, jobs);
}

export const ciExtraRoutes: Route[] = [
  route('GET', '/projects/:id/pipelines/:pipeline_id/test_report', (ctx) => {
    const p = loadProject(ctx);
    const suites = ciExtraOf(p).testReports.get(loadPipeline(ctx, p).id) ?? [];
    return json({
      total_time: Math.round(suites.reduce((t, s) => t + time(s), 0) * 1e6) / 1e6,
      total_count: sum(suites),
      success_count: sum(suites, 'success'),
      failed_count: sum(suites, 'failed'),
      skipped_count: sum(suites, 'skipped'),
      error_count: sum(suites, 'error'),
      test_suites: suites.map((s) => presentSuite(s, true)),
    });
  }),

  route('GET', '/projects/:id/pipelines/:pipeline_id/test_report_summary', (ctx) => {
    const p = loadProject(ctx);
    const suites = ciExtraOf(p).testReports.get(loadPipeline(ctx, p).id) ?? [];
    return json({
      total: {
        time: Math.round(suites.reduce((t, s) => t + time(s), 0) * 1e6) / 1e6,
        count: sum(suites),
        success: sum(suites, 'success'),
        failed: sum(suites, 'failed'),
        skipped: sum(suites, 'skipped'),
        error: sum(suites, 'error'),
        suite_error: null,
      },
      test_suites: suites.map((s) => presentSuite(s, false)),
    });
  }),

  route('GET', '/projects/:id/pipelines/:pipeline_id/variables', (ctx) => {
    const p = loadProject(ctx);
    const pl = loadPipeline(ctx, p);
    requireLevel(ctx, p, ACCESS.developer);
    return json(pl.variables.map((v) => ({ variable_type: v.variable_type, key: v.key, value: v.value, raw: false })));
  }),

  route('GET', '/projects/:id/jobs/:job_id/artifacts', (ctx) => {
    const p = loadProject(ctx);
    const archive = ciExtraOf(p).artifacts.get(loadJob(ctx, p).id);
    if (!archive) throw notFound();
    const headers = { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="artifacts.zip"' };
    return new Response(typeof archive === 'function' ? archive() : archive, { headers });
  }),

  route('GET', '/projects/:id/jobs/:job_id/artifacts/*artifact_path', (ctx) => {
    const p = loadProject(ctx);
    const job = loadJob(ctx, p);
    const path = ctx.params.artifact_path;
    if (path.includes('\0')) throw badRequest('400 Bad request');
    const streamed = ciExtraOf(p).entryStreams.get(`${job.id}/${path}`);
    if (streamed) return new Response(streamed(), { headers: { 'content-type': 'application/octet-stream' } });
    const archive = archiveBytes(ctx, p, job);
    const entry = zipEntry(archive, path);
    if (!entry || path.endsWith('/')) throw notFound();
    return new Response(entry, { headers: { 'content-type': 'application/octet-stream' } });
  }),

  route('GET', '/projects/:id/ci/lint', (ctx) => {
    const p = loadProject(ctx);
    if (p.visibility === 'private') requireLevel(ctx, p, ACCESS.reporter);
    // content_ref and dry_run_ref are declared since 16.10 (the names sha and ref before; Grape drops undeclared ones).
    const named = atLeast(ctx.model, 16, 10);
    if (named && ctx.input.has('sha') && ctx.input.has('content_ref')) throw paramError('sha, content_ref are mutually exclusive');
    const ref = (named ? ctx.input.str('content_ref') : undefined) ?? ctx.input.str('sha') ?? p.default_branch;
    if (!ctx.model.resolveRef(p, ref)) throw notFound('Commit');
    return json(lint(ciExtraOf(p).ciConfig, ctx.input.bool('include_jobs') ?? false));
  }),

  route('POST', '/projects/:id/ci/lint', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.developer);
    const content = ctx.input.required('content');
    return json(lint(content, ctx.input.bool('include_jobs') ?? false));
  }),

  route('GET', '/projects/:id/environments', (ctx) => {
    const p = loadProject(ctx);
    const name = ctx.input.str('name');
    const search = ctx.input.str('search');
    if (name !== undefined && search !== undefined) throw paramError('name, search are mutually exclusive');
    const states = ctx.input.oneOf('states', ['available', 'stopping', 'stopped'] as const);
    const found = ciExtraOf(p).environments.filter(
      (e) => (name === undefined || e.name === name) && (search === undefined || e.name.includes(search)) && (!states || e.state === states),
    );
    return listResponse(ctx, found, (e) => presentEnvironment(ctx.model, p, e));
  }),

  route('GET', '/projects/:id/environments/:environment_id', (ctx) => {
    const p = loadProject(ctx);
    const e = ciExtraOf(p).environments.find((x) => String(x.id) === ctx.params.environment_id);
    if (!e) throw notFound();
    return json(presentEnvironment(ctx.model, p, e));
  }),

  route('POST', '/projects/:id/environments/:environment_id/stop', (ctx) => {
    const p = loadProject(ctx);
    const e = ciExtraOf(p).environments.find((x) => String(x.id) === ctx.params.environment_id);
    if (!e) throw notFound();
    requireLevel(ctx, p, ACCESS.developer);
    const force = ctx.input.bool('force') ?? false;
    if (e.state === 'available') e.state = e.on_stop && !force ? 'stopping' : 'stopped';
    e.updated_at = ctx.model.now();
    return json(presentEnvironment(ctx.model, p, e));
  }),

  route('GET', '/projects/:id/deployments', (ctx) => {
    const p = loadProject(ctx);
    const environment = ctx.input.str('environment');
    const status = ctx.input.oneOf('status', ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const);
    const orderBy = ctx.input.oneOf('order_by', ['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const) ?? 'id';
    const sort = ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'asc';
    const after = ctx.input.str('updated_after');
    const before = ctx.input.str('updated_before');
    if ((after || before) && orderBy !== 'updated_at') throw badRequest('400 Bad request - `updated_at` filter and `updated_at` sorting must be paired');
    const envs = ciExtraOf(p).environments;
    const found = ciExtraOf(p)
      .deployments.filter(
        (d) => (environment === undefined || envs.find((e) => e.id === d.environment_id)?.name === environment) && (!status || d.status === status),
      )
      .filter((d) => (!after || d.updated_at >= new Date(after).toISOString()) && (!before || d.updated_at <= new Date(before).toISOString()))
      .sort((a, b) => (String(a[orderBy]) < String(b[orderBy]) ? -1 : String(a[orderBy]) > String(b[orderBy]) ? 1 : a.id - b.id) * (sort === 'asc' ? 1 : -1));
    return listResponse(ctx, found, (d) => presentDeployment(ctx.model, p, d));
  }),

  route('GET', '/projects/:id/deployments/:deployment_id', (ctx) => {
    const p = loadProject(ctx);
    const d = ciExtraOf(p).deployments.find((x) => String(x.id) === ctx.params.deployment_id);
    if (!d) throw notFound();
    return json(presentDeployment(ctx.model, p, d));
  }),

  route('GET', '/projects/:id/pipeline_schedules', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.reporter);
    const scope = ctx.input.oneOf('scope', ['active', 'inactive'] as const);
    const found = ciExtraOf(p).schedules.filter((s) => !scope || s.active === (scope === 'active'));
    return listResponse(ctx, found, (s) => presentSchedule(ctx, p, s, false));
  }),

  route('GET', '/projects/:id/pipeline_schedules/:pipeline_schedule_id', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.reporter);
    const s = ciExtraOf(p).schedules.find((x) => String(x.id) === ctx.params.pipeline_schedule_id);
    if (!s) throw notFound();
    return json(presentSchedule(ctx, p, s, true));
  }),

  route('POST', '/projects/:id/pipeline_schedules/:pipeline_schedule_id/play', (ctx) => {
    const p = loadProject(ctx);
    const s = ciExtraOf(p).schedules.find((x) => String(x.id) === ctx.params.pipeline_schedule_id);
    if (!s) throw notFound();
    requireLevel(ctx, p, ACCESS.developer);
    s.played++;
    return json({ message: '201 Created' }, 201);
  }),
];
