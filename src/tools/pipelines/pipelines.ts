// Pipeline tools: list (a project's, or a merge request's), get, create for a ref with variables
// and inputs, retry and cancel. GitLab answers a cancel of a finished pipeline 200 with the
// pipeline unchanged (doc/api/pipelines.md, "Cancel all jobs for a pipeline"), so the tool says so
// as a `conflict` rather than let an agent believe it stopped something.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { isoDateTime, LIMITS, listOf, mapOf, MAX_INTEGER, pagination, projectId, refName, shortName } from '../params';
import { callRest, restTool, type RestSpec } from '../rest';
import { requireRelease } from '../tiers';
import { canceled } from './cancel-outcome';
import { mergeRequestIid, pipelineId, status } from './params';

const PIPELINE_PATH = '/projects/{project_id}/pipelines/{pipeline_id}';

const LIST_PIPELINES: RestSpec = { method: 'GET', path: '/projects/{project_id}/pipelines', list: true };

/** A range whose end comes before its start lists nothing; say so rather than answer an empty page. */
function checkRange(from: string | undefined, to: string | undefined, fromName: string, toName: string): void {
  if (from && to && Date.parse(from) > Date.parse(to)) throw invalidArgument(toName, `must not be before ${fromName}`);
}

const listPipelines = defineTool({
  name: 'list_pipelines',
  title: 'List pipelines',
  description: "List a project's pipelines, newest first.",
  group: 'pipelines',
  record: 'pipeline',
  mode: 'read',
  endpoint: `${LIST_PIPELINES.method} ${LIST_PIPELINES.path}`,
  input: Type.Object(
    {
      project_id: projectId(),
      ref: Type.Optional(refName('Branch or tag')),
      sha: Type.Optional(refName('Commit SHA')),
      status: status('failed: what broke'),
      source: Type.Optional(
        shortName({
          pattern: '^[a-z_]+$',
          hint: 'must be a pipeline source such as push, web or merge_request_event',
          description: 'push, web, schedule, api, merge_request_event, …',
        }),
      ),
      scope: Type.Optional(
        Type.Union(
          ['running', 'pending', 'finished', 'branches', 'tags'].map((s) => Type.Literal(s)),
          { description: 'branches, tags: latest per ref' },
        ),
      ),
      username: Type.Optional(shortName({ description: 'Who ran it' })),
      name: Type.Optional(shortName({ description: 'workflow:name, exactly' })),
      yaml_errors: Type.Optional(Type.Boolean({ description: 'true: invalid configuration only; false: valid only' })),
      updated_after: isoDateTime(),
      updated_before: isoDateTime(),
      created_after: isoDateTime(),
      created_before: isoDateTime(),
      order_by: Type.Optional(Type.Union(['id', 'status', 'ref', 'updated_at', 'user_id'].map((s) => Type.Literal(s)))),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    checkRange(args.updated_after, args.updated_before, 'updated_after', 'updated_before');
    checkRange(args.created_after, args.created_before, 'created_after', 'created_before');
  },
  async handler(args, ctx) {
    // An older GitLab ignores these filters without a word and lists every pipeline (docs/forge-editions.md).
    if (args.name !== undefined) await requireRelease(ctx, 'name', 'filtering pipelines by name', 16, 9);
    const created = args.created_after !== undefined ? 'created_after' : args.created_before !== undefined ? 'created_before' : undefined;
    if (created) await requireRelease(ctx, created, 'filtering pipelines by creation time', 17, 10);
    return callRest(LIST_PIPELINES, args, ctx.forge);
  },
});

const getPipeline = restTool({
  name: 'get_pipeline',
  title: 'Get pipeline',
  description: 'Get a pipeline: status, ref, sha, source, who ran it, timings, coverage.',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: PIPELINE_PATH },
});

const listMergeRequestPipelines = restTool({
  name: 'list_merge_request_pipelines',
  title: 'List merge request pipelines',
  description: 'List the pipelines of a merge request (its source branch and merge request pipelines), newest first.',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), merge_request_iid: mergeRequestIid(), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/merge_requests/{merge_request_iid}/pipelines', list: true },
});

/** CI/CD variable names GitLab accepts (app/models/concerns/ci/has_variable.rb). */
const VARIABLE_KEY = '^[A-Za-z0-9_]+$';
/** Characters of a CI/CD variable's value, and of each text in an input's value. */
const CI_VALUE_LENGTH = 10_000;
const variable = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: LIMITS.name, pattern: VARIABLE_KEY, hint: 'must be letters, digits and _ only, such as DEPLOY_ENV' }),
    value: Type.String({ maxLength: CI_VALUE_LENGTH }),
    variable_type: Type.Optional(Type.Union([Type.Literal('env_var'), Type.Literal('file')])),
  },
  { additionalProperties: false },
);

/** The types an input takes (lib/ci/inputs: string, number, boolean, array); a list holds the other three. */
const inputScalars = () => [
  Type.String({ maxLength: CI_VALUE_LENGTH }),
  Type.Number({ minimum: -MAX_INTEGER, maximum: MAX_INTEGER, hint: `must be a number from -${MAX_INTEGER} to ${MAX_INTEGER}` }),
  Type.Boolean(),
];
const inputValue = Type.Union([...inputScalars(), listOf(Type.Union(inputScalars(), { hint: 'must be a string, number or boolean' }))], {
  hint: 'must be a string, number, boolean or a list of them',
});
/** An input's name as a configuration declares it and `$[[ inputs.name ]]` reads it. */
const inputName = shortName({ pattern: '^[A-Za-z0-9_-]+$', hint: 'must be an input name of letters, digits, _ and -, such as deploy_env' });

const createPipeline = defineTool({
  name: 'create_pipeline',
  title: 'Create pipeline',
  description: 'Run a new pipeline for a branch or tag, with optional CI/CD variables and spec:inputs.',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/pipeline',
  input: Type.Object(
    {
      project_id: projectId(),
      ref: refName('Branch or tag'),
      variables: Type.Optional(listOf(variable, 'variable_type: env_var (default) or file')),
      inputs: Type.Optional(mapOf(inputName, inputValue, 'Values by input name: a string, number, boolean or a list of them.')),
    },
    { additionalProperties: false },
  ),
  check(args) {
    const seen = new Set<string>();
    for (const [i, v] of (args.variables ?? []).entries()) {
      if (seen.has(v.key)) throw invalidArgument(`variables.${i}.key`, `"${v.key}" is given twice`);
      seen.add(v.key);
    }
  },
  async handler(args, ctx) {
    const inputs = args.inputs as Record<string, unknown> | undefined;
    const hasInputs = inputs !== undefined && Object.keys(inputs).length > 0;
    // Before 17.11 GitLab drops inputs without a word (17.10 reads them only behind a flag that is off
    // by default) and runs the pipeline on the declared defaults (docs/forge-editions.md).
    if (hasInputs) await requireRelease(ctx, 'inputs', 'passing CI/CD inputs to a new pipeline', 17, 11);
    const body: Record<string, unknown> = { ref: args.ref };
    if (args.variables) body.variables = args.variables;
    if (hasInputs) body.inputs = inputs;
    return ctx.forge.json({ method: 'POST', path: fillPath('/projects/{project_id}/pipeline', args), body });
  },
});

const retryPipeline = restTool({
  name: 'retry_pipeline',
  title: 'Retry pipeline',
  description: 'Retry the failed and canceled jobs of a pipeline (nothing happens when there are none).',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'write',
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  rest: { method: 'POST', path: `${PIPELINE_PATH}/retry` },
});

const cancelPipeline = defineTool({
  name: 'cancel_pipeline',
  title: 'Cancel pipeline',
  description: "Cancel a pipeline's unfinished jobs. A pipeline that has already finished gives conflict.",
  group: 'pipelines',
  record: 'pipeline',
  mode: 'write',
  idempotent: true,
  endpoint: `POST ${PIPELINE_PATH}/cancel`,
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  async handler(args, { forge }) {
    const pipeline = await forge.json<{ status?: string } | null>({ method: 'POST', path: fillPath(`${PIPELINE_PATH}/cancel`, args) });
    return canceled(pipeline, `pipeline ${args.pipeline_id}`, 200);
  },
});

export const pipelineTools = [listPipelines, getPipeline, listMergeRequestPipelines, createPipeline, retryPipeline, cancelPipeline];
