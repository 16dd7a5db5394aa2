// Job tools: the jobs of a pipeline, one job, retry and cancel. GitLab refuses to retry a job that
// is not finished (403 "Job is not retryable", lib/api/ci/jobs.rb) and answers a cancel of a
// finished job with the job unchanged, which the tool reports as a `conflict`.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { pagination, projectId } from '../params';
import { restTool } from '../rest';
import { canceled } from './cancel-outcome';
import { requireRelease } from '../tiers';
import { jobId, pipelineId, status } from './params';

const JOB_PATH = '/projects/{project_id}/jobs/{job_id}';

const listPipelineJobs = restTool({
  name: 'list_pipeline_jobs',
  title: 'List pipeline jobs',
  description: 'List the jobs of a pipeline with their stage, status and failure_reason. Trigger jobs are not listed.',
  group: 'pipelines',
  record: 'job',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      pipeline_id: pipelineId(),
      scope: status('One status; failed: what broke'),
      include_retried: Type.Optional(Type.Boolean({ description: 'Also jobs since retried' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/projects/{project_id}/pipelines/{pipeline_id}/jobs', list: true },
});

const getPipelineJob = restTool({
  name: 'get_pipeline_job',
  title: 'Get job',
  description: 'Get a job: status, stage, failure_reason, timings, runner, artifacts, its pipeline.',
  group: 'pipelines',
  record: 'job',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), job_id: jobId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: JOB_PATH },
});

const retryPipelineJob = restTool({
  name: 'retry_pipeline_job',
  title: 'Retry job',
  description: 'Run a finished job again; returns the new job (a new job_id). A job still running is refused (permission).',
  group: 'pipelines',
  record: 'job',
  mode: 'write',
  input: Type.Object({ project_id: projectId(), job_id: jobId() }, { additionalProperties: false }),
  rest: { method: 'POST', path: `${JOB_PATH}/retry` },
});

const cancelPipelineJob = defineTool({
  name: 'cancel_pipeline_job',
  title: 'Cancel job',
  description: 'Cancel an unfinished job. A finished job gives conflict.',
  group: 'pipelines',
  record: 'job',
  mode: 'write',
  idempotent: true,
  endpoint: `POST ${JOB_PATH}/cancel`,
  input: Type.Object(
    { project_id: projectId(), job_id: jobId(), force: Type.Optional(Type.Boolean({ description: 'Maintainer: end one stuck canceling' })) },
    { additionalProperties: false },
  ),
  async handler(args, ctx) {
    // Before GitLab 17.11 `force` is dropped silently, and a job stuck in canceling stays stuck.
    if (args.force === true) await requireRelease(ctx, 'force', 'force-cancelling a job', 17, 11);
    const { forge } = ctx;
    const body = args.force === undefined ? undefined : { force: args.force };
    const job = await forge.json<{ status?: string } | null>({ method: 'POST', path: fillPath(`${JOB_PATH}/cancel`, args), body });
    return canceled(job, `job ${args.job_id}`, 201);
  },
});

export const jobTools = [listPipelineJobs, getPipelineJob, retryPipelineJob, cancelPipelineJob];
