// Pipeline tools: list (a project's, or a merge request's), get, create for a ref with variables,
// retry and cancel. GitLab answers a cancel of a finished pipeline 200 with the pipeline unchanged
// (doc/api/pipelines.md, "Cancel all jobs for a pipeline"), so the tool says so as a `conflict`
// rather than let an agent believe it stopped something.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { isoDateTime, LIMITS, listOf, pagination, projectId, refName, shortName } from '../params';
import { restTool } from '../rest';
import { canceled } from './cancel-outcome';
import { mergeRequestIid, pipelineId, status } from './params';

const PIPELINE_PATH = '/projects/{project_id}/pipelines/{pipeline_id}';

export const listPipelines = restTool({
  name: 'list_pipelines',
  title: 'List pipelines',
  description: 'List a project\'s pipelines, newest first; filter by ref, sha, status, source (push, web, schedule, api, merge_request_event, parent_pipeline, …) or who ran them.',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      ref: Type.Optional(refName()),
      sha: Type.Optional(refName()),
      status: status(),
      source: Type.Optional(shortName({ pattern: '^[a-z_]+$', hint: 'must be a pipeline source such as push, web or merge_request_event' })),
      scope: Type.Optional(Type.Union(['running', 'pending', 'finished', 'branches', 'tags'].map((s) => Type.Literal(s)))),
      username: Type.Optional(shortName()),
      updated_after: isoDateTime(),
      updated_before: isoDateTime(),
      order_by: Type.Optional(Type.Union(['id', 'status', 'ref', 'updated_at', 'user_id'].map((s) => Type.Literal(s)))),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.updated_after && args.updated_before && Date.parse(args.updated_after) > Date.parse(args.updated_before)) {
      throw invalidArgument('updated_before', 'must not be before updated_after');
    }
  },
  rest: { method: 'GET', path: '/projects/{project_id}/pipelines', list: true },
});

export const getPipeline = restTool({
  name: 'get_pipeline',
  title: 'Get pipeline',
  description: 'Get a pipeline: status, ref, sha, source, who ran it, timings, coverage.',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: PIPELINE_PATH },
});

export const listMergeRequestPipelines = restTool({
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
const variable = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: LIMITS.name, pattern: VARIABLE_KEY, hint: 'must be letters, digits and _ only, such as DEPLOY_ENV' }),
    value: Type.String({ maxLength: 10_000 }),
    variable_type: Type.Optional(Type.Union([Type.Literal('env_var'), Type.Literal('file')])),
  },
  { additionalProperties: false },
);

export const createPipeline = defineTool({
  name: 'create_pipeline',
  title: 'Create pipeline',
  description: 'Run a new pipeline for a branch or tag, with optional CI/CD variables (variable_type env_var by default, or file).',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/pipeline',
  input: Type.Object(
    { project_id: projectId(), ref: refName(), variables: Type.Optional(listOf(variable)) },
    { additionalProperties: false },
  ),
  check(args) {
    const seen = new Set<string>();
    for (const [i, v] of (args.variables ?? []).entries()) {
      if (seen.has(v.key)) throw invalidArgument(`variables.${i}.key`, `"${v.key}" is given twice`);
      seen.add(v.key);
    }
  },
  handler(args, { forge }) {
    const body: Record<string, unknown> = { ref: args.ref };
    if (args.variables) body.variables = args.variables;
    return forge.json({ method: 'POST', path: fillPath('/projects/{project_id}/pipeline', args), body });
  },
});

export const retryPipeline = restTool({
  name: 'retry_pipeline',
  title: 'Retry pipeline',
  description: 'Retry the failed and canceled jobs of a pipeline (nothing happens when there are none).',
  group: 'pipelines',
  record: 'pipeline',
  mode: 'write',
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  rest: { method: 'POST', path: `${PIPELINE_PATH}/retry` },
});

export const cancelPipeline = defineTool({
  name: 'cancel_pipeline',
  title: 'Cancel pipeline',
  description: 'Cancel a pipeline\'s unfinished jobs. A pipeline that has already finished gives conflict.',
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
