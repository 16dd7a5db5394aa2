// Parameter schemas shared by the pipeline and job tools.
import { Type } from '@sinclair/typebox';
import { described, numericId } from '../params';

export const pipelineId = () => numericId('must be a positive integer pipeline id such as 42', 'Pipeline id');
export const jobId = () => numericId('must be a positive integer job id such as 42', 'Job id (list_pipeline_jobs)');
export const mergeRequestIid = () => numericId('must be a positive integer merge request iid such as 12', '12 for !12 (iid)');

/** Pipeline and job statuses (GitLab's Ci::HasStatus::AVAILABLE_STATUSES, `canceling` and `waiting_for_callback` since 17.x). */
const STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;

export const status = (description?: string) =>
  Type.Optional(
    Type.Union(
      STATUSES.map((s) => Type.Literal(s)),
      described(description),
    ),
  );
