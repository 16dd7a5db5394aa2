// CI pipelines and jobs of the fake forge, kept beside each project (a WeakMap, so reset() starts
// from the seed again with the new project objects). Ids share the model's counters with commit
// statuses, which GitLab stores as jobs too. Seed (project 42):
//   2001 main @ headSha, push, success: 1001 build ✓, 1002 unit-tests ✗ (retried), 1003 unit-tests ✓
//   2002 main @ headSha, push, running: 1004 lint (running, partial log)
//   2003 feature/login @ featureShas[1], push, failed (merge request !1's branch):
//        1005 build ✓, 1006 unit-tests ✗ (coloured log with sections), 1007 deploy skipped (no log)
// Its .gitlab-ci.yml declares four inputs, each with a default: environment (staging or production),
// replicas (a number), dry_run (a boolean) and regions (an array).
import type { ForgeModel, Project } from './model';

export interface Pipeline {
  id: number;
  iid: number;
  project_id: number;
  sha: string;
  before_sha: string;
  ref: string;
  tag: boolean;
  status: string;
  source: string;
  name: string | null;
  /** Why GitLab could not read the pipeline's configuration (the list's `yaml_errors` filter); null when it could. */
  yaml_errors: string | null;
  user_id: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  variables: { key: string; value: string; variable_type: 'env_var' | 'file' }[];
  /** The CI/CD inputs it ran with, declared defaults included (GitLab keeps them out of its pipeline records). */
  inputs: Record<string, unknown>;
}

/** One input a configuration declares in its `spec:inputs` header (lib/ci/inputs/*_input.rb). */
export interface InputSpec {
  type: 'string' | 'number' | 'boolean' | 'array';
  /** Absent: the input is required. */
  default?: unknown;
  /** The values allowed (strings and numbers only). */
  options?: unknown[];
}

/** A job's log: text, or a stream made on each read (large logs in tests); null when it has none. */
export type Trace = string | (() => ReadableStream<Uint8Array>) | null;

export interface Job {
  id: number;
  pipeline_id: number;
  name: string;
  stage: string;
  status: string;
  allow_failure: boolean;
  coverage: number | null;
  failure_reason: string | null;
  user_id: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Superseded by a retry (hidden from a pipeline's jobs unless include_retried). */
  retried: boolean;
  trace: Trace;
}

export interface ProjectCi {
  pipelines: Pipeline[];
  jobs: Job[];
  nextIid: number;
  /** The `spec:inputs` header of the project's .gitlab-ci.yml, the same on every ref; null when it has none. */
  inputSpecs: Record<string, InputSpec> | null;
}

const ci = new WeakMap<Project, ProjectCi>();

export function ciOf(p: Project): ProjectCi {
  let found = ci.get(p);
  if (!found) ci.set(p, (found = { pipelines: [], jobs: [], nextIid: 1, inputSpecs: null }));
  return found;
}

export const CI_SEED = {
  pipelines: { mainSuccess: 2001, mainRunning: 2002, featureFailed: 2003 },
  jobs: { build: 1001, unitFailedRetried: 1002, unitSuccess: 1003, lintRunning: 1004, featureBuild: 1005, featureUnitFailed: 1006, featureDeploySkipped: 1007 },
} as const;

/** Statuses in which a job is finished: it may be retried, it cannot be canceled (Ci::HasStatus). */
export const COMPLETED = new Set(['success', 'failed', 'canceled', 'skipped']);
/** Pipeline and job statuses (Ci::HasStatus::AVAILABLE_STATUSES): the `status` and `scope` filters take these. */
export const STATUSES = [
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
/** Statuses a cancel moves to canceled (Ci::HasStatus::CANCELABLE_STATUSES). */
export const CANCELABLE = new Set(['running', 'waiting_for_resource', 'preparing', 'pending', 'created', 'scheduled']);

const ESC = '\x1b';
const section = (edge: 'start' | 'end', at: number, name: string, options = '') => `section_${edge}:${at}:${name}${options}\r${ESC}[0K`;

/** A log as GitLab stores it: ANSI colours, collapsible sections, CRLF line ends, a progress bar. */
const FAILED_LOG = `${[
  `${ESC}[0KRunning with gitlab-runner 17.5.0 (abc123)${ESC}[0;m`,
  `${section('start', 1706000000, 'prepare_executor', '[collapsed=true]')}${ESC}[0K${ESC}[36;1mPreparing the "docker" executor${ESC}[0;m`,
  `Using Docker executor with image oven/bun:1.4 ...`,
  `${section('end', 1706000005, 'prepare_executor')}`,
  `${section('start', 1706000006, 'get_sources')}${ESC}[0K${ESC}[36;1mGetting source from Git repository${ESC}[0;m`,
  `Fetching changes with git depth set to 20...\r`,
  `Downloading 10%\rDownloading 60%\rDownloading 100%`,
  `${section('end', 1706000010, 'get_sources')}`,
  `${section('start', 1706000011, 'step_script')}${ESC}[0K${ESC}[36;1mExecuting "step_script" stage of the job script${ESC}[0;m`,
  `${ESC}[32;1m$ bun test${ESC}[0;m`,
  ...Array.from({ length: 41 }, (_, i) => `  ${ESC}[32m✓${ESC}[0m test ${i + 1} passes (1 ms)`),
  `  ${ESC}[31m✕${ESC}[0m rejects an empty user name (3 ms)`,
  `Tests: ${ESC}[31;1m1 failed${ESC}[0m, 41 passed, 42 total`,
  `${section('end', 1706000040, 'step_script')}`,
  `${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m`,
].join('\r\n')}\r\n`;

export function seedCi(m: ForgeModel, headSha: string, featureSha: string, parentOfHead: string, parentOfFeature: string): void {
  const p = m.projects.get(42)!;
  const state = ciOf(p);
  const at = (day: number, min: number) => new Date(Date.UTC(2024, 0, day, 9, min)).toISOString();
  const pipeline = (id: number, ref: string, sha: string, before: string, status: string, userId: number, day: number): Pipeline => ({
    id,
    iid: state.nextIid++,
    project_id: p.id,
    sha,
    before_sha: before,
    ref,
    tag: false,
    status,
    source: 'push',
    name: null,
    yaml_errors: null,
    user_id: userId,
    created_at: at(day, 0),
    updated_at: at(day, 10),
    started_at: at(day, 1),
    finished_at: status === 'running' ? null : at(day, 10),
    variables: [],
    inputs: {},
  });
  const job = (id: number, pipelineId: number, name: string, stage: string, status: string, day: number, o: Partial<Job> = {}): Job => ({
    id,
    pipeline_id: pipelineId,
    name,
    stage,
    status,
    allow_failure: false,
    coverage: null,
    failure_reason: status === 'failed' ? 'script_failure' : null,
    user_id: 1,
    created_at: at(day, 0),
    started_at: status === 'skipped' ? null : at(day, 1),
    finished_at: status === 'running' || status === 'skipped' ? null : at(day, 5),
    retried: false,
    trace: status === 'skipped' ? null : `$ echo ${name}\r\n${name}\r\nJob succeeded\r\n`,
    ...o,
  });
  state.pipelines.push(
    pipeline(2001, 'main', headSha, parentOfHead, 'success', 1, 31),
    pipeline(2002, 'main', headSha, parentOfHead, 'running', 2, 31),
    pipeline(2003, 'feature/login', featureSha, parentOfFeature, 'failed', 1, 30),
  );
  state.jobs.push(
    job(1001, 2001, 'build', 'build', 'success', 31),
    job(1002, 2001, 'unit-tests', 'test', 'failed', 31, { retried: true }),
    job(1003, 2001, 'unit-tests', 'test', 'success', 31, { coverage: 87.5 }),
    job(1004, 2002, 'lint', 'test', 'running', 31, { user_id: 2, trace: '$ bun run lint\r\nChecking 120 files...\r\n' }),
    job(1005, 2003, 'build', 'build', 'success', 30),
    job(1006, 2003, 'unit-tests', 'test', 'failed', 30, { trace: FAILED_LOG }),
    job(1007, 2003, 'deploy', 'deploy', 'skipped', 30),
  );
  state.inputSpecs = {
    environment: { type: 'string', default: 'staging', options: ['staging', 'production'] },
    replicas: { type: 'number', default: 1 },
    dry_run: { type: 'boolean', default: false },
    regions: { type: 'array', default: [] },
  };
  m.nextId.pipeline = Math.max(m.nextId.pipeline, 2004);
  m.nextId.status = Math.max(m.nextId.status, 1008);
}
