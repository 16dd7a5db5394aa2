// The default tool set (D40): what a deployment that does not set FORGE_TOOLSETS exposes, chosen
// by tool name for the work agents are asked for most. Named `default` in FORGE_TOOLSETS and in a
// request's policy (D34) alongside the group ids. At most about 40 tools and 32 KB of tools/list
// (test/catalog.test.ts); every group stays available by name.

import { TOOL_GROUPS } from './groups';

export const DEFAULT_SET = 'default';

/** What FORGE_TOOLSETS and a request's policy may name: a group id, or `default` (`all` is the setting's alone). */
export const TOOLSET_NAMES: ReadonlySet<string> = new Set<string>([...TOOL_GROUPS, DEFAULT_SET]);

export const DEFAULT_TOOLS: ReadonlySet<string> = new Set([
  // Who am I, and finding a project.
  'whoami',
  'list_projects',
  'get_project',
  'search',
  // Reading and writing issues.
  'list_issues',
  'my_issues',
  'get_issue',
  'create_issue',
  'update_issue',
  'list_issue_discussions',
  'create_issue_note',
  // Reviewing and commenting on a merge request.
  'list_merge_requests',
  'get_merge_request',
  'create_merge_request',
  'list_merge_request_diffs',
  'mr_discussions',
  'create_merge_request_thread',
  'create_merge_request_discussion_note',
  'resolve_merge_request_thread',
  'approve_merge_request',
  'list_merge_request_commits',
  // Why a pipeline failed.
  'list_pipelines',
  'list_merge_request_pipelines',
  'get_pipeline',
  'list_pipeline_jobs',
  'get_pipeline_job',
  'get_pipeline_job_output',
  'get_pipeline_test_report_summary',
  'retry_pipeline_job',
  // Reading files and history.
  'get_file_contents',
  'get_repository_tree',
  'list_branches',
  'list_commits',
  'get_commit',
  // Writing files (create_branch, create_or_update_file, push_files) is left to FORGE_TOOLSETS=default,branches,repository:
  // the set stays within 32 KB of tools/list.
]);
