// Result size (D33): a fixed set of calls against a stub forge serving records shaped as GitLab
// sends them (test/fixtures/gitlab-records.ts: every field of GitLab's API entities), through the
// SDK client on the modern lane: text bytes of each result, lean (default) and with
// full_response, beside the forge's own JSON for the same call. Deterministic: run it once.
//   bun run bench/result-size.ts [--markdown]
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/load';
import { connect, MCP_URL } from '../test/support/mcp-client';
import {
  gitlabBranch,
  gitlabCommit,
  gitlabDeployment,
  gitlabDiscussion,
  gitlabEnvironment,
  gitlabIssue,
  gitlabMergeRequest,
  gitlabMilestone,
  gitlabPipelineSchedule,
  gitlabTodo,
  gitlabVariable,
  GITLAB_RECORDS,
} from '../test/fixtures/gitlab-records';
import { DISCOVERY_RECORDS, gitlabGroup, gitlabProject } from '../test/fixtures/gitlab-discovery-records';
import { gitlabRelease, gitlabReleaseLink, gitlabTag, gitlabWikiPageBasic } from '../test/fixtures/gitlab-release-records';
import { gitlabWorkItem } from '../test/fixtures/gitlab-work-item-records';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const { open_issues_count: _o, closed_issues_count: _c, open_merge_requests_count: _m, ...labelWithoutCounts } = DISCOVERY_RECORDS.label;
const gitlabUserBasic = (i: number) => ({
  id: i,
  username: `user${i}`,
  name: `User ${i}`,
  state: 'active',
  locked: false,
  avatar_url: `https://secure.gravatar.com/avatar/${'2'.repeat(24)}${i}?s=80&d=identicon`,
  web_url: `https://gitlab.example.com/user${i}`,
});
const labels = [['bug', 'auth'], ['feature'], ['bug', 'ui', 'regression'], [], ['docs']];
const issues = range(20).map((i) =>
  gitlabIssue(i, { labels: labels[i % labels.length], description: `Issue ${i}: ${'Details of what happens and what should. '.repeat(2 + (i % 4))}` }),
);
/** A TestReportEntity of 3 suites, 200 test cases, 4 failing with their output. */
function testReport() {
  const testCase = (n: number, failed: boolean) => ({
    status: failed ? 'failed' : 'success',
    name: `case ${n} ${failed ? 'rejects bad input' : 'works'}`,
    classname: `spec.session_${n % 7}_spec`,
    file: `./spec/session_${n % 7}_spec.rb`,
    execution_time: 0.0123,
    system_output: failed ? `Failure/Error: expect(session).to be_expired\n  expected true, got false\n# ./spec/session_${n % 7}_spec.rb:${10 + n}` : null,
    stack_trace: null,
    recent_failures: failed ? { count: 2, base_branch: 'main' } : null,
    attachment_url: null,
  });
  const suite = (name: string, from: number) => {
    const cases = range(67).map((i) => testCase(from + i, (from + i) % 50 === 0));
    const failed = cases.filter((c) => c.status === 'failed').length;
    return {
      name,
      total_time: 0.82,
      total_count: cases.length,
      success_count: cases.length - failed,
      failed_count: failed,
      skipped_count: 0,
      error_count: 0,
      suite_error: null,
      test_cases: cases,
    };
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
  // Half masked, one in three protected, a few scoped and described: a typical project's variables.
  '/projects/5/variables': range(20).map((i) =>
    gitlabVariable(i, {
      masked: i % 2 === 0,
      protected: i % 3 === 0,
      environment_scope: i % 5 === 0 ? 'production' : '*',
      description: i % 4 === 0 ? `Used by the deploy job ${i}` : null,
    }),
  ),
  '/projects/5/merge_requests/17/commits': range(20).map((i) => gitlabCommit(i)),
  '/projects/5/merge_requests/17/closes_issues': range(5).map((i) => gitlabIssue(40 + i)),
  '/projects/5/issues/42/related_merge_requests': range(5).map((i) => gitlabMergeRequest(10 + i)),
  '/user': { id: 1, username: 'maria', name: 'Maria Jones' },
  // The discovery groups (issue 36).
  '/projects/acme%2Fplatform%2Fservice-1': gitlabProject(101, 'service-1'),
  '/projects': range(20).map((i) => gitlabProject(100 + i, `service-${i}`)),
  '/groups': range(20).map((i) => ({ ...gitlabGroup(200 + i, `team-${i}`), name: `Team ${i}` })),
  '/namespaces': range(10).map((i) => ({ ...DISCOVERY_RECORDS.namespace, id: 300 + i, path: `team-${i}`, full_path: `acme/team-${i}`, name: `Team ${i}` })),
  '/projects/5/members/all': range(20).map((i) => ({
    ...DISCOVERY_RECORDS.member,
    id: i,
    username: `user${i}`,
    name: `User ${i}`,
    access_level: [10, 20, 30, 40][i % 4],
  })),
  '/users': range(20).map((i) => ({ ...gitlabUserBasic(i) })),
  '/projects/5/events': range(20).map((i) => ({ ...DISCOVERY_RECORDS.event, id: 4400 + i })),
  // Without with_counts GitLab sends no counts.
  '/projects/5/labels': range(20).map((i) => ({
    ...labelWithoutCounts,
    id: 300 + i,
    name: `area/${i}`,
    description: `Work on area ${i}`,
    priority: i % 3 ? null : i,
  })),
  '/projects/5/search': range(20).map((i) => ({
    ...DISCOVERY_RECORDS.code_hit,
    path: `src/session-${i}.ts`,
    filename: `src/session-${i}.ts`,
    basename: `src/session-${i}`,
    startline: 10 + i,
  })),
  '/projects/5/repository/tags': range(20).map((i) => gitlabTag(`v2.${i}.0`, gitlabCommit(i))),
  '/projects/5/releases': range(20).map((i) =>
    gitlabRelease(`v2.${i}.0`, gitlabCommit(i), GITLAB_RECORDS.release.author as Record<string, unknown>, gitlabMilestone(10 + i, i)),
  ),
  // One link in four has no direct asset path: GitLab then gives its url as direct_asset_url too.
  '/projects/5/releases/v2.4.0/assets/links': range(20).map((i) => {
    const link = gitlabReleaseLink(i + 1);
    return i % 4 === 3 ? { ...link, direct_asset_url: link.url, link_type: 'other' } : link;
  }),
  // GitLab lists a whole wiki at once (lib/api/wikis.rb has no pagination): 20 pages, no content.
  '/projects/5/wikis': range(20).map((i) => gitlabWikiPageBasic(i % 2 ? `guides/deploy-step-${i}` : `runbooks/service-${i}/on-call`)),
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
// GraphQL answers (issue 39), by operation name: a page of 20 work items and one whole, as GitLab
// answers the tools' documents; /metadata says an Enterprise 18.2, so the documents ask for every widget.
const cursor = { hasNextPage: true, endCursor: 'eyJjcmVhdGVkX2F0IjoiMjAyNi0xMS0wMiAwOToxNDowNy4wMDAwMDAwMDAgKzAwMDAiLCJpZCI6IjEwMjAifQ' };
const graphql: Record<string, unknown> = {
  listWorkItems: {
    data: {
      project: { workItems: { count: 57, pageInfo: cursor, nodes: range(20).map((i) => gitlabWorkItem(i, { labels: labels[i % labels.length] })) } },
      group: null,
    },
  },
  getWorkItem: { data: { workItem: gitlabWorkItem(12, { whole: true }) } },
};
bodies.set('/api/v4/metadata', JSON.stringify({ version: '18.2.0-ee', revision: 'abc', kas: { enabled: false }, enterprise: true }));
for (const [operation, answer] of Object.entries(graphql)) bodies.set(`graphql:${operation}`, JSON.stringify(answer));

const stub = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const pathname = new URL(request.url).pathname;
    const body =
      pathname === '/api/graphql' ? bodies.get(`graphql:${((await request.json()) as { operationName: string }).operationName}`) : bodies.get(pathname);
    if (body === undefined) return new Response('{"message":"404 Not found"}', { status: 404 });
    const list = body.startsWith('[');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (list) Object.assign(headers, { 'x-page': '1', 'x-per-page': '20', 'x-next-page': '2', 'x-total': '57', 'x-total-pages': '3' });
    return new Response(body, { headers });
  },
});
const apiUrl = `http://127.0.0.1:${stub.port}/api/v4`;
const app = createApp(
  loadConfig({
    STREAMABLE_HTTP: 'true',
    REMOTE_AUTHORIZATION: 'true',
    FORGE_API_URL: apiUrl,
    LOG_LEVEL: 'error',
    FORGE_TOOLSETS: 'all,variables',
    MAX_REQUESTS_PER_MINUTE: '1000',
  }),
);
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
  ['list_projects (20)', 'list', {}, '/projects'],
  ['get_project', 'single', { project_id: 'acme/platform/service-1' }, '/projects/acme%2Fplatform%2Fservice-1'],
  ['list_groups (20)', 'list', {}, '/groups'],
  ['list_namespaces (10)', 'list', {}, '/namespaces'],
  ['list_project_members (20)', 'list', P, '/projects/5/members/all'],
  ['get_users (20)', 'list', { search: 'user' }, '/users'],
  ['get_project_events (20)', 'list', P, '/projects/5/events'],
  ['list_labels (20)', 'list', P, '/projects/5/labels'],
  ['search_code (20 hits)', 'list', { ...P, search: 'store' }, '/projects/5/search'],
  ['list_tags (20)', 'list', P, '/projects/5/repository/tags'],
  ['list_releases (20)', 'list', P, '/projects/5/releases'],
  ['list_release_links (20)', 'list', { ...P, tag_name: 'v2.4.0' }, '/projects/5/releases/v2.4.0/assets/links'],
  ['list_wiki_pages (20)', 'list', P, '/projects/5/wikis'],
  ['list_project_variables (20)', 'list', P, '/projects/5/variables'],
  ['list_merge_request_commits (20)', 'list', { ...P, merge_request_iid: 17 }, '/projects/5/merge_requests/17/commits'],
  ['list_merge_request_closes_issues (5)', 'list', { ...P, merge_request_iid: 17 }, '/projects/5/merge_requests/17/closes_issues'],
  ['list_issue_related_merge_requests (5)', 'list', { ...P, issue_iid: 42 }, '/projects/5/issues/42/related_merge_requests'],
  ['list_environments (10)', 'list', P, '/projects/5/environments'],
  ['list_deployments (20)', 'list', P, '/projects/5/deployments'],
  ['list_pipeline_schedules (10)', 'list', P, '/projects/5/pipeline_schedules'],
  ['get_pipeline_test_report (201 cases, 4 failing)', 'list', { ...P, pipeline_id: 9001 }, '/projects/5/pipelines/9001/test_report'],
  ['list_work_items (20)', 'list', { namespace_path: 'acme/platform/api' }, 'graphql:listWorkItems'],
  ['get_work_item', 'single', { id: 'gid://gitlab/WorkItem/1012' }, 'graphql:getWorkItem'],
];

const text = (r: { content?: unknown }) => (r.content as { text: string }[])[0].text;
const rows: string[] = [];
let failed = false;
for (const [label, kind, args, path] of calls) {
  const name = label.split(' ')[0];
  const lean = await client.call(name, args);
  const full = await client.call(name, { ...args, full_response: true });
  if (lean.isError || full.isError) throw new Error(`${name}: ${text(lean)} / ${text(full)}`);
  const forgeBytes = Buffer.byteLength(bodies.get(path.startsWith('graphql:') ? path : `/api/v4${path}`)!);
  const leanBytes = Buffer.byteLength(text(lean));
  const fullBytes = Buffer.byteLength(text(full));
  const ratio = leanBytes / forgeBytes;
  const target = kind === 'list' ? 0.5 : 0.6;
  if (ratio > target) failed = true;
  rows.push(
    `| ${label} | ${forgeBytes} | ${fullBytes} | ${leanBytes} | ${(ratio * 100).toFixed(0)}% | ≤ ${target * 100}% ${ratio <= target ? 'met' : 'MISSED'} |`,
  );
}
console.log('| call | forge JSON bytes | full_response text bytes | lean text bytes | lean / forge | target |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
await client.close();
await app.close();
stub.stop(true);
process.exit(failed ? 1 : 0);
