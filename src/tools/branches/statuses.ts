// Commit status tools: read the statuses of a commit, and report one (an external CI check).
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { invalidArgument } from '../errors';
import { pagination, projectId } from '../params';
import { restTool } from '../rest';

const sha = Type.String({ minLength: 1, description: 'Commit SHA.' });

export const listCommitStatuses = restTool({
  name: 'list_commit_statuses',
  title: 'List commit statuses',
  description: 'List the CI statuses of a commit (latest per name unless all is true), filtered by ref, stage, name or pipeline.',
  group: 'branches',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      sha,
      ref: Type.Optional(Type.String({ minLength: 1, description: 'Only statuses of this branch or tag.' })),
      stage: Type.Optional(Type.String({ minLength: 1, description: 'Only statuses of this stage.' })),
      name: Type.Optional(Type.String({ minLength: 1, description: 'Only statuses with this name (context).' })),
      pipeline_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Only statuses of this pipeline.' })),
      order_by: Type.Optional(Type.Union([Type.Literal('id'), Type.Literal('pipeline_id')], { description: 'Sort field: id or pipeline_id.' })),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'Sort direction.' })),
      all: Type.Optional(Type.Boolean({ description: 'Every status, not only the latest per name.' })),
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
    'Create or update the status of an external check on a commit. A pending or running status with the same name and ref is moved to the new state; ' +
    'finished ones are never changed (a new status is created). name defaults to "default"; context is an alias of name.',
  group: 'branches',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/statuses/{sha}',
  input: Type.Object(
    {
      project_id: projectId(),
      sha,
      state: Type.Union(STATES.map((s) => Type.Literal(s)), { description: `New state: ${STATES.join(', ')}.` }),
      ref: Type.Optional(Type.String({ minLength: 1, description: 'Branch or tag the status is for.' })),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Name of the check (forge default "default").' })),
      context: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Alias of name; give one of name or context.' })),
      target_url: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'URL of the check\'s details.' })),
      description: Type.Optional(Type.String({ maxLength: 255, description: 'Short description of the status.' })),
      coverage: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Total code coverage, percent.' })),
      pipeline_id: Type.Optional(Type.Integer({ minimum: 1, description: 'Pipeline to attach the status to.' })),
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
