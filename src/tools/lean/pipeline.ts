// CI pipelines and jobs (D33): what ran, on what, how it ended and why. GitLab's presentation
// (detailed_status icons and paths, avatars, the runner's addresses) is left out.
import { compact, flag, isRecord, pick, user, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, N, S, STRINGS, list, USER } from './schema-parts';

export const pipeline: RecordKind = {
  about: 'A CI pipeline: its status, ref and commit, what started it, who, and when.',
  schema: fields({
    id: I,
    iid: I,
    project_id: I,
    name: S,
    status: S,
    source: S,
    ref: S,
    tag: B,
    sha: S,
    yaml_errors: S,
    user: USER,
    coverage: S,
    created_at: S,
    updated_at: S,
    started_at: S,
    finished_at: S,
    duration: N,
    web_url: S,
  }),
  lean: (r) =>
    compact({
      id: r.id,
      iid: r.iid,
      project_id: r.project_id,
      name: r.name,
      status: r.status,
      source: r.source,
      ref: r.ref,
      tag: flag(r.tag),
      sha: r.sha,
      yaml_errors: r.yaml_errors,
      user: user(r.user),
      coverage: r.coverage,
      created_at: r.created_at,
      updated_at: r.updated_at,
      started_at: r.started_at,
      finished_at: r.finished_at,
      duration: r.duration,
      web_url: r.web_url,
    }),
};

const runner = (value: unknown): Rec | undefined => (isRecord(value) ? pick(value, ['id', 'description']) : undefined);

export const job: RecordKind = {
  about: 'A CI job: its stage, status and failure reason, its pipeline and commit.',
  schema: fields({
    id: I,
    name: S,
    stage: S,
    status: S,
    failure_reason: S,
    allow_failure: B,
    ref: S,
    tag: B,
    coverage: N,
    pipeline: fields({ id: I, status: S, ref: S, sha: S }),
    commit: fields({ id: S, title: S }),
    user: USER,
    runner: fields({ id: I, description: S }),
    tag_list: STRINGS,
    artifacts: list(fields({ file_type: S, filename: S, size: I })),
    artifacts_expire_at: S,
    erased_at: S,
    archived: B,
    created_at: S,
    started_at: S,
    finished_at: S,
    duration: N,
    web_url: S,
  }),
  lean: (r) => {
    const commit = isRecord(r.commit) ? r.commit : undefined;
    const pipelineOf = isRecord(r.pipeline) ? r.pipeline : undefined;
    return compact({
      id: r.id,
      name: r.name,
      stage: r.stage,
      status: r.status,
      failure_reason: r.failure_reason,
      allow_failure: flag(r.allow_failure),
      ref: r.ref,
      tag: flag(r.tag),
      coverage: r.coverage,
      pipeline: pipelineOf ? pick(pipelineOf, ['id', 'status', 'ref', 'sha']) : undefined,
      commit: commit ? pick(commit, ['id', 'title']) : undefined,
      user: user(r.user),
      runner: runner(r.runner),
      tag_list: r.tag_list,
      artifacts: Array.isArray(r.artifacts) ? r.artifacts.map((a) => (isRecord(a) ? pick(a, ['file_type', 'filename', 'size']) : a)) : undefined,
      artifacts_expire_at: r.artifacts_expire_at,
      erased_at: r.erased_at,
      archived: flag(r.archived),
      created_at: r.created_at,
      started_at: r.started_at,
      finished_at: r.finished_at,
      duration: r.duration,
      web_url: r.web_url,
    });
  },
};
