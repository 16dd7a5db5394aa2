// Arguments with which every tool succeeds against the fake forge's seed (test/support/fake-forge/),
// for tests that call every tool (test/output-schemas.test.ts). Each call runs on a freshly reset
// forge, so a write may change or delete what the seed holds.
import { CI_SEED } from './fake-forge/model-ci';
import type { ForgeModel } from './fake-forge/model';
import { CI_EXTRA_SEED } from './fake-forge/seed-ci-extra';
import { ISSUE_SEED } from './fake-forge/seed-issues';
import { MR_SEED } from './fake-forge/seed-merge-requests';
import { RELEASE_SEED } from './fake-forge/seed-releases';
import { DISCOVERY_SEED } from './fake-forge/seed-discovery';
import { WORK_ITEM_SEED } from './fake-forge/seed-work-items';
import { ACCESS, SEED } from './fake-forge';

type Args = Record<string, unknown>;

/** A call that needs more than arguments: the seed changed first, or other calls made first. */
interface Prepared {
  args: Args | ((m: ForgeModel) => Args);
  /** Changes to the seed before the call (who may do it). */
  setup?: (m: ForgeModel) => void;
  /** Calls made first, on the same forge. */
  before?: [string, Args][];
}
const P = { project_id: SEED.projectPath };
const G = { group_id: SEED.groups.platform };
const MR = { ...P, merge_request_iid: MR_SEED.reviewIid };
const ISSUE = { ...P, issue_iid: 1 };
const JOB = { ...P, job_id: CI_SEED.jobs.featureUnitFailed };
const PIPELINE = { ...P, pipeline_id: CI_SEED.pipelines.featureFailed };
const WI = { namespace_path: WORK_ITEM_SEED.projectPath };
const workItemGid = (id: number) => `gid://gitlab/WorkItem/${id}`;

/** The id of the thread a note of the seed belongs to. */
const threadOf = (m: ForgeModel, noteId: number) => m.tracker.discussions.find((d) => d.notes.some((n) => n.id === noteId))!.id;

export const SUCCESS_ARGS: Record<string, Args | ((m: ForgeModel) => Args) | Prepared> = {
  list_milestones: P,
  get_milestone: { ...P, milestone_id: SEED.milestones.v1 },
  create_milestone: { ...P, title: 'v2.0' },
  edit_milestone: { ...P, milestone_id: SEED.milestones.v1, title: 'v1.0 final' },
  delete_milestone: { ...P, milestone_id: SEED.milestones.v1 },
  get_milestone_issue: { ...P, milestone_id: SEED.milestones.v1 },
  get_milestone_merge_requests: { ...P, milestone_id: SEED.milestones.v1 },
  promote_milestone: { ...P, milestone_id: SEED.milestones.v1 },
  get_milestone_burndown_events: { ...P, milestone_id: SEED.milestones.v1 },
  list_group_milestones: G,
  get_group_milestone: { ...G, milestone_id: SEED.milestones.groupQ1 },
  create_group_milestone: { ...G, title: 'Q2 Platform' },
  edit_group_milestone: { ...G, milestone_id: SEED.milestones.groupQ1, title: 'Q1' },
  delete_group_milestone: { ...G, milestone_id: SEED.milestones.groupQ1 },
  get_group_milestone_issue: { ...G, milestone_id: SEED.milestones.groupQ1 },
  get_group_milestone_merge_requests: { ...G, milestone_id: SEED.milestones.groupQ1 },
  get_group_milestone_burndown_events: { ...G, milestone_id: SEED.milestones.groupQ1 },
  create_branch: { ...P, branch: 'new-branch', ref: 'main' },
  get_branch: { ...P, branch_name: 'main' },
  list_branches: P,
  delete_branch: { ...P, branch_name: 'topic-01' },
  update_default_branch: { ...P, default_branch: 'develop' },
  list_protected_branches: P,
  get_protected_branch: { ...P, branch_name: 'main' },
  protect_branch: { ...P, branch_name: 'develop' },
  unprotect_branch: { ...P, branch_name: 'main' },
  list_commits: P,
  get_commit: { ...P, sha: SEED.trailerSha },
  get_commit_diff: { ...P, sha: SEED.headSha },
  get_file_blame: { ...P, file_path: SEED.blameFile, ref: 'main' },
  list_commit_statuses: { ...P, sha: SEED.headSha },
  create_commit_status: { ...P, sha: SEED.headSha, state: 'pending', name: 'schema-check' },
  create_issue: { ...P, title: 'A new issue', description: 'Closes nothing' },
  list_issues: { ...P, scope: 'all' },
  my_issues: {},
  get_issue: ISSUE,
  update_issue: { ...ISSUE, title: 'Renamed' },
  update_issue_description_patch: (m) => ({ ...ISSUE, patch_type: 'search_replace', patch: firstLineReplaced(m) }),
  // Only a project's Owners may delete an issue (the fake forge's rule, handlers/issues.ts).
  delete_issue: { args: ISSUE, setup: (m) => void m.projects.get(SEED.project)!.members.set(SEED.users.maintainer, ACCESS.owner) },
  list_todos: {},
  mark_todo_done: { id: ISSUE_SEED.todos.mariaAssigned },
  mark_all_todos_done: {},
  create_issue_note: { ...ISSUE, body: 'A comment' },
  update_issue_note: { ...ISSUE, note_id: ISSUE_SEED.threadNote, body: 'Edited' },
  list_issue_links: ISSUE,
  list_issue_discussions: ISSUE,
  get_issue_link: { ...ISSUE, issue_link_id: ISSUE_SEED.link },
  create_issue_link: { ...ISSUE, target_project_id: SEED.projectPath, target_issue_iid: 3 },
  delete_issue_link: { ...ISSUE, issue_link_id: ISSUE_SEED.link },
  create_note: { ...P, noteable_type: 'issue', noteable_iid: 1, body: 'A note' },
  list_issue_emoji_reactions: ISSUE,
  list_issue_note_emoji_reactions: { ...ISSUE, note_id: ISSUE_SEED.replyNote },
  create_issue_emoji_reaction: { ...ISSUE, name: 'tada' },
  delete_issue_emoji_reaction: { ...ISSUE, award_id: ISSUE_SEED.awards.mariaRocket },
  create_issue_note_emoji_reaction: { ...ISSUE, note_id: ISSUE_SEED.replyNote, name: 'tada' },
  delete_issue_note_emoji_reaction: { ...ISSUE, note_id: ISSUE_SEED.replyNote, award_id: ISSUE_SEED.awards.replyEyes },
  list_merge_requests: { ...P, scope: 'all' },
  get_merge_request: MR,
  create_merge_request: { ...P, title: 'Fix login', source_branch: 'topic-02', target_branch: 'main', description: 'Closes #3' },
  update_merge_request: { ...MR, title: 'Login, reviewed', description: 'Fixes #2' },
  // Premium requires an approval (the seed's approval rule); on other editions approving changes nothing.
  merge_merge_request: { args: MR, before: [['approve_merge_request', MR]] },
  list_merge_request_diffs: MR,
  list_merge_request_versions: MR,
  mr_discussions: MR,
  create_merge_request_thread: { ...MR, body: 'A thought' },
  create_merge_request_discussion_note: (m) => ({ ...MR, discussion_id: threadOf(m, MR_SEED.diffNote), body: 'Agreed' }),
  resolve_merge_request_thread: (m) => ({ ...MR, discussion_id: threadOf(m, MR_SEED.diffNote), resolved: true }),
  get_merge_request_approval_state: MR,
  approve_merge_request: MR,
  unapprove_merge_request: { args: MR, before: [['approve_merge_request', MR]] },
  create_draft_note: { ...MR, body: 'A draft' },
  bulk_publish_draft_notes: MR,
  list_pipelines: P,
  get_pipeline: PIPELINE,
  list_merge_request_pipelines: MR,
  create_pipeline: { ...P, ref: 'main' },
  retry_pipeline: PIPELINE,
  cancel_pipeline: { ...P, pipeline_id: CI_SEED.pipelines.mainRunning },
  list_pipeline_jobs: PIPELINE,
  get_pipeline_job: JOB,
  retry_pipeline_job: JOB,
  cancel_pipeline_job: { ...P, job_id: CI_SEED.jobs.lintRunning },
  get_pipeline_job_output: JOB,
  get_file_contents: { ...P, file_path: SEED.blameFile, ref: 'main' },
  get_repository_tree: P,
  get_branch_diffs: { ...P, from: 'main', to: SEED.featureBranch },
  create_or_update_file: { ...P, file_path: 'docs/new.md', branch: 'main', content: '# New\n', commit_message: 'Add a page, closes #3' },
  push_files: {
    ...P,
    branch: 'main',
    commit_message: 'Add two files',
    files: [
      { file_path: 'a.txt', content: 'a' },
      { file_path: 'b.txt', content: 'b' },
    ],
  },
  list_projects: {},
  get_project: P,
  list_group_projects: G,
  list_groups: {},
  get_group: G,
  list_namespaces: {},
  get_namespace: { namespace_id: DISCOVERY_SEED.namespaces.maria },
  list_project_members: P,
  list_group_members: G,
  list_events: {},
  get_project_events: P,
  whoami: {},
  get_users: {},
  get_user: { user_id: SEED.users.developer },
  search: { scope: 'issues', search: 'login', project_id: SEED.projectPath },
  search_code: { search: 'start', project_id: SEED.projectPath },
  list_labels: P,
  get_label: { ...P, label_id: DISCOVERY_SEED.labels.bug },
  create_label: { ...P, name: 'new-label', color: '#00ff00' },
  update_label: { ...P, label_id: DISCOVERY_SEED.labels.docs, new_name: 'documentation' },
  delete_label: { ...P, label_id: DISCOVERY_SEED.labels.docs },
  list_group_labels: G,
  list_wiki_pages: P,
  get_wiki_page: { ...P, slug: RELEASE_SEED.wiki.nested },
  create_wiki_page: { ...P, title: 'New page', content: 'Hello' },
  update_wiki_page: { ...P, slug: RELEASE_SEED.wiki.home, content: 'Hello again' },
  delete_wiki_page: { ...P, slug: RELEASE_SEED.wiki.home },
  list_group_wiki_pages: G,
  get_group_wiki_page: { ...G, slug: RELEASE_SEED.groupWikiPage },
  create_group_wiki_page: { ...G, title: 'Group page', content: 'Hello' },
  update_group_wiki_page: { ...G, slug: RELEASE_SEED.groupWikiPage, content: 'Hello again' },
  delete_group_wiki_page: { ...G, slug: RELEASE_SEED.groupWikiPage },
  list_tags: P,
  get_tag: { ...P, tag_name: RELEASE_SEED.tag },
  create_tag: { ...P, tag_name: 'v2.0.0', ref: 'main', message: 'Release 2' },
  delete_tag: { ...P, tag_name: RELEASE_SEED.lightweightTag },
  list_releases: P,
  get_release: { ...P, tag_name: RELEASE_SEED.releaseTag },
  create_release: { ...P, tag_name: RELEASE_SEED.lightweightTag, name: 'Beta' },
  update_release: { ...P, tag_name: RELEASE_SEED.releaseTag, name: 'One' },
  delete_release: { ...P, tag_name: RELEASE_SEED.releaseTag },
  list_release_links: { ...P, tag_name: RELEASE_SEED.releaseTag },
  create_release_link: { ...P, tag_name: RELEASE_SEED.releaseTag, name: 'docs', url: 'https://example.test/docs' },
  delete_release_link: { ...P, tag_name: RELEASE_SEED.releaseTag, link_id: RELEASE_SEED.linkId },
  list_merge_request_commits: MR,
  list_merge_request_closes_issues: MR,
  list_issue_related_merge_requests: ISSUE,
  list_issue_closed_by: ISSUE,
  list_project_variables: P,
  get_project_variable: { ...P, key: 'LOG_LEVEL' },
  create_project_variable: { ...P, key: 'NEW_VAR', value: 'x' },
  update_project_variable: { ...P, key: 'LOG_LEVEL', value: 'debug' },
  delete_project_variable: { ...P, key: 'LOG_LEVEL' },
  list_group_variables: { args: G, setup: groupOwner },
  get_group_variable: { args: { ...G, key: 'REGISTRY_PASSWORD' }, setup: groupOwner },
  create_group_variable: { args: { ...G, key: 'NEW_VAR', value: 'x' }, setup: groupOwner },
  update_group_variable: { args: { ...G, key: 'REGISTRY_PASSWORD', value: 'AnotherMaskedValue88' }, setup: groupOwner },
  delete_group_variable: { args: { ...G, key: 'REGISTRY_PASSWORD' }, setup: groupOwner },
  get_pipeline_test_report: PIPELINE,
  get_pipeline_test_report_summary: PIPELINE,
  list_job_artifacts: JOB,
  get_job_artifact_file: { ...JOB, artifact_path: CI_EXTRA_SEED.outputPath },
  validate_ci_lint: { ...P, content: 'build:\n  script: make\n' },
  validate_project_ci_lint: P,
  list_environments: P,
  get_environment: { ...P, environment_id: CI_EXTRA_SEED.environments.staging },
  stop_environment: { ...P, environment_id: CI_EXTRA_SEED.environments.staging },
  list_deployments: P,
  get_deployment: { ...P, deployment_id: CI_EXTRA_SEED.deployments.staging },
  list_pipeline_schedules: P,
  get_pipeline_schedule: { ...P, pipeline_schedule_id: CI_EXTRA_SEED.schedule },
  play_pipeline_schedule: { ...P, pipeline_schedule_id: CI_EXTRA_SEED.schedule },
  list_pipeline_variables: PIPELINE,
  // Work items of a project (issues and tasks): every edition has them (D45).
  list_work_items: WI,
  get_work_item: { ...WI, iid: String(WORK_ITEM_SEED.saml.iid) },
  list_work_item_notes: { ...WI, iid: String(WORK_ITEM_SEED.saml.iid) },
  list_work_item_types: WI,
  // Custom statuses: a paid tier on GitLab 18.2 or later.
  list_work_item_statuses: { args: { ...WI, type: 'ISSUE' }, setup: (m) => void (m.version = '18.4.0') },
  create_work_item: { ...WI, type: 'TASK', title: 'A task', parent_id: workItemGid(WORK_ITEM_SEED.saml.id) },
  update_work_item: { id: workItemGid(WORK_ITEM_SEED.timeout.id), state_event: 'close' },
  // The seed's next work item is the task created first.
  add_work_item_children: {
    args: { id: workItemGid(WORK_ITEM_SEED.saml.id), child_ids: [workItemGid(WORK_ITEM_SEED.fixtures.id + 1)] },
    before: [['create_work_item', { ...WI, type: 'TASK', title: 'Loose task' }]],
  },
  remove_work_item_children: { id: workItemGid(WORK_ITEM_SEED.saml.id), child_ids: [workItemGid(WORK_ITEM_SEED.fixtures.id)] },
  convert_work_item_type: { id: workItemGid(WORK_ITEM_SEED.audit.id), type: 'INCIDENT' },
  create_work_item_note: { id: workItemGid(WORK_ITEM_SEED.audit.id), body: 'Who owns this?' },
};

/** A search/replace patch of the first line of issue 1's description as the seed has it. */
function firstLineReplaced(m: ForgeModel): string {
  const description = m.projects.get(SEED.project)!.issues.get(1)!.description ?? '';
  return `<<<<<<< SEARCH\n${description.split('\n')[0]}\n=======\nReworded\n>>>>>>> REPLACE`;
}

const TROJAN = {
  ...P,
  file_path: 'src/trojan.ts',
  branch: 'main',
  content: 'const access = "user\u202e \u2066// admin\u2069 \u2066";\n',
  commit_message: 'Add a check',
};

/**
 * Second calls of some tools, for the other shapes their results take: code with invisible
 * characters (D36's report), ranges, dry runs, binary files, labels GitLab creates, a full_response
 * of a write that takes one.
 */
export const VARIANT_CASES: [string, string, Prepared][] = [
  ['a wiki page with a zero-width space', 'get_wiki_page', { args: { ...P, slug: RELEASE_SEED.wiki.hidden } }],
  [
    'a file with bidirectional controls',
    'get_file_contents',
    { args: { ...P, file_path: 'src/trojan.ts', ref: 'main' }, before: [['create_or_update_file', TROJAN]] },
  ],
  ['a file read from a line', 'get_file_contents', { args: { ...P, file_path: SEED.blameFile, ref: 'main', start_line: 3, end_line: 4 } }],
  [
    'a dry run',
    'update_issue_description_patch',
    { args: (m) => ({ ...(SUCCESS_ARGS.update_issue_description_patch as (m: ForgeModel) => Args)(m), dry_run: true }) },
  ],
  [
    'a patch with its note',
    'update_issue_description_patch',
    { args: (m) => ({ ...(SUCCESS_ARGS.update_issue_description_patch as (m: ForgeModel) => Args)(m), create_note: true }) },
  ],
  ['a range of a job log', 'get_pipeline_job_output', { args: { ...JOB, start_line: 2, limit: 3 } }],
  ['a binary artifact', 'get_job_artifact_file', { args: { ...JOB, artifact_path: CI_EXTRA_SEED.binaryPath } }],
  ['every artifact', 'list_job_artifacts', { args: { ...JOB, recursive: true } }],
  ['a page of one', 'list_issues', { args: { ...P, scope: 'all', per_page: 1 } }],
  [
    'lint with its jobs and merged YAML',
    'validate_ci_lint',
    { args: { ...P, content: 'build:\n  script: make\n', include_jobs: true, include_merged_yaml: true } },
  ],
  ['a rule changed', 'protect_branch', { args: { ...P, branch_name: 'main', allow_force_push: true } }],
  ['a label GitLab creates', 'update_issue', { args: { ...ISSUE, labels: ['brand-new'] } }],
  ['a full_response of a write', 'update_issue', { args: { ...ISSUE, title: 'Renamed', full_response: true } }],
  [
    'a merge request with a label GitLab creates',
    'create_merge_request',
    { args: { ...P, title: 'Docs', source_branch: 'topic-03', target_branch: 'main', labels: ['brand-new'] } },
  ],
  ['values asked for, masked and hidden ones withheld', 'list_project_variables', { args: { ...P, include_value: true } }],
  ['a search for merge requests', 'search', { args: { scope: 'merge_requests', search: 'login', project_id: SEED.projectPath } }],
];

/** Group variables are for the group's Owners (lib/api/group_variables.rb: authorize! :admin_cicd_variables). */
function groupOwner(m: ForgeModel): void {
  m.groups.get(SEED.groups.platform)!.members.set(SEED.users.maintainer, ACCESS.owner);
}

/**
 * Tools whose feature only paid tiers have: on the Community Edition and an unlicensed EE they
 * fail, saying so (docs/forge-editions.md), and have no successful result to check there.
 */
export const PAID_ONLY = new Set([
  'get_milestone_burndown_events',
  'get_group_milestone_burndown_events',
  'list_group_wiki_pages',
  'get_group_wiki_page',
  'create_group_wiki_page',
  'update_group_wiki_page',
  'delete_group_wiki_page',
  'list_work_item_statuses',
]);

/** The seed prepared for a tool's successful call, and its arguments and the calls to make first. */
export function successCase(name: string, model: ForgeModel, variant?: Prepared): { args: Args; before: [string, Args][] } {
  const found = variant ?? SUCCESS_ARGS[name];
  if (!found) throw new Error(`no success arguments for ${name}`);
  const prepared: Prepared = typeof found === 'object' && 'args' in found ? (found as Prepared) : { args: found as Args };
  prepared.setup?.(model);
  const args = typeof prepared.args === 'function' ? prepared.args(model) : { ...prepared.args };
  return { args, before: prepared.before ?? [] };
}
