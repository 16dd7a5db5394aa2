// The context group (opt-in): how a merge request and the issues around it connect — a merge
// request's commits and the issues it closes, an issue's related merge requests and the ones that
// will close it (lib/api/merge_requests.rb, lib/api/issues.rb). A group of its own so the
// merge_requests and issues groups keep their tools/list within budget.
import { issueIid } from '../issues/params';
import { mergeRequestIid } from '../merge-requests/params';
import { pagination, projectId, input } from '../params';
import { restTool } from '../rest';

const MR = '/projects/{project_id}/merge_requests/{merge_request_iid}';
const ISSUE = '/projects/{project_id}/issues/{issue_iid}';

const mergeRequestCommits = restTool({
  name: 'list_merge_request_commits',
  title: 'List merge request commits',
  description: "List a merge request's commits (its latest diff), newest first.",
  group: 'context',
  mode: 'read',
  record: 'commit_summary',
  input: input({ project_id: projectId(), merge_request_iid: mergeRequestIid(), ...pagination }),
  rest: { method: 'GET', path: `${MR}/commits`, list: true },
});

const mergeRequestClosesIssues = restTool({
  name: 'list_merge_request_closes_issues',
  title: 'List issues a merge request closes',
  description: 'List the issues a merge request closes when merged (closing pattern, default branch only).',
  group: 'context',
  mode: 'read',
  record: 'issue',
  attachments: true,
  input: input({ project_id: projectId(), merge_request_iid: mergeRequestIid(), ...pagination }),
  rest: { method: 'GET', path: `${MR}/closes_issues`, list: true },
});

const issueRelatedMergeRequests = restTool({
  name: 'list_issue_related_merge_requests',
  title: 'List merge requests related to an issue',
  description: 'List the merge requests that mention or close an issue.',
  group: 'context',
  mode: 'read',
  record: 'merge_request',
  attachments: true,
  input: input({ project_id: projectId(), issue_iid: issueIid(), ...pagination }),
  rest: { method: 'GET', path: `${ISSUE}/related_merge_requests`, list: true },
});

const issueClosedBy = restTool({
  name: 'list_issue_closed_by',
  title: 'List merge requests that close an issue',
  description: 'List the merge requests that close an issue when merged.',
  group: 'context',
  mode: 'read',
  record: 'merge_request',
  attachments: true,
  input: input({ project_id: projectId(), issue_iid: issueIid(), ...pagination }),
  rest: { method: 'GET', path: `${ISSUE}/closed_by`, list: true },
});

export const contextTools = [mergeRequestCommits, mergeRequestClosesIssues, issueRelatedMergeRequests, issueClosedBy];
