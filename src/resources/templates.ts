// The resource templates (D44): a file at a ref, an issue, a merge request with its diff, a job
// log's tail. Each names the tools a read calls, in order, with the arguments taken from the URI;
// the read goes through those tools' own definitions (validation, D31's identifier checks, bounds,
// lean projection, cleaning), so a resource is never a second implementation of a tool, and a
// template whose tools a caller's catalog lacks is not offered (D34).
//
// URIs (RFC 6570): `{project_id}` and `{ref}` are simple expansions, so a `/` in a project path or
// a branch name arrives encoded as %2F; `{+file_path}` is a reserved expansion, the rest of the URI,
// so its slashes stay as they are. Every variable is percent-decoded exactly once.

/** The scheme and fixed start every URI of ours has. */
export const URI_PREFIX = 'gitlab://projects/';
/** A URI longer than this is refused before it is read (a path, a ref and a project fit easily). */
export const MAX_URI_CHARS = 2048;

/** One tool call of a read: which tool, with which arguments. */
interface ToolStep {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** What a read produced, as MCP's resource contents. */
export interface ResourceContent {
  uri: string;
  mimeType: string;
  text: string;
  _meta?: Record<string, unknown>;
}

export interface ResourceTemplateDef {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly uriTemplate: string;
  readonly mimeType: string;
  /** The template's variables, in URI order (completion/complete answers for these). */
  readonly variables: readonly string[];
  /** Every tool a read calls: the template is offered only when the caller's catalog has them all. */
  readonly tools: readonly string[];
  /** The variables of a URI's part after `{project_id}/-/`, or undefined when it is not this template's. */
  match(segments: readonly string[]): Record<string, string> | undefined;
  /** The tool calls that read the resource. */
  steps(vars: Record<string, string>): ToolStep[];
  /** The contents from the steps' structured results (all of them succeeded). */
  contents(uri: string, results: readonly Record<string, unknown>[]): ResourceContent[];
}

const json = (value: unknown) => JSON.stringify(value);

/** The keys of a value that say what the text alone does not (cut, where to go on). */
function metaOf(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {};
  for (const key of keys) if (value[key] !== undefined && value[key] !== null) meta[key] = value[key];
  return Object.keys(meta).length ? meta : undefined;
}

const FILE_META = ['ref', 'blob_id', 'last_commit_id', 'start_line', 'end_line', 'total_lines', 'truncated', 'next_start_line', 'note', 'invisible_characters'];

const file: ResourceTemplateDef = {
  name: 'file',
  title: 'File at a ref',
  description:
    'A repository file at a branch, tag or commit, as get_file_contents reads it: text within ~60 KB (cut ones say truncated and next_start_line in _meta); ' +
    'binary and Git LFS files are described in JSON, not dumped. project_id and ref are URI-encoded (group%2Fproject, feature%2Fx); file_path keeps its slashes.',
  uriTemplate: `${URI_PREFIX}{project_id}/-/blob/{ref}/{+file_path}`,
  mimeType: 'text/plain',
  variables: ['project_id', 'ref', 'file_path'],
  tools: ['get_file_contents'],
  match(segments) {
    if (segments[0] !== 'blob' || segments.length < 3) return undefined;
    return { ref: segments[1], file_path: segments.slice(2).join('/') };
  },
  steps: (v) => [{ tool: 'get_file_contents', args: { project_id: v.project_id, ref: v.ref, file_path: v.file_path } }],
  contents(uri, [value]) {
    if (typeof value.content !== 'string') return [{ uri, mimeType: 'application/json', text: json(value) }];
    const meta = metaOf(value, FILE_META);
    return [{ uri, mimeType: 'text/plain', text: value.content, ...(meta && { _meta: meta }) }];
  },
};

const issue: ResourceTemplateDef = {
  name: 'issue',
  title: 'Issue',
  description: "An issue as get_issue returns it (lean JSON). project_id is URI-encoded (group%2Fproject); issue_iid is the issue's number in the project.",
  uriTemplate: `${URI_PREFIX}{project_id}/-/issues/{issue_iid}`,
  mimeType: 'application/json',
  variables: ['project_id', 'issue_iid'],
  tools: ['get_issue'],
  match: (segments) => (segments.length === 2 && segments[0] === 'issues' ? { issue_iid: segments[1] } : undefined),
  steps: (v) => [{ tool: 'get_issue', args: { project_id: v.project_id, issue_iid: v.issue_iid } }],
  contents: (uri, [value]) => [{ uri, mimeType: 'application/json', text: json(value) }],
};

const mergeRequest: ResourceTemplateDef = {
  name: 'merge_request',
  title: 'Merge request with its diff',
  description:
    'A merge request (get_merge_request) and the first page of its changed files (list_merge_request_diffs), as JSON {merge_request, diffs}. ' +
    'project_id is URI-encoded (group%2Fproject); further diff pages: the list_merge_request_diffs tool.',
  uriTemplate: `${URI_PREFIX}{project_id}/-/merge_requests/{merge_request_iid}`,
  mimeType: 'application/json',
  variables: ['project_id', 'merge_request_iid'],
  tools: ['get_merge_request', 'list_merge_request_diffs'],
  match: (segments) => (segments.length === 2 && segments[0] === 'merge_requests' ? { merge_request_iid: segments[1] } : undefined),
  steps: (v) => [
    { tool: 'get_merge_request', args: { project_id: v.project_id, merge_request_iid: v.merge_request_iid } },
    { tool: 'list_merge_request_diffs', args: { project_id: v.project_id, merge_request_iid: v.merge_request_iid } },
  ],
  contents: (uri, [mr, diffs]) => [{ uri, mimeType: 'application/json', text: json({ merge_request: mr, diffs }) }],
};

const LOG_META = ['job_id', 'first_line', 'last_line', 'total_lines', 'truncated', 'truncation', 'note'];

const jobLog: ResourceTemplateDef = {
  name: 'job_log',
  title: 'Job log tail',
  description:
    "The last 200 lines of a CI job's log, as get_pipeline_job_output reads it (colour codes and section markers removed); line numbers in _meta. " +
    'project_id is URI-encoded (group%2Fproject).',
  uriTemplate: `${URI_PREFIX}{project_id}/-/jobs/{job_id}/log`,
  mimeType: 'text/plain',
  variables: ['project_id', 'job_id'],
  tools: ['get_pipeline_job_output'],
  match: (segments) => (segments.length === 3 && segments[0] === 'jobs' && segments[2] === 'log' ? { job_id: segments[1] } : undefined),
  steps: (v) => [{ tool: 'get_pipeline_job_output', args: { project_id: v.project_id, job_id: v.job_id } }],
  contents(uri, [value]) {
    const meta = metaOf(value, LOG_META);
    return [{ uri, mimeType: 'text/plain', text: typeof value.log === 'string' ? value.log : json(value), ...(meta && { _meta: meta }) }];
  },
};

const RESOURCE_TEMPLATES: readonly ResourceTemplateDef[] = [file, issue, mergeRequest, jobLog];

/** The templates a catalog serves: those whose every tool it has (D34's narrowing included). */
export function offeredTemplates(has: (tool: string) => boolean): ResourceTemplateDef[] {
  return RESOURCE_TEMPLATES.filter((template) => template.tools.every(has));
}
