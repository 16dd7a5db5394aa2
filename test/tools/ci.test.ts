// The ci group through the SDK client: each tool with a success and a forge refusal, validation
// before the network (artifact paths that leave the archive's folder, lint YAML past its bound), job
// artifacts listed from the zip's central directory (never inflated: a bomb lists as its directory
// says; a truncated, non-zip or empty answer is an upstream error), and the group's share of tools/list.
import { bytesPerToolBudget, groupBytesPerTool } from '../../src/tools/listing-size';
import { describe, expect, test } from 'bun:test';
import { CI_EXTRA_SEED, CI_SEED, FAILING_OUTPUT, SEED, TOKENS, ciExtraOf } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';
import { zip } from '../support/zip';
import { ALL_TOOLS } from '../../src/tools/catalog';

const h = useHarness({ FORGE_TOOLSETS: 'ci' });
const P = SEED.projectPath;
const { pipelines: PL, jobs: J } = CI_SEED;
const X = CI_EXTRA_SEED;
type Rec = Record<string, any>;
const project = () => h.forge.model.findProject(P)!;
const call = async (name: string, args: Rec, token?: string) => (await h.as(token)).call(name, args);

describe('get_pipeline_test_report and its summary', () => {
  test('failing tests first, each with suite, name, classname, file and message; passing ones counted', async () => {
    const report = structured<Rec>(await call('get_pipeline_test_report', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(report.total).toEqual({ count: 43, success: 42, failed: 1, skipped: 0, error: 0, time: expect.any(Number) });
    expect(report.failed_tests).toEqual([
      {
        suite: 'unit-tests',
        name: X.failingTest,
        classname: 'src/auth/login.test.ts',
        file: X.failingFile,
        status: 'failed',
        message:
          'error: expect(received).toThrow(expected)\nExpected substring: "empty user name"\nReceived message: "user required"\n      at login (src/auth/login.ts:2:20)',
      },
    ]);
    expect(report.suites).toEqual([
      { name: 'build', count: 1, failed: 0, error: 0 },
      { name: 'unit-tests', count: 42, failed: 1, error: 0 },
    ]);
    const full = structured<Rec>(await call('get_pipeline_test_report', { project_id: P, pipeline_id: PL.featureFailed, full_response: true }));
    expect(full.test_suites[1].test_cases).toHaveLength(42);
  });

  test('a failure message is cut to its budget, its end kept; escape codes removed', async () => {
    const suite = ciExtraOf(project()).testReports.get(PL.featureFailed)![1];
    suite.cases.at(-1)!.system_output = `\x1b[31m${'x'.repeat(10_000)}\x1b[0m\nAssertionError: the end`;
    const report = structured<Rec>(await call('get_pipeline_test_report', { project_id: P, pipeline_id: PL.featureFailed }));
    const message: string = report.failed_tests[0].message;
    expect(message.length).toBeLessThan(1_600);
    expect(message.endsWith('AssertionError: the end')).toBe(true);
    expect(message).not.toContain('\x1b');
  });

  test('the summary gives counts per suite and their jobs; an unknown pipeline is not_found', async () => {
    const summary = structured<Rec>(await call('get_pipeline_test_report_summary', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(summary.total).toMatchObject({ count: 43, failed: 1 });
    expect(summary.suites[1]).toEqual({ name: 'unit-tests', count: 42, failed: 1, error: 0, build_ids: [J.featureUnitFailed] });
    expect(toolError(await call('get_pipeline_test_report_summary', { project_id: P, pipeline_id: 9999 })).kind).toBe('not_found');
    expect(toolError(await call('get_pipeline_test_report', { project_id: P, pipeline_id: 9999 })).kind).toBe('not_found');
  });
});

describe('list_job_artifacts', () => {
  test('lists the root, a folder, or everything; sizes from the directory', async () => {
    const root = structured<Rec>(await call('list_job_artifacts', { project_id: P, job_id: J.featureUnitFailed }));
    expect(root.files).toEqual([
      { path: 'junit.xml', type: 'file', size: expect.any(Number) },
      { path: 'test-output/', type: 'directory' },
      { path: 'coverage/', type: 'directory' },
    ]);
    expect(root.entries).toBe(5);
    const folder = structured<Rec>(await call('list_job_artifacts', { project_id: P, job_id: J.featureUnitFailed, path: 'test-output' }));
    expect(folder.files).toEqual([{ path: X.outputPath, type: 'file', size: new TextEncoder().encode(FAILING_OUTPUT).length }]);
    const all = structured<Rec>(await call('list_job_artifacts', { project_id: P, job_id: J.featureUnitFailed, recursive: true }));
    expect(all.files.map((f: Rec) => f.path)).toEqual(['junit.xml', 'test-output/', X.outputPath, 'coverage/', X.binaryPath]);
  });

  test('folders the archive does not list are shown from the files inside them', async () => {
    ciExtraOf(project()).artifacts.set(
      J.build,
      zip([
        { path: 'dist/app.js', data: 'x' },
        { path: 'dist/lib/a.js', data: 'y' },
        { path: 'README', data: 'z' },
      ]),
    );
    expect(structured<Rec>(await call('list_job_artifacts', { project_id: P, job_id: J.build })).files).toEqual([
      { path: 'dist/', type: 'directory' },
      { path: 'README', type: 'file', size: 1 },
    ]);
    expect(structured<Rec>(await call('list_job_artifacts', { project_id: P, job_id: J.build, path: 'dist' })).files).toEqual([
      { path: 'dist/app.js', type: 'file', size: 1 },
      { path: 'dist/lib/', type: 'directory' },
    ]);
  });

  test('a job without artifacts is not_found', async () => {
    expect(toolError(await call('list_job_artifacts', { project_id: P, job_id: J.build })).kind).toBe('not_found');
  });

  test('a zip bomb lists as its directory declares, nothing inflated', async () => {
    ciExtraOf(project()).artifacts.set(J.build, zip([{ path: 'bomb.txt', data: 'a'.repeat(1000), declaredSize: 4_000_000_000 }]));
    const listed = structured<Rec>(await call('list_job_artifacts', { project_id: P, job_id: J.build }));
    expect(listed.files).toEqual([{ path: 'bomb.txt', type: 'file', size: 4_000_000_000 }]);
  });

  test.each([
    ['not a zip', new TextEncoder().encode('<html>login</html>'), 'not a zip archive'],
    ['empty', new Uint8Array(), 'it is empty'],
    ['truncated', zip([{ path: 'a.txt', data: 'hello' }]).subarray(0, 40), 'not a zip archive, or it was cut short'],
  ])('an archive that is %s is an upstream error', async (_, bytes, words) => {
    ciExtraOf(project()).artifacts.set(J.build, bytes as Uint8Array);
    const error = toolError(await call('list_job_artifacts', { project_id: P, job_id: J.build }));
    expect(error.kind).toBe('upstream');
    expect(error.message).toContain(words);
  });

  test('a damaged directory is an upstream error, not a crash', async () => {
    const archive = zip([
      { path: 'a.txt', data: 'hello' },
      { path: 'b.txt', data: 'world' },
    ]);
    const view = new DataView(archive.buffer);
    // The end record says the directory is larger than it is.
    view.setUint32(archive.length - 22 + 12, view.getUint32(archive.length - 22 + 12, true) + 7, true);
    ciExtraOf(project()).artifacts.set(J.build, archive);
    expect(toolError(await call('list_job_artifacts', { project_id: P, job_id: J.build })).kind).toBe('upstream');
  });
});

describe('get_job_artifact_file', () => {
  test('reads a text file by path, with line numbers', async () => {
    const file = structured<Rec>(await call('get_job_artifact_file', { project_id: P, job_id: J.featureUnitFailed, artifact_path: X.outputPath }));
    expect(file.content).toBe(FAILING_OUTPUT.trimEnd());
    expect([file.first_line, file.last_line, file.total_lines]).toEqual([1, 13, 13]);
    expect(h.toolUpstream()).toContain(`GET /api/v4/projects/${SEED.projectPathEncoded}/jobs/${J.featureUnitFailed}/artifacts/test-output/login.test.txt`);
    const range = structured<Rec>(
      await call('get_job_artifact_file', { project_id: P, job_id: J.featureUnitFailed, artifact_path: X.outputPath, start_line: 11, limit: 1 }),
    );
    expect(range.content).toBe('      at login (src/auth/login.ts:2:20)');
    expect(range.truncated).toBe(true);
  });

  test('a binary file is described, not returned', async () => {
    const file = structured<Rec>(await call('get_job_artifact_file', { project_id: P, job_id: J.featureUnitFailed, artifact_path: X.binaryPath }));
    expect(file).toMatchObject({ binary: true });
    expect(file.content).toBeUndefined();
  });

  test('a path the archive does not hold is not_found', async () => {
    expect(toolError(await call('get_job_artifact_file', { project_id: P, job_id: J.featureUnitFailed, artifact_path: 'nope.txt' })).kind).toBe('not_found');
  });

  test.each([
    '../../../etc/passwd',
    'test-output/../../secrets',
    '/etc/passwd',
    'a//b',
    '..',
    '.',
    'test-output/./x',
    '%2e%2e/secret',
    '..%2fsecret',
    '%2E%2E%2Fsecret',
    'a/%2e%2e/b',
    '..\\secret',
    'a/b\u0000',
    '\uff0e\uff0e/secret',
  ])('refuses %j before the network', async (artifact_path) => {
    const error = toolError(await call('get_job_artifact_file', { project_id: P, job_id: J.featureUnitFailed, artifact_path }));
    expect([artifact_path, error.kind]).toEqual([artifact_path, 'validation']);
    expect(h.toolUpstream()).toEqual([]);
  });
});

describe('CI lint', () => {
  test("validate_project_ci_lint checks the project's configuration; merged YAML only on request", async () => {
    const result = structured<Rec>(await call('validate_project_ci_lint', { project_id: P }));
    expect(result).toEqual({ valid: true, errors: [], warnings: [] });
    const merged = structured<Rec>(
      await call('validate_project_ci_lint', { project_id: P, content_ref: 'feature/login', include_merged_yaml: true, include_jobs: true }),
    );
    expect(merged.merged_yaml).toContain('unit-tests:');
    expect(merged.jobs).toEqual([
      { name: 'build', stage: 'build' },
      { name: 'unit-tests', stage: 'test' },
    ]);
    expect(toolError(await call('validate_project_ci_lint', { project_id: P, content_ref: 'no-such-ref' })).kind).toBe('not_found');
  });

  test('before GitLab 16.10, content_ref goes as sha, which that release reads (it would drop content_ref and lint the default branch)', async () => {
    h.forge.model.version = '16.7.0';
    expect(toolError(await call('validate_project_ci_lint', { project_id: P, content_ref: 'no-such-ref' })).kind).toBe('not_found');
    expect(h.forge.requests.filter((r) => r.path.endsWith('/ci/lint')).map((r) => Object.fromEntries(r.query))).toEqual([{ sha: 'no-such-ref' }]);
    h.forge.model.version = '17.6.0';
    h.app.instances.clear();
    h.forge.requests.length = 0;
    expect(toolError(await call('validate_project_ci_lint', { project_id: P, content_ref: 'no-such-ref' })).kind).toBe('not_found');
    expect(h.forge.requests.filter((r) => r.path.endsWith('/ci/lint')).map((r) => Object.fromEntries(r.query))).toEqual([{ content_ref: 'no-such-ref' }]);
  });

  test("validate_ci_lint gives GitLab's errors; a guest is refused", async () => {
    const result = structured<Rec>(await call('validate_ci_lint', { project_id: P, content: 'build:\n  stage: build\n' }));
    expect(result).toEqual({ valid: false, errors: ['jobs:build config should implement the script:, run:, or trigger: keyword'], warnings: [] });
    expect(toolError(await call('validate_ci_lint', { project_id: P, content: 'a: 1' }, TOKENS.guest)).kind).toBe('permission');
  });

  test('YAML of 1 MB is sent and answered; past it, refused before the network', async () => {
    const big = `build:\n  script: echo\n${'# padding\n'.repeat(99_990)}`;
    expect(big.length).toBeLessThanOrEqual(1_000_000);
    expect(structured<Rec>(await call('validate_ci_lint', { project_id: P, content: big })).valid).toBe(true);
    h.forge.requests.length = 0;
    const error = toolError(await call('validate_ci_lint', { project_id: P, content: `${big}${'#'.repeat(1_000)}` }));
    expect(error.kind).toBe('validation');
    expect(h.toolUpstream()).toEqual([]);
  });

  test("deeply nested YAML: the server does not parse it; GitLab's answer comes back bounded", async () => {
    const deep = `build:\n  script: echo\n  variables:\n${Array.from({ length: 500 }, (_, i) => `${'  '.repeat(i + 2)}k${i}:`).join('\n')} 1\n`;
    const result = structured<Rec>(await call('validate_ci_lint', { project_id: P, content: deep, include_merged_yaml: true }));
    expect(result).toEqual({ valid: false, errors: ['The parsed YAML is too big'], warnings: [] });
  });
});

describe('environments and deployments', () => {
  test('list and get environments, lean; name and search together refused before the network', async () => {
    const page = structured<Rec>(await call('list_environments', { project_id: P, states: 'available' }));
    expect(page.items.map((e: Rec) => e.name)).toEqual(['staging', 'production']);
    expect(page.items[0].last_deployment).toMatchObject({ id: X.deployments.staging, ref: 'feature/login', status: 'success' });
    expect(page.items[0].slug).toBeUndefined();
    const env = structured<Rec>(await call('get_environment', { project_id: P, environment_id: X.environments.production }));
    expect(env).toMatchObject({ name: 'production', tier: 'production', state: 'available' });
    expect(toolError(await call('get_environment', { project_id: P, environment_id: 999 })).kind).toBe('not_found');
    expect(toolError(await call('list_environments', { project_id: P, name: 'a', search: 'b' })).kind).toBe('validation');
    expect(h.toolUpstream().filter((r) => r.includes('?name=a'))).toEqual([]);
  });

  test('stop_environment: its on_stop job runs (stopping) unless forced; a guest is refused', async () => {
    expect(toolError(await call('stop_environment', { project_id: P, environment_id: X.environments.staging }, TOKENS.guest)).kind).toBe('permission');
    expect(structured<Rec>(await call('stop_environment', { project_id: P, environment_id: X.environments.staging })).state).toBe('stopping');
    expect(structured<Rec>(await call('stop_environment', { project_id: P, environment_id: X.environments.production, force: true })).state).toBe('stopped');
  });

  test('list and get deployments, filtered by environment', async () => {
    const page = structured<Rec>(await call('list_deployments', { project_id: P, environment: 'production' }));
    expect(page.items.map((d: Rec) => d.id)).toEqual([X.deployments.production]);
    expect(page.items[0]).toMatchObject({ environment: 'production', job: { id: J.build, name: 'build' } });
    expect(structured<Rec>(await call('get_deployment', { project_id: P, deployment_id: X.deployments.staging })).sha).toBe(SEED.featureShas[1]);
    expect(toolError(await call('get_deployment', { project_id: P, deployment_id: 999 })).kind).toBe('not_found');
  });

  test('an updated_at filter needs updated_at order, as GitLab pairs them: refused before the network otherwise', async () => {
    const direct = await fetch(`${h.forge.apiUrl}/projects/${SEED.projectPathEncoded}/deployments?updated_after=2024-01-31T00:00:00Z`, {
      headers: { 'private-token': TOKENS.maintainer },
    });
    expect(direct.status).toBe(400);
    h.forge.requests.length = 0;
    expect(toolError(await call('list_deployments', { project_id: P, updated_after: '2024-01-31T00:00:00Z' })).kind).toBe('validation');
    expect(h.toolUpstream()).toEqual([]);
    const page = structured<Rec>(await call('list_deployments', { project_id: P, updated_after: '2024-01-31T00:00:00Z', order_by: 'updated_at' }));
    expect(page.items.map((d: Rec) => d.id)).toEqual([X.deployments.production]);
  });
});

describe('pipeline schedules and variables', () => {
  test('list, get and play a schedule; a guest cannot play it', async () => {
    const page = structured<Rec>(await call('list_pipeline_schedules', { project_id: P, scope: 'active' }));
    expect(page.items).toEqual([expect.objectContaining({ id: X.schedule, cron: '0 2 * * *', ref: 'main', active: true })]);
    const one = structured<Rec>(await call('get_pipeline_schedule', { project_id: P, pipeline_schedule_id: X.schedule }));
    expect(one.last_pipeline).toEqual({ id: PL.mainSuccess, status: 'success' });
    expect(toolError(await call('play_pipeline_schedule', { project_id: P, pipeline_schedule_id: X.schedule }, TOKENS.guest)).kind).toBe('permission');
    expect(structured<Rec>(await call('play_pipeline_schedule', { project_id: P, pipeline_schedule_id: X.schedule }))).toEqual({ message: '201 Created' });
    expect(ciExtraOf(project()).schedules[0].played).toBe(1);
  });

  test('list_pipeline_variables for a developer; a guest is refused', async () => {
    const vars = structured<Rec>(await call('list_pipeline_variables', { project_id: P, pipeline_id: PL.featureFailed }));
    expect(vars.items ?? vars).toEqual([{ key: 'LOGIN_MODE', value: 'strict' }]);
    expect(toolError(await call('list_pipeline_variables', { project_id: P, pipeline_id: PL.featureFailed }, TOKENS.guest)).kind).toBe('permission');
  });
});

describe('the group in tools/list', () => {
  const group = ALL_TOOLS.filter((t) => t.group === 'ci');
  // D40 replaced the 12 KB per group with 1.3 times the group's bytes per tool at 868e772.
  test('stays within its tools/list budget per tool (D40)', () => {
    expect(groupBytesPerTool('ci')).toBeLessThanOrEqual(bytesPerToolBudget('ci'));
  });
  test('FORGE_TOOLSETS=ci lists exactly the group; the writes are stop_environment and play_pipeline_schedule', async () => {
    const { tools } = await (await h.as()).client.listTools();
    expect(tools.map((t) => t.name)).toEqual(group.map((t) => t.name));
    expect(tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name)).toEqual(['stop_environment', 'play_pipeline_schedule']);
  });
});
