// Result size (D33): a fixed set of calls against a stub forge serving records shaped as GitLab
// sends them (test/fixtures/gitlab-records.ts: every field of GitLab's API entities), through the
// SDK client on the modern lane: text bytes of each result, lean (default) and with
// full_response, beside the forge's own JSON for the same call. Deterministic: run it once.
//   bun run bench/result-size.ts [--markdown]
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { connect, MCP_URL } from '../test/support/mcp-client';
import {
  gitlabBranch, gitlabCommit, gitlabDeployment, gitlabDiscussion, gitlabEnvironment, gitlabIssue, gitlabMilestone, gitlabPipelineSchedule, gitlabTodo, GITLAB_RECORDS,
} from '../test/fixtures/gitlab-records';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const labels = [['bug', 'auth'], ['feature'], ['bug', 'ui', 'regression'], [], ['docs']];
const issues = range(20).map((i) => gitlabIssue(i, { labels: labels[i % labels.length], description: `Issue ${i}: ${'Details of what happens and what should. '.repeat(2 + (i % 4))}` }));
/** A TestReportEntity of 3 suites, 200 test cases, 4 failing with their output. */
function testReport() {
  const testCase = (n: number, failed: boolean) => ({
    status: failed ? 'failed' : 'success', name: `case ${n} ${failed ? 'rejects bad input' : 'works'}`, classname: `spec.session_${n % 7}_spec`, file: `./spec/session_${n % 7}_spec.rb`,
    execution_time: 0.0123, system_output: failed ? `Failure/Error: expect(session).to be_expired\n  expected true, got false\n# ./spec/session_${n % 7}_spec.rb:${10 + n}` : null,
    stack_trace: null, recent_failures: failed ? { count: 2, base_branch: 'main' } : null, attachment_url: null,
  });
  const suite = (name: string, from: number) => {
    const cases = range(67).map((i) => testCase(from + i, (from + i) % 50 === 0));
    const failed = cases.filter((c) => c.status === 'failed').length;
    return { name, total_time: 0.82, total_count: cases.length, success_count: cases.length - failed, failed_count: failed, skipped_count: 0, error_count: 0, suite_error: null, test_cases: cases };
  };
  const suites = [suite('rspec', 0), suite('rspec-ee', 67), suite('jest', 134)];
  return { total_time: 2.46, total_count: 201, success_count: 197, failed_count: 4, skipped_count: 0, error_count: 0, test_suites: suites };
}

const pages: Record<string, unknown> = {
  '/projects/5/issues/42': gitlabIssue(42),
  '/projects/5/issues': issues,
  '/projects/5/issues/42/discussions': range(6).map(gitlabDiscussion),
  '/projects/5/repository/branches': range(20).map((i) => gitlabBranch(i === 1 ? 'main' : `feature/change-${i}`, i)),
  '/projects/5/repository/commits': range(20).map((i) => gitlabCommit(i)),
  '/projects/5/milestones': range(10).map((i) => ({ ...gitlabMilestone(10 + i, i), title: `v2.${i}` })),
  [`/projects/5/repository/commits/${gitlabCommit(1).id}`]: GITLAB_RECORDS.commit,
  '/todos': range(20).map((i) => gitlabTodo(100 + i)),
  '/user': { id: 1, username: 'maria', name: 'Maria Jones' },
  '/projects/5/environments': range(10).map((i) => ({ ...gitlabEnvironment(i), name: `review/feature-${i}`, slug: `review-feature-${i}` })),
  '/projects/5/deployments': range(20).map((i) => gitlabDeployment(400 + i, i)),
  // The list presents Entities::Ci::PipelineSchedule: no last_pipeline, no variables.
  '/projects/5/pipeline_schedules': range(10).map((i) => {
    const { last_pipeline: _, variables: __, ...schedule } = gitlabPipelineSchedule(i);
    return schedule;
  }),
  '/projects/5/pipelines/9001/test_report': testReport(),
};
const bodies = new Map(Object.entries(pages).map(([path, value]) => [`/api/v4${path}`, JSON.stringify(value)]));

const stub = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const body = bodies.get(new URL(request.url).pathname);
    if (body === undefined) return new Response('{"message":"404 Not found"}', { status: 404 });
    const list = body.startsWith('[');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (list) Object.assign(headers, { 'x-page': '1', 'x-per-page': '20', 'x-next-page': '2', 'x-total': '57', 'x-total-pages': '3' });
    return new Response(body, { headers });
  },
});
const apiUrl = `http://127.0.0.1:${stub.port}/api/v4`;
const app = createApp(loadConfig({ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: apiUrl, LOG_LEVEL: 'error', FORGE_TOOLSETS: 'all' }));
const client = await connect(app, { 'Private-Token': 'glpat-result-size-000000' }, MCP_URL, { lane: 'modern' });

const P = { project_id: '5' };
const calls: [string, string, Record<string, unknown>, string][] = [
  ['get_issue', 'single', { ...P, issue_iid: 42 }, '/projects/5/issues/42'],
  ['list_issues (20)', 'list', { ...P, scope: 'all', per_page: 20 }, '/projects/5/issues'],
  ['list_issue_discussions (6 threads, 12 notes)', 'list', { ...P, issue_iid: 42 }, '/projects/5/issues/42/discussions'],
  ['list_branches (20)', 'list', P, '/projects/5/repository/branches'],
  ['list_commits (20)', 'list', P, '/projects/5/repository/commits'],
  ['list_milestones (10)', 'list', P, '/projects/5/milestones'],
  ['get_commit', 'single', { ...P, sha: gitlabCommit(1).id }, `/projects/5/repository/commits/${gitlabCommit(1).id}`],
  ['list_todos (20)', 'list', {}, '/todos'],
  ['list_environments (10)', 'list', P, '/projects/5/environments'],
  ['list_deployments (20)', 'list', P, '/projects/5/deployments'],
  ['list_pipeline_schedules (10)', 'list', P, '/projects/5/pipeline_schedules'],
  ['get_pipeline_test_report (201 cases, 4 failing)', 'list', { ...P, pipeline_id: 9001 }, '/projects/5/pipelines/9001/test_report'],
];

const text = (r: { content?: unknown }) => (r.content as { text: string }[])[0].text;
const rows: string[] = [];
let failed = false;
for (const [label, kind, args, path] of calls) {
  const name = label.split(' ')[0];
  const lean = await client.call(name, args);
  const full = await client.call(name, { ...args, full_response: true });
  if (lean.isError || full.isError) throw new Error(`${name}: ${text(lean)} / ${text(full)}`);
  const forgeBytes = Buffer.byteLength(bodies.get(`/api/v4${path}`)!);
  const leanBytes = Buffer.byteLength(text(lean));
  const fullBytes = Buffer.byteLength(text(full));
  const ratio = leanBytes / forgeBytes;
  const target = kind === 'list' ? 0.5 : 0.6;
  if (ratio > target) failed = true;
  rows.push(`| ${label} | ${forgeBytes} | ${fullBytes} | ${leanBytes} | ${(ratio * 100).toFixed(0)}% | ≤ ${target * 100}% ${ratio <= target ? 'met' : 'MISSED'} |`);
}
console.log('| call | forge JSON bytes | full_response text bytes | lean text bytes | lean / forge | target |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
await client.close();
await app.close();
stub.stop(true);
process.exit(failed ? 1 : 0);
