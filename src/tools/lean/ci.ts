// Environments, deployments and pipeline schedules (the ci group).
import { compact, isRecord, pick, user, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S, USER } from './schema-parts';

const deploymentHead = (r: unknown): Rec | undefined => {
  if (!isRecord(r)) return undefined;
  const job = isRecord(r.deployable) ? { id: r.deployable.id, name: r.deployable.name, status: r.deployable.status } : undefined;
  return compact({ id: r.id, iid: r.iid, ref: r.ref, sha: r.sha, status: r.status, created_at: r.created_at, job });
};

const DEPLOYMENT_HEAD = { id: I, iid: I, ref: S, sha: S, status: S, created_at: S, job: fields({ id: I, name: S, status: S }) };

export const environment: RecordKind = {
  about: 'A deployment environment: its state and what was last deployed to it.',
  schema: fields({ id: I, name: S, tier: S, state: S, external_url: S, auto_stop_at: S, last_deployment: fields(DEPLOYMENT_HEAD) }),
  lean: (r) => compact({ ...pick(r, ['id', 'name', 'tier', 'state', 'external_url', 'auto_stop_at']), last_deployment: deploymentHead(r.last_deployment) }),
};

export const deployment: RecordKind = {
  about: 'A deployment: which ref and commit went to which environment, and how it ended.',
  schema: fields({ ...DEPLOYMENT_HEAD, environment: S, user: USER, finished_at: S }),
  lean: (r) =>
    compact({
      ...deploymentHead(r),
      environment: isRecord(r.environment) ? r.environment.name : undefined,
      user: user(r.user),
      finished_at: r.finished_at,
    }),
};

export const pipelineSchedule: RecordKind = {
  about: 'A pipeline schedule: when and on which ref it runs.',
  schema: fields({
    id: I,
    description: S,
    ref: S,
    cron: S,
    cron_timezone: S,
    next_run_at: S,
    active: B,
    owner: USER,
    last_pipeline: fields({ id: I, status: S }),
  }),
  lean: (r) =>
    compact({
      ...pick(r, ['id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active']),
      owner: user(r.owner),
      last_pipeline: isRecord(r.last_pipeline) ? pick(r.last_pipeline, ['id', 'status']) : undefined,
    }),
};

export const pipelineVariable: RecordKind = {
  about: 'A variable a pipeline ran with; variable_type only when it is a file.',
  schema: fields({ key: S, value: S, variable_type: S }),
  lean: (r) => compact({ key: r.key, value: r.value, variable_type: r.variable_type === 'file' ? 'file' : undefined }),
};
