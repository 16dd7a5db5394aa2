// The prompts (D44): common work as text that names our tools in the order to call them, with the
// caller's arguments filled in. A prompt is offered only when the caller's catalog has the tools it
// needs (D34); steps that use a tool the catalog may lack (a write, another group) are written only
// when it has it, so a prompt never tells a model to call a tool it cannot see.
//
// Arguments are the caller's and end up in text a model reads: a project is checked as the tools
// check one (D31: no empty, `.` or `..` part, no control character) and quoted as JSON; numbers
// must be whole positive numbers. Anything else is refused as invalid params.
import { identifierProblem } from '../forge/encode';

interface PromptArgumentDef {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  /** How the value is checked: a project id or path, or a positive whole number. */
  readonly format: 'project' | 'number';
}

export interface PromptDef {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgumentDef[];
  /** Tools the prompt cannot do without: it is offered only when the catalog has them all. */
  readonly tools: readonly string[];
  /** The prompt's text for checked arguments; `has` says which other tools the caller may use. */
  text(args: Record<string, string>, has: (tool: string) => boolean): string;
}

/** Longest project path or id accepted (GitLab paths are far shorter). */
const MAX_PROJECT_CHARS = 1024;
const WHOLE_NUMBER = /^[1-9][0-9]{0,15}$/;

/** What is wrong with an argument's value, or undefined. */
export function argumentProblem(arg: PromptArgumentDef, value: string): string | undefined {
  if (arg.format === 'number') return WHOLE_NUMBER.test(value) ? undefined : 'must be a positive whole number';
  if (value.length > MAX_PROJECT_CHARS) return `must be at most ${MAX_PROJECT_CHARS} characters`;
  return identifierProblem(value);
}

const project: PromptArgumentDef = {
  name: 'project_id',
  description: 'The project: a numeric id or a full path such as group/sub/project.',
  required: true,
  format: 'project',
};

const q = (value: string) => JSON.stringify(value);
/** Numbered steps from the lines given, skipping the empty ones (steps for tools the caller lacks). */
const steps = (lines: (string | false)[]) =>
  lines
    .filter((line): line is string => typeof line === 'string')
    .map((line, i) => `${i + 1}. ${line}`)
    .join('\n');

const reviewMergeRequest: PromptDef = {
  name: 'review_merge_request',
  title: 'Review a merge request',
  description: 'Read a merge request, its diff, its discussions and its pipeline, then write a review (and, with the user, post it).',
  arguments: [project, { name: 'merge_request_iid', description: 'The merge request number in the project (12 for !12).', required: true, format: 'number' }],
  tools: ['get_merge_request', 'list_merge_request_diffs', 'mr_discussions'],
  text(a, has) {
    const ids = `project_id=${q(a.project_id)}, merge_request_iid=${a.merge_request_iid}`;
    return [
      `Review merge request !${a.merge_request_iid} of project ${q(a.project_id)}. Call the tools in this order:`,
      steps([
        `get_merge_request (${ids}): title, description, source and target branch, detailed_merge_status, diff_refs and the head pipeline's status.`,
        `list_merge_request_diffs (${ids}), every page while pagination.next_page is set: each hunk line carries its old and new line numbers.`,
        `mr_discussions (${ids}): what reviewers already said, so you do not repeat it and can see which threads are unresolved.`,
        has('get_file_contents') && 'get_file_contents (ref = the source branch) where a change needs the rest of its file to be judged.',
        has('list_merge_request_pipelines') && `list_merge_request_pipelines (${ids}) when the head pipeline did not succeed.`,
      ]),
      'Then write the review: correctness, security, tests, readability; each finding with its file and new line number, most serious first.',
      has('create_merge_request_thread')
        ? 'Post findings only after the user agrees: create_merge_request_thread with a position built from the diff_refs and the line numbers above.'
        : 'Do not post anything: present the review to the user.',
    ].join('\n');
  },
};

const triageIssues: PromptDef = {
  name: 'triage_new_issues',
  title: 'Triage new issues',
  description: "Go through a project's newest open issues: find duplicates, suggest labels and priority, and ask for what is missing.",
  arguments: [project],
  tools: ['list_issues', 'get_issue'],
  text(a, has) {
    const p = `project_id=${q(a.project_id)}`;
    return [
      `Triage the newest open issues of project ${q(a.project_id)}. Call the tools in this order:`,
      steps([
        `list_issues (${p}, scope="all", state="opened", per_page=20), newest first: scope "all", since by default it lists only the issues you created.`,
        has('list_labels') && `list_labels (${p}): the labels the project has, so you suggest only existing ones.`,
        `get_issue (${p}, issue_iid=<each iid>) for each issue without labels or with a short description.`,
        has('list_issue_discussions') && 'list_issue_discussions for issues that already have comments.',
        'list_issues with search=<key words of the issue> to find likely duplicates (scope="all", state="all").',
      ]),
      'Then give a table: iid, title, suggested labels, priority, likely duplicate of, what the reporter should add.',
      has('update_issue')
        ? 'Change nothing until the user agrees; then apply labels with update_issue and ask for details with create_issue_note.'
        : 'Change nothing: present the table to the user.',
    ].join('\n');
  },
};

const explainFailedPipeline: PromptDef = {
  name: 'explain_failed_pipeline',
  title: 'Explain a failed pipeline',
  description: 'Find the failed jobs of a pipeline, read the end of their logs and explain the cause and the fix.',
  arguments: [project, { name: 'pipeline_id', description: "The pipeline's id (the number in its URL).", required: true, format: 'number' }],
  tools: ['get_pipeline', 'list_pipeline_jobs', 'get_pipeline_job_output'],
  text(a, has) {
    const ids = `project_id=${q(a.project_id)}, pipeline_id=${a.pipeline_id}`;
    return [
      `Explain why pipeline ${a.pipeline_id} of project ${q(a.project_id)} failed. Call the tools in this order:`,
      steps([
        `get_pipeline (${ids}): status, ref and sha.`,
        `list_pipeline_jobs (${ids}, scope="failed"): the failed jobs with stage and failure_reason.`,
        `get_pipeline_job_output (project_id=${q(a.project_id)}, job_id=<each failed job's id>): the last 200 lines; if the error starts earlier, read again with offset.`,
        has('get_file_contents') && 'get_file_contents (file_path=".gitlab-ci.yml", ref = the pipeline\'s sha) when the failure is in the CI configuration.',
        has('get_file_contents') && 'get_file_contents for the source files the log names, at the same sha.',
      ]),
      'Then explain, per failed job: the error (quote the log lines), the likely cause, and the fix. Say when a failure looks flaky (a timeout, a runner or network error).',
      has('retry_pipeline_job') ? 'Retry a job (retry_pipeline_job) only when the user asks and the failure looks flaky.' : '',
    ]
      .filter(Boolean)
      .join('\n');
  },
};

const PROMPTS: readonly PromptDef[] = [reviewMergeRequest, triageIssues, explainFailedPipeline];

/** The prompts a catalog serves: those whose needed tools it has all (D34's narrowing included). */
export function offeredPrompts(has: (tool: string) => boolean): PromptDef[] {
  return PROMPTS.filter((prompt) => prompt.tools.every(has));
}
