// JSON shapes of GitLab's CI entities (lib/api/entities/ci/: PipelineBasic, Pipeline, Job), field
// order as GitLab's.
import type { ForgeModel, Project } from '../model';
import type { Job, Pipeline } from '../model-ci';
import { presentCommit, presentUser } from './present';

const seconds = (from: string | null, to: string | null) => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null);

/** Entities::Ci::PipelineBasic (list items), with `name` as PipelineBasicWithMetadata adds it. */
export function presentPipelineBasic(p: Project, pl: Pipeline) {
  return {
    id: pl.id,
    iid: pl.iid,
    project_id: pl.project_id,
    sha: pl.sha,
    ref: pl.ref,
    status: pl.status,
    source: pl.source,
    created_at: pl.created_at,
    updated_at: pl.updated_at,
    web_url: `${p.web_url}/-/pipelines/${pl.id}`,
    name: pl.name,
  };
}

const DETAILED: Record<string, [string, string]> = {
  success: ['status_success', 'passed'],
  failed: ['status_failed', 'failed'],
  running: ['status_running', 'running'],
  pending: ['status_pending', 'pending'],
  canceled: ['status_canceled', 'canceled'],
  created: ['status_created', 'created'],
  skipped: ['status_skipped', 'skipped'],
  manual: ['status_manual', 'manual action'],
};

/** Entities::Ci::PipelineWithMetadata (get, create, retry, cancel). */
export function presentPipeline(m: ForgeModel, p: Project, pl: Pipeline) {
  const user = m.users.get(pl.user_id);
  const [icon, text] = DETAILED[pl.status] ?? [`status_${pl.status}`, pl.status];
  return {
    id: pl.id,
    iid: pl.iid,
    project_id: pl.project_id,
    sha: pl.sha,
    ref: pl.ref,
    status: pl.status,
    source: pl.source,
    created_at: pl.created_at,
    updated_at: pl.updated_at,
    web_url: `${p.web_url}/-/pipelines/${pl.id}`,
    before_sha: pl.before_sha,
    tag: pl.tag,
    yaml_errors: pl.yaml_errors,
    user: user ? presentUser(m, user) : null,
    started_at: pl.started_at,
    finished_at: pl.finished_at,
    committed_at: null,
    duration: seconds(pl.started_at, pl.finished_at),
    queued_duration: seconds(pl.created_at, pl.started_at),
    coverage: null,
    detailed_status: {
      icon,
      text,
      label: text,
      group: pl.status,
      tooltip: text,
      has_details: true,
      details_path: `/${p.path_with_namespace}/-/pipelines/${pl.id}`,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_${icon}.png`,
    },
    name: pl.name,
  };
}

/** Entities::Ci::Job. */
export function presentJob(m: ForgeModel, p: Project, job: Job, pl: Pipeline) {
  const user = m.users.get(job.user_id);
  const commit = p.commits.get(pl.sha);
  const out: Record<string, unknown> = {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: pl.ref,
    tag: pl.tag,
    coverage: job.coverage,
    allow_failure: job.allow_failure,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    erased_at: null,
    duration: seconds(job.started_at, job.finished_at),
    queued_duration: seconds(job.created_at, job.started_at),
    user: user ? presentUser(m, user) : null,
    commit: commit ? presentCommit(p, commit) : null,
    pipeline: {
      id: pl.id,
      iid: pl.iid,
      project_id: pl.project_id,
      sha: pl.sha,
      ref: pl.ref,
      status: pl.status,
      source: pl.source,
      created_at: pl.created_at,
      updated_at: pl.updated_at,
      web_url: `${p.web_url}/-/pipelines/${pl.id}`,
    },
    web_url: `${p.web_url}/-/jobs/${job.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: [],
    runner: job.started_at
      ? {
          id: 7,
          description: 'shared-runner-1',
          ip_address: null,
          active: true,
          paused: false,
          is_shared: true,
          runner_type: 'instance_type',
          name: 'gitlab-runner',
          online: true,
          status: 'online',
        }
      : null,
    runner_manager: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: [],
  };
  // GitLab adds failure_reason only to failed jobs (Entities::Ci::JobBasic: `if: ->(job) { job.failed? }`).
  if (job.status === 'failed') out.failure_reason = job.failure_reason;
  return out;
}
