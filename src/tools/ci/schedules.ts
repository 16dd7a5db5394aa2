// Pipeline schedules (lib/api/ci/pipeline_schedules.rb) and a pipeline's variables
// (lib/api/ci/pipelines.rb `GET :id/pipelines/:pipeline_id/variables`). Running a schedule now
// (play) needs the right to create a pipeline on its ref; GitLab answers 201 with a message.
// A pipeline variable's value is shown to those GitLab shows it to; the server never logs results.
import { Type } from '@sinclair/typebox';
import { numericId, pagination, projectId } from '../params';
import { restTool } from '../rest';
import { pipelineId } from '../pipelines/params';
import { fields, S } from '../lean/schema-parts';

const scheduleId = () => numericId('must be a positive integer pipeline schedule id such as 3', 'Schedule id');
const SCHEDULES = '/projects/{project_id}/pipeline_schedules';

const listPipelineSchedules = restTool({
  name: 'list_pipeline_schedules',
  title: 'List pipeline schedules',
  description: "List a project's pipeline schedules (cron, ref, active, next run).",
  group: 'ci',
  record: 'pipeline_schedule',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      scope: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')], { description: 'Default: both' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: SCHEDULES, list: true },
});

const getPipelineSchedule = restTool({
  name: 'get_pipeline_schedule',
  title: 'Get pipeline schedule',
  description: 'Get a pipeline schedule: cron, ref, owner, next run and its last pipeline.',
  group: 'ci',
  record: 'pipeline_schedule',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), pipeline_schedule_id: scheduleId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${SCHEDULES}/{pipeline_schedule_id}` },
});

const playPipelineSchedule = restTool({
  name: 'play_pipeline_schedule',
  title: 'Run pipeline schedule now',
  description: 'Run a pipeline schedule now (the pipeline starts shortly after); needs the right to run pipelines on its ref.',
  group: 'ci',
  mode: 'write',
  output: fields({ message: S }, true),
  input: Type.Object({ project_id: projectId(), pipeline_schedule_id: scheduleId() }, { additionalProperties: false }),
  rest: { method: 'POST', path: `${SCHEDULES}/{pipeline_schedule_id}/play` },
});

const listPipelineVariables = restTool({
  name: 'list_pipeline_variables',
  title: 'List pipeline variables',
  description: 'The variables a pipeline was run with (key, value, variable_type), as GitLab shows them to the caller.',
  group: 'ci',
  record: 'pipeline_variable',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/pipelines/{pipeline_id}/variables' },
});

export const scheduleTools = [listPipelineSchedules, getPipelineSchedule, playPipelineSchedule, listPipelineVariables];
