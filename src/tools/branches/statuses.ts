// Commit status tools: read the statuses of a commit, and report one (an external CI check).
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { invalidArgument } from '../errors';
import { pagination, positiveInteger, projectId, refName, shortName } from '../params';
import { restTool } from '../rest';

const sha = refName();

export const listCommitStatuses = restTool({
  name: 'list_commit_statuses',
  title: 'List commit statuses',
  description: 'List a commit\'s CI statuses: the latest per name unless all.',
  group: 'branches',
  mode: 'read',
  record: 'commit_status',
  input: Type.Object(
    {
      project_id: projectId(),
      sha,
      ref: Type.Optional(refName()),
      stage: Type.Optional(shortName()),
      name: Type.Optional(shortName()),
      pipeline_id: Type.Optional(positiveInteger()),
      order_by: Type.Optional(Type.Union([Type.Literal('id'), Type.Literal('pipeline_id')])),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      all: Type.Optional(Type.Boolean()),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/commits/{sha}/statuses', list: true },
});

const STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;

export const createCommitStatus = defineTool({
  name: 'create_commit_status',
  title: 'Create commit status',
  description:
    'Set a check\'s state on a commit: updates a pending/running status of the same name and ref, else adds one ' +
    '(finished ones never change). context aliases name (default "default").',
  group: 'branches',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/statuses/{sha}',
  input: Type.Object(
    {
      project_id: projectId(),
      sha,
      state: Type.Union(STATES.map((s) => Type.Literal(s))),
      ref: Type.Optional(refName()),
      name: Type.Optional(shortName()),
      context: Type.Optional(shortName()),
      // GitLab keeps 255 characters of these.
      target_url: Type.Optional(shortName()),
      description: Type.Optional(Type.String({ maxLength: 255 })),
      coverage: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
      pipeline_id: Type.Optional(positiveInteger()),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.name !== undefined && args.context !== undefined) throw invalidArgument('context', 'is an alias of name; give one of name or context, not both');
  },
  handler(args, { forge }) {
    const { project_id: _p, sha: _s, context, ...rest } = args;
    const body: Record<string, unknown> = { ...rest };
    if (context !== undefined) body.name = context;
    return forge.json({ method: 'POST', path: fillPath('/projects/{project_id}/statuses/{sha}', args), body });
  },
});

export const statusTools = [listCommitStatuses, createCommitStatus];
