// Why did my merge request's pipeline fail, on the modern lane, with every group on: the merge
// request's last pipeline failed → its failed jobs → the test report's failing test → the artifact
// file holding that test's output → the file and line in the repository. Each step uses only what
// the previous one returned.
import { describe, expect, test } from 'bun:test';
import { CI_EXTRA_SEED, SEED } from './support/fake-forge';
import { MR_SEED } from './support/fake-forge/seed-merge-requests';
import { useHarness } from './support/harness';
import { structured } from './support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
type Rec = Record<string, any>;

describe('a failed merge request pipeline, explained on the modern lane', () => {
  test('pipeline → failed job → failing test → its output in the artifacts → the line in the repository', async () => {
    const agent = await h.on('modern');
    const project = SEED.projectPath;

    // 1. The merge request's last pipeline, and that it failed.
    const pipelines = structured<{ items: Rec[] }>(
      await agent.call('list_merge_request_pipelines', { project_id: project, merge_request_iid: MR_SEED.reviewIid }),
    );
    const last = pipelines.items[0];
    expect(last.status).toBe('failed');

    // 2. Its failed jobs.
    const jobs = structured<{ items: Rec[] }>(await agent.call('list_pipeline_jobs', { project_id: project, pipeline_id: last.id, scope: 'failed' }));
    expect(jobs.items.map((j) => j.name)).toEqual(['unit-tests']);
    const job = jobs.items[0];

    // 3. The test report's failing test, from the failed job's suite.
    const report = structured<Rec>(await agent.call('get_pipeline_test_report', { project_id: project, pipeline_id: last.id }));
    const failing = report.failed_tests.find((t: Rec) => t.suite === job.name);
    expect(failing).toMatchObject({ name: CI_EXTRA_SEED.failingTest, file: CI_EXTRA_SEED.failingFile });

    // 4. The artifact file holding that test's output: the one named after the test file.
    const artifacts = structured<Rec>(await agent.call('list_job_artifacts', { project_id: project, job_id: job.id, recursive: true }));
    const base = failing.file
      .split('/')
      .at(-1)
      .replace(/\.[^.]+$/, '');
    const output = artifacts.files.find((f: Rec) => f.type === 'file' && f.path.includes(base));
    expect(output.path).toBe(CI_EXTRA_SEED.outputPath);
    const file = structured<Rec>(await agent.call('get_job_artifact_file', { project_id: project, job_id: job.id, artifact_path: output.path }));
    expect(file.content).toContain(failing.name);

    // 5. The first frame outside the test file: the file and line in the repository, at the pipeline's commit.
    const frame = /at \S+ \((?<path>[^():]+):(?<line>\d+):\d+\)/.exec(file.content)!.groups!;
    expect(frame).toEqual({ path: CI_EXTRA_SEED.sourceFile, line: String(CI_EXTRA_SEED.sourceLine) });
    const source = structured<Rec>(
      await agent.call('get_file_contents', {
        project_id: project,
        file_path: frame.path,
        ref: last.sha,
        start_line: Number(frame.line),
        end_line: Number(frame.line),
      }),
    );
    expect(source.content).toBe('  if (!user) throw new Error("user required");\n');
    await agent.close();
  });
});
