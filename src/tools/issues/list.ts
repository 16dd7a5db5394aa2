// Issue lists: list_issues (the forge's filters; created by the caller unless scope says otherwise)
// and my_issues (assigned to the caller, open by default). Both work across all projects or in one.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath, type QueryValue } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { ID, isoDateTime, LIMITS, listOf, numericId, pagination, projectId, search, shortName } from '../params';
import { refusePaidOnCommunityEdition } from '../tiers';
import { issueState, issueType, labels } from './params';

function issuesPath(project: string | undefined): string {
  return project === undefined ? '/issues' : fillPath('/projects/{project_id}/issues', { project_id: project });
}

/** One page of issues; labels go as GitLab's comma-separated string, arrays as `name[]`. */
function listIssues(forge: ForgeClient, args: Record<string, unknown>) {
  const { project_id, labels: names, ...rest } = args as { project_id?: string; labels?: string[] } & Record<string, QueryValue>;
  const query: Record<string, QueryValue> = { ...rest };
  if (names !== undefined) query.labels = names.join(',');
  return forge.list({ method: 'GET', path: issuesPath(project_id), query });
}

// Omitted: all projects (the server's instructions say so once).
const optionalProject = Type.Optional(projectId());
const idNoneAny = (description: string) =>
  Type.Optional(
    Type.String({ pattern: '^([0-9]+|[Nn]one|[Aa]ny|NONE|ANY)$', maxLength: LIMITS.idDigits, hint: 'must be a numeric id, none or any', description, ...ID }),
  );
const milestoneTitle = () => Type.Optional(shortName({ description: 'Title, None or Any' }));
const dates = {
  created_after: isoDateTime(),
  created_before: isoDateTime(),
  updated_after: isoDateTime(),
  updated_before: isoDateTime(),
};
const DUE_DATES = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'] as const;

export const listIssuesTool = defineTool({
  name: 'list_issues',
  attachments: true,
  title: 'List issues',
  description: 'List issues, newest first.',
  group: 'issues',
  mode: 'read',
  record: 'issue',
  endpoint: 'GET /issues or GET /projects/{project_id}/issues',
  input: Type.Object(
    {
      project_id: optionalProject,
      assignee_id: idNoneAny('User id, None or Any'),
      assignee_username: Type.Optional(listOf(shortName(), 'Several: Premium')),
      author_id: Type.Optional(numericId('must be a numeric user id', 'User id')),
      author_username: Type.Optional(shortName({ description: 'Not with author_id' })),
      confidential: Type.Optional(Type.Boolean()),
      created_after: dates.created_after,
      created_before: dates.created_before,
      due_date: Type.Optional(
        Type.Union(
          DUE_DATES.map((d) => Type.Literal(d)),
          { description: '0: none.' },
        ),
      ),
      labels: labels(),
      milestone: milestoneTitle(),
      issue_type: issueType(),
      iteration_id: idNoneAny('Premium; id, None or Any'),
      // lib/api/issues.rb: GET /issues defaults scope to created_by_me, a project's list to all; this tool sends created_by_me to both.
      scope: Type.Optional(
        Type.Union([Type.Literal('created_by_me'), Type.Literal('assigned_to_me'), Type.Literal('all')], {
          description: "Default created_by_me, even in a project; all: anyone's",
        }),
      ),
      search: search(),
      state: issueState(),
      updated_after: dates.updated_after,
      updated_before: dates.updated_before,
      with_labels_details: Type.Optional(Type.Boolean({ description: 'Labels as objects' })),
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
  // the docs/spec.md default is always sent.
  async handler(args, ctx) {
    // EE filters (ee/lib/ee/api/helpers/issues_helpers.rb); CE would list unfiltered, or refuse a second username.
    await refusePaidOnCommunityEdition(ctx, [
      { parameter: 'iteration_id', used: args.iteration_id !== undefined },
      { parameter: 'assignee_username', used: (args.assignee_username?.length ?? 0) > 1, what: 'more than one assignee_username' },
    ]);
    return listIssues(ctx.forge, { ...args, scope: args.scope ?? 'created_by_me' });
  },
});

export const myIssues = defineTool({
  name: 'my_issues',
  attachments: true,
  title: 'My issues',
  description: "List the caller's assigned issues (default state: opened).",
  group: 'issues',
  mode: 'read',
  record: 'issue',
  endpoint: 'GET /issues?scope=assigned_to_me or GET /projects/{project_id}/issues?scope=assigned_to_me',
  input: Type.Object(
    {
      project_id: optionalProject,
      state: issueState(),
      labels: labels(),
      milestone: milestoneTitle(),
      search: search(),
      ...dates,
      ...pagination,
    },
    { additionalProperties: false },
  ),
  handler: (args, { forge }) => listIssues(forge, { ...args, scope: 'assigned_to_me', state: args.state ?? 'opened' }),
});
