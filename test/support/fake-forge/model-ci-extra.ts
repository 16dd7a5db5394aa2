// What a pipeline produced and where it went, beside each project (a WeakMap like model-ci.ts):
// test reports per pipeline (JUnit-shaped suites, as GitLab parses them into Gitlab::Ci::Reports::
// TestSuite), artifacts archives per job (real zip bytes, or a stream made on each read for large
// ones in tests), environments, deployments, pipeline schedules, and the project's .gitlab-ci.yml.
import type { Project } from './model';

export interface TestCase {
  status: 'success' | 'failed' | 'skipped' | 'error';
  name: string;
  classname: string;
  file: string | null;
  execution_time: number;
  system_output: string | null;
  stack_trace: string | null;
}

export interface TestSuite {
  name: string;
  /** Jobs whose reports made the suite. */
  build_ids: number[];
  suite_error: string | null;
  cases: TestCase[];
}

/** A job's artifacts archive: bytes, or a stream made on each read. */
export type Archive = Uint8Array | (() => ReadableStream<Uint8Array>);

export interface Environment {
  id: number;
  name: string;
  tier: string;
  state: 'available' | 'stopping' | 'stopped';
  external_url: string | null;
  /** Has an on_stop job: stopping waits for it (state stopping) unless forced. */
  on_stop: boolean;
  created_at: string;
  updated_at: string;
}

export interface Deployment {
  id: number;
  iid: number;
  environment_id: number;
  ref: string;
  sha: string;
  status: 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'blocked';
  job_id: number;
  user_id: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface Schedule {
  id: number;
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  next_run_at: string;
  active: boolean;
  owner_id: number;
  created_at: string;
  updated_at: string;
  last_pipeline_id: number | null;
  variables: { key: string; value: string; variable_type: 'env_var' | 'file' }[];
  /** Times play ran it. */
  played: number;
}

export interface ProjectCiExtra {
  testReports: Map<number, TestSuite[]>;
  artifacts: Map<number, Archive>;
  /** An entry Workhorse would extract and stream, by `<job id>/<path>` (large files in tests); wins over the archive's own. */
  entryStreams: Map<string, () => ReadableStream<Uint8Array>>;
  environments: Environment[];
  deployments: Deployment[];
  schedules: Schedule[];
  /** The project's .gitlab-ci.yml (the same on every ref); null when it has none. */
  ciConfig: string | null;
}

const extra = new WeakMap<Project, ProjectCiExtra>();

export function ciExtraOf(p: Project): ProjectCiExtra {
  let found = extra.get(p);
  if (!found)
    extra.set(
      p,
      (found = { testReports: new Map(), artifacts: new Map(), entryStreams: new Map(), environments: [], deployments: [], schedules: [], ciConfig: null }),
    );
  return found;
}
