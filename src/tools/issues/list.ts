// Issue lists: list_issues (the forge's filters; created by the caller unless scope says otherwise)
// and my_issues (assigned to the caller, open by default). Both work across all projects or in one.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { encodeSegment, type QueryValue } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { isoDateTime, pagination, projectId } from '../params';
import { issueState, issueType, labels } from './params';

function issuesPath(project: string | undefined): string {
  return project === undefined ? '/issues' : `/projects/${encodeSegment(project)}/issues`;
}

/** One page of issues; labels go as GitLab's comma-separated string, arrays as `name[]`. */
function listIssues(forge: ForgeClient, args: Record<string, unknown>) {
  const { project_id, labels: names, ...rest } = args as { project_id?: string; labels?: string[] } & Record<string, QueryValue>;
  const query: Record<string, QueryValue> = { ...rest };
  if (names !== undefined) query.labels = names.join(',');
  return forge.list({ method: 'GET', path: issuesPath(project_id), query });
}

const optionalProject = Type.Optional(projectId('Project id or full path; omit to search every project the caller can see.'));
const idNoneAny = (what: string) =>
  Type.Optional(
    Type.String({ pattern: '^([0-9]+|[Nn]one|[Aa]ny|NONE|ANY)$', description: what, hint: 'must be a numeric id, none or any' }),
  );
const dates = {
  created_after: isoDateTime('Only issues created at or after this time.'),
  created_before: isoDateTime('Only issues created at or before this time.'),
  updated_after: isoDateTime('Only issues updated at or after this time.'),
  updated_before: isoDateTime('Only issues updated at or before this time.'),
};
const DUE_DATES = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'] as const;

export const listIssuesTool = defineTool({
  name: 'list_issues',
  title: 'List issues',
  description:
    'List issues of one project, or of every project the caller can see when project_id is omitted, one page at a time. ' +
    'Without scope only issues created by the caller are returned: pass scope "all" to search everyone\'s issues (needed with assignee or author filters for other people). ' +
    'assignee_id and assignee_username, and author_id and author_username, are mutually exclusive. labels must all match.',
  group: 'issues',
  mode: 'read',
  endpoint: 'GET /issues or GET /projects/{project_id}/issues',
  input: Type.Object(
    {
      project_id: optionalProject,
      assignee_id: idNoneAny('Assignee user id; none = unassigned, any = assigned to someone. Not with assignee_username.'),
      assignee_username: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Assignee usernames. Not with assignee_id.' })),
      author_id: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'Author user id. Not with author_username.', hint: 'must be a numeric user id' })),
      author_username: Type.Optional(Type.String({ minLength: 1, description: 'Author username. Not with author_id.' })),
      confidential: Type.Optional(Type.Boolean({ description: 'Only confidential (true) or only public (false) issues.' })),
      created_after: dates.created_after,
      created_before: dates.created_before,
      due_date: Type.Optional(
        Type.Union(DUE_DATES.map((d) => Type.Literal(d)), {
          description: 'Due date filter: 0 (no due date), any, today, tomorrow, overdue, week, month, next_month_and_previous_two_weeks.',
        }),
      ),
      labels: labels('Label names; issues must have all of them. ["None"] = no labels, ["Any"] = at least one.'),
      milestone: Type.Optional(Type.String({ minLength: 1, description: 'Milestone title; None = no milestone, Any = any milestone.' })),
      issue_type: issueType('Only issues of this type: issue, incident, test_case or task.'),
      iteration_id: idNoneAny('Iteration id; none = no iteration, any = has an iteration (paid tiers).'),
      scope: Type.Optional(
        Type.Union([Type.Literal('created_by_me'), Type.Literal('assigned_to_me'), Type.Literal('all')], {
          description: 'Whose issues: created_by_me (default), assigned_to_me or all.',
        }),
      ),
      search: Type.Optional(Type.String({ minLength: 1, description: 'Text to find in title or description.' })),
      state: issueState('opened, closed or all (default all).'),
      updated_after: dates.updated_after,
      updated_before: dates.updated_before,
      with_labels_details: Type.Optional(Type.Boolean({ description: 'Return labels as objects with color and description instead of names.' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.assignee_id !== undefined && args.assignee_username !== undefined) {
      throw invalidArgument('assignee_username', 'cannot be combined with assignee_id; give one of them');
    }
    if (args.author_id !== undefined && args.author_username !== undefined) {
      throw invalidArgument('author_username', 'cannot be combined with author_id; give one of them');
    }
  },
  // The forge's own default differs by endpoint (created_by_me across projects, all in one), so
  // the SPEC default is always sent.
  handler: (args, { forge }) => listIssues(forge, { ...args, scope: args.scope ?? 'created_by_me' }),
});

export const myIssues = defineTool({
  name: 'my_issues',
  title: 'My issues',
  description:
    'List the issues assigned to the caller (whoever created them), open ones unless state says otherwise, across all projects or in one, one page at a time.',
  group: 'issues',
  mode: 'read',
  endpoint: 'GET /issues?scope=assigned_to_me or GET /projects/{project_id}/issues?scope=assigned_to_me',
  input: Type.Object(
    {
      project_id: optionalProject,
      state: issueState('opened (default), closed or all.'),
      labels: labels('Label names; issues must have all of them.'),
      milestone: Type.Optional(Type.String({ minLength: 1, description: 'Milestone title; None = no milestone, Any = any milestone.' })),
      search: Type.Optional(Type.String({ minLength: 1, description: 'Text to find in title or description.' })),
      ...dates,
      ...pagination,
    },
    { additionalProperties: false },
  ),
  handler: (args, { forge }) => listIssues(forge, { ...args, scope: 'assigned_to_me', state: args.state ?? 'opened' }),
});

export const issueListTools = [listIssuesTool, myIssues];
