// The pipelines group: pipelines and jobs through the SDK client (legacy lane by default, some on the
// modern lane), each tool with a success and a forge refusal, validation before the network, and
// the group's share of tools/list.
import { bytesPerToolBudget, groupBytesPerTool } from '../../src/tools/listing-size';
import { describe, expect, test } from 'bun:test';
import { CI_SEED, SEED, TOKENS, ciOf } from '../support/fake-forge';
import { forgeApi } from '../support/forge-api';
import { useHarness } from '../support/harness';
import { connect, MCP_URL, structured, toolError } from '../support/mcp-client';
import { ALL_TOOLS } from '../../src/tools/catalog';

const h = useHarness({ FORGE_TOOLSETS: 'pipelines' });
const P = SEED.projectPath;
const { pipelines: PL, jobs: J } = CI_SEED;
type Page<T> = { items: T[]; pagination: { page: number; per_page: number; total: number; next_page: number | null } };
type Pipeline = { id: number; iid: number; status: string; ref: string; sha: string; source: string };
type Job = { id: number; name: string; stage: string; status: string; failure_reason?: string; pipeline: { id: number } };

const modern = () => connect(h.app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane: 'modern' });
const project = () => h.forge.model.findProject(P)!;

describe('list_pipelines', () => {
  test("lists newest first with pagination, and passes the filters on under GitLab's names", async () => {
    const c = await h.as();
    const page = structured<Page<Pipeline>>(await c.call('list_pipelines', { project_id: P, per_page: 2 }));
    expect(page.items.map((p) => p.id)).toEqual([PL.featureFailed, PL.mainRunning]);
    expect(page.pagination).toMatchObject({ page: 1, per_page: 2, total: 3, next_page: 2 });
    h.forge.requests.length = 0;
    const failed = structured<Page<Pipeline>>(
      await c.call('list_pipelines', {
        project_id: P,
        ref: 'feature/login',
        sha: SEED.featureShas[1],
        status: 'failed',
        source: 'push',
        username: 'maria',
        updated_after: '2024-01-01T00:00:00Z',
        order_by: 'updated_at',
        sort: 'asc',
      }),
    );
    expect(failed.items.map((p) => p.id)).toEqual([PL.featureFailed]);
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({
      ref: 'feature/login',
      sha: SEED.featureShas[1],
      status: 'failed',
      source: 'push',
      username: 'maria',
      updated_after: '2024-01-01T00:00:00Z',
      order_by: 'updated_at',
      sort: 'asc',
    });
  });

  test('on the modern lane too; a private project the caller cannot see → not_found', async () => {
    const c = await modern();
    expect(structured<Page<Pipeline>>(await c.call('list_pipelines', { project_id: P, scope: 'finished' })).items.map((p) => p.id)).toEqual([
      PL.featureFailed,
      PL.mainSuccess,
    ]);
    await c.close();
    const guest = await h.as(TOKENS.guest);
    expect(toolError(await guest.call('list_pipelines', { project_id: SEED.privateProjectPath })).kind).toBe('not_found');
  });
});

describe('list_pipelines: name, yaml_errors and creation time', () => {
  const pipeline = (id: number) => ciOf(project()).pipelines.find((pl) => pl.id === id)!;
  const ids = async (args: Record<string, unknown>) =>
    structured<Page<Pipeline>>(await (await h.as()).call('list_pipelines', { project_id: P, ...args })).items.map((p) => p.id);

  test('created_after and created_before keep the pipelines created in the range, both ends included (GitLab 17.10 and later)', async () => {
    h.forge.model.version = '17.11.0';
    // Seed: 2001 and 2002 created 2024-01-31 09:00 UTC, 2003 on 2024-01-30 09:00 UTC.
    expect(await ids({ created_after: '2024-01-31T09:00:00Z' })).toEqual([PL.mainRunning, PL.mainSuccess]);
    expect(await ids({ created_before: '2024-01-30T09:00:00Z' })).toEqual([PL.featureFailed]);
    expect(await ids({ created_after: '2024-01-30', created_before: '2024-01-30T23:59:59Z' })).toEqual([PL.featureFailed]);
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toEqual({ created_after: '2024-01-30', created_before: '2024-01-30T23:59:59Z' });
    // The updated_* ends are included the same way (updated 2024-01-30 09:10 UTC).
    expect(await ids({ updated_before: '2024-01-30T09:10:00Z' })).toEqual([PL.featureFailed]);
  });

  test('before 17.10 GitLab drops created_after and lists everything: the tool refuses, naming the release, and sends nothing', async () => {
    expect((await forgeApi(h.forge, `/projects/${SEED.projectPathEncoded}/pipelines?created_after=2030-01-01T00:00:00Z`)).body).toHaveLength(3);
    h.forge.requests.length = 0;
    const c = await h.as();
    expect(toolError(await c.call('list_pipelines', { project_id: P, created_before: '2024-01-30T09:00:00Z' }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'created_before: filtering pipelines by creation time needs GitLab 17.10 or later; this forge runs 17.6.0-ee',
    });
    expect(h.toolUpstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
  });

  test('name keeps the pipelines of that name (GitLab 16.9 and later); before, the tool refuses rather than list them all', async () => {
    pipeline(PL.featureFailed).name = 'Login checks';
    expect(await ids({ name: 'Login checks' })).toEqual([PL.featureFailed]);
    expect(await ids({ name: 'Login' })).toEqual([]);
    expect(h.forge.requests.at(-1)!.query.get('name')).toBe('Login');
    h.forge.model.version = '16.7.0';
    h.app.instances.clear();
    expect((await forgeApi(h.forge, `/projects/${SEED.projectPathEncoded}/pipelines?name=Login`)).body).toHaveLength(3);
    h.forge.requests.length = 0;
    expect(toolError(await (await h.as()).call('list_pipelines', { project_id: P, name: 'Login checks' }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'name: filtering pipelines by name needs GitLab 16.9 or later; this forge runs 16.7.0-ee',
    });
    expect(h.toolUpstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
  });

  test('yaml_errors true keeps the pipelines whose configuration GitLab could not read, false the others', async () => {
    pipeline(PL.featureFailed).yaml_errors = 'jobs:unit-tests config contains unknown keys: scirpt';
    expect(await ids({ yaml_errors: true })).toEqual([PL.featureFailed]);
    expect(h.forge.requests.at(-1)!.query.get('yaml_errors')).toBe('true');
    expect(await ids({ yaml_errors: 'false' })).toEqual([PL.mainRunning, PL.mainSuccess]);
    expect(h.forge.requests.at(-1)!.query.get('yaml_errors')).toBe('false');
  });
});

describe('get_pipeline', () => {
  test('gets one pipeline', async () => {
    const pl = structured<Pipeline & { user: { username: string } }>(
      await (await h.as()).call('get_pipeline', { project_id: P, pipeline_id: PL.featureFailed }),
    );
    expect(pl).toMatchObject({ id: PL.featureFailed, status: 'failed', ref: 'feature/login', sha: SEED.featureShas[1], user: { username: 'maria' } });
  });

  test('an unknown pipeline → not_found', async () => {
    expect(toolError(await (await h.as()).call('get_pipeline', { project_id: P, pipeline_id: 999999 }))).toMatchObject({ kind: 'not_found', status: 404 });
  });
});

describe('list_merge_request_pipelines', () => {
  test('the pipelines of merge request !1 (source branch feature/login)', async () => {
    const page = structured<Page<Pipeline>>(await (await h.as()).call('list_merge_request_pipelines', { project_id: P, merge_request_iid: 1 }));
    expect(page.items.map((p) => p.id)).toEqual([PL.featureFailed]);
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/merge_requests/1/pipelines`]);
  });

  test('an unknown merge request → not_found', async () => {
    expect(toolError(await (await h.as()).call('list_merge_request_pipelines', { project_id: P, merge_request_iid: 404 })).kind).toBe('not_found');
  });
});

describe('list_pipeline_jobs', () => {
  test('the latest jobs with stage, status and failure_reason; scope and include_retried', async () => {
    const c = await h.as();
    const jobs = structured<Page<Job>>(await c.call('list_pipeline_jobs', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(jobs.items.map((j) => [j.id, j.stage, j.status, j.failure_reason])).toEqual([
      [J.featureBuild, 'build', 'success', undefined],
      [J.featureUnitFailed, 'test', 'failed', 'script_failure'],
      [J.featureDeploySkipped, 'deploy', 'skipped', undefined],
    ]);
    const failed = structured<Page<Job>>(await c.call('list_pipeline_jobs', { project_id: P, pipeline_id: PL.featureFailed, scope: 'failed' }));
    expect(failed.items.map((j) => j.id)).toEqual([J.featureUnitFailed]);
    const all = structured<Page<Job>>(await c.call('list_pipeline_jobs', { project_id: P, pipeline_id: PL.mainSuccess, include_retried: true }));
    expect(all.items.map((j) => j.id)).toEqual([J.build, J.unitFailedRetried, J.unitSuccess]);
    expect(h.forge.requests.at(-1)!.query.get('include_retried')).toBe('true');
  });

  test('jobs of an unknown pipeline → not_found; a bad scope → validation, nothing sent', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_pipeline_jobs', { project_id: P, pipeline_id: 5 })).kind).toBe('not_found');
    h.forge.requests.length = 0;
    expect(toolError(await c.call('list_pipeline_jobs', { project_id: P, pipeline_id: 5, scope: 'broken' })).message).toStartWith(
      'scope: must be one of created, ',
    );
    expect(h.upstream()).toEqual([]);
  });
});

describe('get_pipeline_job', () => {
  test('gets one job with its pipeline', async () => {
    const job = structured<Job>(await (await modern()).call('get_pipeline_job', { project_id: P, job_id: String(J.featureUnitFailed) }));
    expect(job).toMatchObject({
      id: J.featureUnitFailed,
      name: 'unit-tests',
      status: 'failed',
      failure_reason: 'script_failure',
      pipeline: { id: PL.featureFailed },
    });
  });

  test('an unknown job → not_found', async () => {
    expect(toolError(await (await h.as()).call('get_pipeline_job', { project_id: P, job_id: 77 })).kind).toBe('not_found');
  });
});

describe('create_pipeline', () => {
  test('runs a pipeline for a branch with variables (variable_type as given, env_var by default)', async () => {
    const c = await h.as(TOKENS.developer);
    const variables = [
      { key: 'DEPLOY_ENV', value: 'staging' },
      { key: 'CONFIG', value: 'a: 1', variable_type: 'file' },
    ];
    const pl = structured<Pipeline>(await c.call('create_pipeline', { project_id: P, ref: 'feature/login', variables }));
    expect(pl).toMatchObject({ ref: 'feature/login', sha: SEED.featureShas[1], status: 'pending', source: 'api' });
    expect(h.forge.requests[0].body).toEqual({ ref: 'feature/login', variables });
    expect(ciOf(project()).pipelines.at(-1)!.variables).toEqual([
      { key: 'DEPLOY_ENV', value: 'staging', variable_type: 'env_var' },
      { key: 'CONFIG', value: 'a: 1', variable_type: 'file' },
    ]);
  });

  test("an unknown ref → validation with GitLab's words; a guest → permission", async () => {
    expect(toolError(await (await h.as()).call('create_pipeline', { project_id: P, ref: 'no-such-branch' }))).toEqual({
      kind: 'validation',
      status: 400,
      message: 'Reference not found',
    });
    expect(toolError(await (await h.as(TOKENS.guest)).call('create_pipeline', { project_id: P, ref: 'main' })).kind).toBe('permission');
  });

  test.each([
    [{ variables: [{ key: 'BAD-KEY', value: 'x' }] }, 'variables.0.key: must be letters, digits and _ only, such as DEPLOY_ENV'],
    [{ variables: [{ key: '', value: 'x' }] }, 'variables.0.key: must be letters, digits and _ only, such as DEPLOY_ENV'],
    [{ variables: [{ key: 'A', value: 'x', variable_type: 'secret' }] }, 'variables.0.variable_type: must be one of env_var, file'],
    [{ variables: [{ key: 'A', value: 'x', masked: true }] }, 'variables.0.masked: is not a parameter of this tool'],
    [
      {
        variables: [
          { key: 'A', value: 'x' },
          { key: 'A', value: 'y' },
        ],
      },
      'variables.1.key: "A" is given twice',
    ],
    [{ variables: Array.from({ length: 101 }, (_, i) => ({ key: `K${i}`, value: '' })) }, 'variables: must have at most 100 items (got 101)'],
    [{ ref: '..' }, 'ref: must not be "." or ".." nor contain a "." or ".." part between slashes (percent-encoded or look-alike dots included)'],
  ])('refuses %j before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('create_pipeline', { project_id: P, ref: 'main', ...args }))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });
});

describe('create_pipeline with inputs', () => {
  const lastPipeline = () => ciOf(project()).pipelines.at(-1)!;
  const create = async (inputs: unknown) => (await h.as()).call('create_pipeline', { project_id: P, ref: 'main', inputs });

  test('the inputs go in the body as a map; the pipeline runs with them, declared defaults filling the rest (GitLab 17.11 and later)', async () => {
    h.forge.model.version = '17.11.0';
    const inputs = { environment: 'production', replicas: 3, regions: ['eu-west', 'us-east'] };
    const pl = structured<Pipeline>(await create(inputs));
    expect(pl).toMatchObject({ ref: 'main', status: 'pending', source: 'api' });
    expect(h.forge.requests.at(-1)!.body).toEqual({ ref: 'main', inputs });
    expect(lastPipeline().inputs).toEqual({ ...inputs, dry_run: false });
  });

  test.each([
    [{ colour: 'blue' }, 'unknown input arguments: colour'],
    [{ replicas: '3', dry_run: 'no' }, '`replicas` input: provided value is not a number, `dry_run` input: provided value is not a boolean'],
    [{ environment: 'qa' }, '`environment` input: `qa` cannot be used because it is not in the list of allowed options'],
    [{ regions: 'eu-west' }, '`regions` input: provided value is not an array'],
  ])('GitLab checks %j against the spec:inputs; its message comes back as validation', async (inputs, message) => {
    h.forge.model.version = '17.11.0';
    expect(toolError(await create(inputs))).toEqual({ kind: 'validation', status: 400, message });
  });

  test('a configuration without spec:inputs takes none, and a required input must be given', async () => {
    h.forge.model.version = '17.11.0';
    const ci = ciOf(project());
    ci.inputSpecs = null;
    expect(toolError(await create({ environment: 'production' })).message).toBe(
      'Given inputs not defined in the `spec` section of the included configuration file',
    );
    ci.inputSpecs = { environment: { type: 'string' } };
    expect(toolError(await (await h.as()).call('create_pipeline', { project_id: P, ref: 'main' })).message).toBe(
      '`environment` input: required value has not been provided',
    );
    expect(structured<Pipeline>(await create({ environment: 'qa' })).status).toBe('pending');
    expect(lastPipeline().inputs).toEqual({ environment: 'qa' });
  });

  test('before 17.11 GitLab drops the inputs and runs on the defaults: the tool refuses, naming the release, and sends nothing', async () => {
    const dropped = await forgeApi(h.forge, `/projects/${SEED.projectPathEncoded}/pipeline`, { json: { ref: 'main', inputs: { environment: 'production' } } });
    expect(dropped.status).toBe(201);
    expect(lastPipeline().inputs).toEqual({});
    h.forge.requests.length = 0;
    expect(toolError(await create({ environment: 'production' }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'inputs: passing CI/CD inputs to a new pipeline needs GitLab 17.11 or later; this forge runs 17.6.0-ee',
    });
    expect(h.toolUpstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
    // An empty map passes nothing, so it needs no release and is not sent.
    expect(structured<Pipeline>(await create({})).status).toBe('pending');
    expect(h.forge.requests.at(-1)!.body).toEqual({ ref: 'main' });
  });

  const long = 'x'.repeat(10_001);
  test.each([
    ['too many inputs', Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`input_${i}`, i])), 'inputs: must have at most 100 entries (got 101)'],
    ['a name too long', { ['n'.repeat(256)]: 'x' }, `inputs: name "${'n'.repeat(40)}…" must be at most 255 characters (got 256)`],
    ['a name with a dot', { 'a.b': 'x' }, 'inputs: name "a.b" must be an input name of letters, digits, _ and -, such as deploy_env'],
    [
      'an interpolation as a name',
      { '$[[ inputs.x ]]': 'x' },
      'inputs: name "$[[ inputs.x ]]" must be an input name of letters, digits, _ and -, such as deploy_env',
    ],
    ['an empty name', { '': 'x' }, 'inputs: name "" must be an input name of letters, digits, _ and -, such as deploy_env'],
    ['a text too long', { environment: long }, 'inputs.environment: must be at most 10000 characters (got 10001)'],
    ['a list too long', { regions: Array.from({ length: 101 }, () => 'eu') }, 'inputs.regions: must have at most 100 items (got 101)'],
    ['a list item too long', { regions: ['eu', long] }, 'inputs.regions.1: must be at most 10000 characters (got 10001)'],
    [
      'a number past the safe integers',
      { replicas: 1e300 },
      `inputs.replicas: must be a number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`,
    ],
    ['an object value', { environment: { name: 'production' } }, 'inputs.environment: must be a string, number, boolean or a list of them'],
    ['a null value', { environment: null }, 'inputs.environment: must be a string, number, boolean or a list of them'],
    ['a list in a list', { regions: [['eu']] }, 'inputs.regions.0: must be a string, number or boolean'],
    ['text for the map', 'environment=production', 'inputs: expected object'],
    ['a list for the map', [{ environment: 'production' }], 'inputs: expected object'],
  ])('refuses %s before any upstream call', async (_, inputs, message) => {
    h.forge.model.version = '17.11.0';
    expect(toolError(await create(inputs))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });
});

describe('retry_pipeline and cancel_pipeline', () => {
  test('retry re-runs the failed job of a pipeline', async () => {
    const pl = structured<Pipeline>(await (await h.as(TOKENS.developer)).call('retry_pipeline', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(pl).toMatchObject({ id: PL.featureFailed, status: 'running' });
    expect(ciOf(project()).jobs.find((j) => j.id === J.featureUnitFailed)!.retried).toBe(true);
  });

  test('retry by a guest → permission', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('retry_pipeline', { project_id: P, pipeline_id: PL.featureFailed })).kind).toBe('permission');
  });

  test('cancel stops a running pipeline', async () => {
    const pl = structured<Pipeline>(await (await modern()).call('cancel_pipeline', { project_id: P, pipeline_id: PL.mainRunning }));
    expect(pl).toMatchObject({ id: PL.mainRunning, status: 'canceled' });
  });

  test('cancel of a finished pipeline: GitLab answers 200 unchanged, the tool says conflict', async () => {
    const error = toolError(await (await h.as()).call('cancel_pipeline', { project_id: P, pipeline_id: PL.mainSuccess }));
    expect(error).toEqual({ kind: 'conflict', status: 200, message: `pipeline ${PL.mainSuccess} has already finished (success); nothing was canceled` });
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${SEED.projectPathEncoded}/pipelines/${PL.mainSuccess}/cancel`]);
  });
});

describe('retry_pipeline_job and cancel_pipeline_job', () => {
  test('retry of a failed job returns the new job', async () => {
    const job = structured<Job>(await (await h.as(TOKENS.developer)).call('retry_pipeline_job', { project_id: P, job_id: J.featureUnitFailed }));
    expect(job).toMatchObject({ name: 'unit-tests', status: 'pending', pipeline: { id: PL.featureFailed } });
    expect(job.id).toBeGreaterThan(J.featureDeploySkipped);
  });

  test('retry of a running job: GitLab\'s 403 "Job is not retryable" → permission', async () => {
    expect(toolError(await (await h.as()).call('retry_pipeline_job', { project_id: P, job_id: J.lintRunning }))).toEqual({
      kind: 'permission',
      status: 403,
      message: '403 Forbidden - Job is not retryable',
    });
  });

  test('cancel of a running job; force goes in the body', async () => {
    const c = await h.as();
    expect(structured<Job>(await c.call('cancel_pipeline_job', { project_id: P, job_id: J.lintRunning, force: false })).status).toBe('canceled');
    expect(h.forge.requests[0].body).toEqual({ force: false });
  });

  test('force on a release before 17.11 is refused before anything is sent (GitLab would drop it); from 17.11 it is sent', async () => {
    const error = toolError(await (await h.as()).call('cancel_pipeline_job', { project_id: P, job_id: J.lintRunning, force: true }));
    expect(error).toEqual({
      kind: 'validation',
      status: null,
      message: 'force: force-cancelling a job needs GitLab 17.11 or later; this forge runs 17.6.0-ee',
    });
    expect(h.toolUpstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
    h.forge.model.version = '17.11.0';
    h.app.instances.clear();
    expect(structured<Job>(await (await h.as()).call('cancel_pipeline_job', { project_id: P, job_id: J.lintRunning, force: true })).status).toBe('canceled');
    expect(h.forge.requests.at(-1)!.body).toEqual({ force: true });
  });

  test('cancel by a guest, and force by a developer (Maintainer only) → permission', async () => {
    h.forge.model.version = '17.11.0';
    expect(toolError(await (await h.as(TOKENS.guest)).call('cancel_pipeline_job', { project_id: P, job_id: J.lintRunning })).kind).toBe('permission');
    expect(toolError(await (await h.as(TOKENS.developer)).call('cancel_pipeline_job', { project_id: P, job_id: J.lintRunning, force: true })).kind).toBe(
      'permission',
    );
    expect(toolError(await (await h.as(TOKENS.guest)).call('cancel_pipeline', { project_id: P, pipeline_id: PL.mainRunning })).kind).toBe('permission');
  });

  test('cancel of a finished job → conflict', async () => {
    expect(toolError(await (await h.as()).call('cancel_pipeline_job', { project_id: P, job_id: J.featureBuild }))).toMatchObject({
      kind: 'conflict',
      status: 201,
    });
  });
});

describe('lean records (D33)', () => {
  test("pipelines and jobs are lean by default; full_response gives the forge's records", async () => {
    const c = await h.as();
    const pl = structured(await c.call('get_pipeline', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(pl.user).toEqual({ id: 1, username: 'maria', name: 'Maria Rossi' });
    for (const dropped of ['detailed_status', 'before_sha', 'queued_duration', 'committed_at', 'tag']) expect(pl).not.toHaveProperty(dropped);
    const fullPl = structured(await c.call('get_pipeline', { project_id: P, pipeline_id: PL.featureFailed, full_response: true }));
    expect(fullPl).toHaveProperty('detailed_status');
    expect(h.forge.requests.every((r) => !r.query.has('full_response'))).toBe(true);

    const jobs = structured<Page<Record<string, unknown>>>(await c.call('list_pipeline_jobs', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(jobs.items[1]).toMatchObject({
      id: J.featureUnitFailed,
      stage: 'test',
      status: 'failed',
      failure_reason: 'script_failure',
      pipeline: { id: PL.featureFailed, status: 'failed' },
    });
    expect(JSON.stringify(jobs)).not.toContain('avatar_url');
    expect(jobs.items[1].runner).toEqual({ id: 7, description: 'shared-runner-1' });
    expect(jobs.items[1].commit).toEqual({ id: SEED.featureShas[1], title: 'Validate login credentials' });
    const fullJob = structured(await c.call('get_pipeline_job', { project_id: P, job_id: J.featureUnitFailed, full_response: true }));
    expect(fullJob).toMatchObject({ erased_at: null, project: { ci_job_token_scope_enabled: false } });
  });

  test('writes answer lean records too, and take no full_response', async () => {
    const c = await h.as(TOKENS.developer);
    const job = structured(await c.call('retry_pipeline_job', { project_id: P, job_id: J.featureUnitFailed }));
    expect(job).not.toHaveProperty('erased_at');
    expect(toolError(await c.call('retry_pipeline', { project_id: P, pipeline_id: 1, full_response: true })).message).toBe(
      'full_response: is not a parameter of this tool',
    );
  });
});

describe('identifiers and numbers are checked before the network (D31)', () => {
  test.each([
    ['get_pipeline', { pipeline_id: '..' }, 'pipeline_id: must be a positive integer pipeline id such as 42'],
    ['get_pipeline', { pipeline_id: '12/../13' }, 'pipeline_id: must be a positive integer pipeline id such as 42'],
    ['get_pipeline_job', { job_id: -1 }, 'job_id: must be a positive integer job id such as 42'],
    ['get_pipeline_job', { job_id: 1.5 }, 'job_id: must be a positive integer job id such as 42'],
    ['get_pipeline_job', { job_id: '1e3' }, 'job_id: must be a positive integer job id such as 42'],
    ['list_merge_request_pipelines', { merge_request_iid: '0' }, 'merge_request_iid: must be a positive integer merge request iid such as 12'],
    [
      'list_pipelines',
      { project_id: 'acme/../secret' },
      'project_id: must not be "." or ".." nor contain a "." or ".." part between slashes (percent-encoded or look-alike dots included)',
    ],
    [
      'list_pipelines',
      { ref: '%2e%2e' },
      'ref: must not be "." or ".." nor contain a "." or ".." part between slashes (percent-encoded or look-alike dots included)',
    ],
    ['list_pipelines', { per_page: 1000 }, 'per_page: must be an integer from 1 to 100'],
    ['list_pipelines', { source: 'push;drop' }, 'source: must be a pipeline source such as push, web or merge_request_event'],
    ['list_pipelines', { updated_after: '2024-02-01T00:00:00Z', updated_before: '2024-01-01T00:00:00Z' }, 'updated_before: must not be before updated_after'],
    ['list_pipelines', { created_after: '2024-02-01', created_before: '2024-01-31T23:59:59Z' }, 'created_before: must not be before created_after'],
    [
      'list_pipelines',
      { created_after: 'yesterday' },
      'created_after: must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z, or a date such as 2026-01-31 (midnight UTC)',
    ],
    ['list_pipelines', { name: '' }, 'name: must not be empty'],
    ['list_pipelines', { yaml_errors: 'yes' }, 'yaml_errors: expected boolean'],
  ])('%s %j', async (tool, args, message) => {
    const c = await h.as();
    const base = { project_id: P, pipeline_id: 1, job_id: 1, merge_request_iid: 1 };
    const wanted = ALL_TOOLS.find((t) => t.name === tool)!.input.properties;
    const given = Object.fromEntries(Object.entries({ ...base, ...args }).filter(([k]) => k in wanted));
    expect(toolError(await c.call(tool, given))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });
});

describe('the group in tools/list', () => {
  const group = ALL_TOOLS.filter((t) => t.group === 'pipelines');

  test('the names teams know from other GitLab servers', () => {
    expect(group.map((t) => t.name)).toEqual([
      'list_pipelines',
      'get_pipeline',
      'list_merge_request_pipelines',
      'create_pipeline',
      'retry_pipeline',
      'cancel_pipeline',
      'list_pipeline_jobs',
      'get_pipeline_job',
      'retry_pipeline_job',
      'cancel_pipeline_job',
      'get_pipeline_job_output',
    ]);
  });

  // D40 replaced the 12 KB per group with 1.3 times the group's bytes per tool at 868e772.
  test('stays within its tools/list budget per tool (D40)', () => {
    expect(group.length).toBeGreaterThan(0);
    expect(groupBytesPerTool('pipelines')).toBeLessThanOrEqual(bytesPerToolBudget('pipelines'));
  });

  test('FORGE_TOOLSETS=pipelines lists exactly the group; reads are read-only, retries and cancels are writes', async () => {
    const c = await h.as();
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(group.map((t) => t.name));
    const reads = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(reads).toEqual([
      'list_pipelines',
      'get_pipeline',
      'list_merge_request_pipelines',
      'list_pipeline_jobs',
      'get_pipeline_job',
      'get_pipeline_job_output',
    ]);
    expect(tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name)).toEqual([]);
  });
});
