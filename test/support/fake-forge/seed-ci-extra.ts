// Seed of model-ci-extra.ts (project 42). Pipeline 2003 (merge request !1's head pipeline, failed):
// its test report has the suite "unit-tests" (job 1006) with one failing test, "rejects an empty
// user name", whose output names src/auth/login.ts line 2; job 1006's artifacts hold junit.xml, that
// test's output and a binary file. Environments staging and production, two deployments, one
// schedule; the project's .gitlab-ci.yml has a build and a test job.
import { zip } from '../zip';
import type { ForgeModel } from './model';
import { CI_SEED, ciOf } from './model-ci';
import { ciExtraOf, type TestCase } from './model-ci-extra';

export const CI_EXTRA_SEED = {
  failingTest: 'rejects an empty user name',
  failingFile: 'src/auth/login.test.ts',
  outputPath: 'test-output/login.test.txt',
  binaryPath: 'coverage/badge.png',
  /** Where the failure points in the repository: line 2 of src/auth/login.ts (feature/login). */
  sourceFile: 'src/auth/login.ts',
  sourceLine: 2,
  environments: { staging: 11, production: 12 },
  deployments: { staging: 21, production: 22 },
  schedule: 31,
} as const;

export const FAILING_OUTPUT = `${[
  'bun test v1.4.0',
  '',
  'src/auth/login.test.ts:',
  '✓ accepts a user name [0.40ms]',
  '',
  '1 | import { login } from "./login";',
  '2 | test("rejects an empty user name", () => expect(() => login("")).toThrow("empty user name"));',
  'error: expect(received).toThrow(expected)',
  'Expected substring: "empty user name"',
  'Received message: "user required"',
  '      at login (src/auth/login.ts:2:20)',
  '      at <anonymous> (src/auth/login.test.ts:2:53)',
  '✗ rejects an empty user name [0.90ms]',
].join('\n')}\n`;

export const CI_CONFIG = 'stages: [build, test]\nbuild:\n  stage: build\n  script: bun run build\nunit-tests:\n  stage: test\n  script: bun test\n';

export function seedCiExtra(m: ForgeModel, featureSha: string): void {
  const p = m.projects.get(42)!;
  const state = ciExtraOf(p);
  const ok = (name: string): TestCase => ({
    status: 'success',
    name,
    classname: 'src/auth/login.test.ts',
    file: CI_EXTRA_SEED.failingFile,
    execution_time: 0.0004,
    system_output: null,
    stack_trace: null,
  });
  state.testReports.set(CI_SEED.pipelines.featureFailed, [
    { name: 'build', build_ids: [CI_SEED.jobs.featureBuild], suite_error: null, cases: [ok('compiles')] },
    {
      name: 'unit-tests',
      build_ids: [CI_SEED.jobs.featureUnitFailed],
      suite_error: null,
      cases: [
        ...Array.from({ length: 41 }, (_, i) => ok(`test ${i + 1} passes`)),
        {
          status: 'failed',
          name: CI_EXTRA_SEED.failingTest,
          classname: 'src/auth/login.test.ts',
          file: CI_EXTRA_SEED.failingFile,
          execution_time: 0.0009,
          system_output:
            'error: expect(received).toThrow(expected)\nExpected substring: "empty user name"\nReceived message: "user required"\n      at login (src/auth/login.ts:2:20)',
          stack_trace: null,
        },
      ],
    },
  ]);
  state.testReports.set(CI_SEED.pipelines.mainSuccess, [
    { name: 'unit-tests', build_ids: [CI_SEED.jobs.unitSuccess], suite_error: null, cases: [ok('compiles')] },
  ]);
  state.artifacts.set(
    CI_SEED.jobs.featureUnitFailed,
    zip([
      {
        path: 'junit.xml',
        data: `<testsuites><testsuite name="unit-tests" tests="42" failures="1"><testcase name="${CI_EXTRA_SEED.failingTest}" classname="src/auth/login.test.ts" file="${CI_EXTRA_SEED.failingFile}"><failure>user required</failure></testcase></testsuite></testsuites>\n`,
      },
      { path: 'test-output/' },
      { path: CI_EXTRA_SEED.outputPath, data: FAILING_OUTPUT },
      { path: 'coverage/' },
      { path: CI_EXTRA_SEED.binaryPath, data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), method: 0 },
    ]),
  );
  const at = (day: number) => new Date(Date.UTC(2024, 0, day, 9, 0)).toISOString();
  state.environments.push(
    {
      id: 11,
      name: 'staging',
      tier: 'staging',
      state: 'available',
      external_url: 'https://staging.example.com',
      on_stop: true,
      created_at: at(10),
      updated_at: at(30),
    },
    {
      id: 12,
      name: 'production',
      tier: 'production',
      state: 'available',
      external_url: 'https://example.com',
      on_stop: false,
      created_at: at(10),
      updated_at: at(31),
    },
  );
  state.deployments.push(
    {
      id: 21,
      iid: 1,
      environment_id: 11,
      ref: 'feature/login',
      sha: featureSha,
      status: 'success',
      job_id: CI_SEED.jobs.featureBuild,
      user_id: 1,
      created_at: at(30),
      updated_at: at(30),
      finished_at: at(30),
    },
    {
      id: 22,
      iid: 2,
      environment_id: 12,
      ref: 'main',
      sha: featureSha,
      status: 'success',
      job_id: CI_SEED.jobs.build,
      user_id: 1,
      created_at: at(31),
      updated_at: at(31),
      finished_at: at(31),
    },
  );
  state.schedules.push({
    id: 31,
    description: 'Nightly build',
    ref: 'main',
    cron: '0 2 * * *',
    cron_timezone: 'UTC',
    next_run_at: '2024-02-01T02:00:00.000Z',
    active: true,
    owner_id: 1,
    created_at: at(10),
    updated_at: at(31),
    last_pipeline_id: CI_SEED.pipelines.mainSuccess,
    variables: [{ key: 'NIGHTLY', value: 'true', variable_type: 'env_var' }],
    played: 0,
  });
  state.ciConfig = CI_CONFIG;
  ciOf(p).pipelines.find((pl) => pl.id === CI_SEED.pipelines.featureFailed)!.variables = [{ key: 'LOGIN_MODE', value: 'strict', variable_type: 'env_var' }];
}
