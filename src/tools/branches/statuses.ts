// Commit status tools: read the statuses of a commit, and report one (an external CI check).
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { invalidArgument } from '../errors';
import { integerId, pagination, projectId, refName, shortName } from '../params';
import type { ForgeClient } from '../../forge/client';
import { restParams } from '../rest';

const sha = refName('SHA, branch or tag');

const FULL_SHA = /^([0-9a-f]{40}|[0-9a-f]{64})$/i;

/**
 * The commit SHA for a branch, tag or SHA. GitLab's status routes match pipelines on the value as
 * given and declare no requirement for :sha (lib/api/commit_statuses.rb), so a branch name lists
 * nothing and a dotted tag such as v1.0 never reaches the endpoint; the commit route does take them
 * (lib/api/commits.rb, API::COMMIT_ENDPOINT_REQUIREMENTS). A full SHA is used in lower case, as
 * GitLab stores it: its match is case-sensitive, and an upper-case SHA would list nothing.
 */
async function commitSha(forge: ForgeClient, args: { project_id: string; sha: string }): Promise<string> {
  if (FULL_SHA.test(args.sha)) return args.sha.toLowerCase();
  const commit = await forge.json<{ id: string }>({ method: 'GET', path: fillPath('/projects/{project_id}/repository/commits/{sha}', args) });
  return commit.id;
}

/** Whether `given` named a branch or tag rather than the commit `sha` (or a prefix of it). */
const namesRef = (given: string, sha: string) => !sha.startsWith(given.toLowerCase());

const STATUSES_PATH = '/projects/{project_id}/repository/commits/{sha}/statuses';

const listCommitStatuses = defineTool({
  name: 'list_commit_statuses',
  title: 'List commit statuses',
  description: "List a commit's CI statuses.",
  group: 'branches',
  mode: 'read',
  endpoint: `GET ${STATUSES_PATH} (GET /projects/{project_id}/repository/commits/{sha} first for a branch or tag)`,
  record: 'commit_status',
  input: Type.Object(
    {
      project_id: projectId(),
      sha,
      ref: Type.Optional(refName('Branch or tag')),
      stage: Type.Optional(shortName({ description: 'CI stage' })),
      name: Type.Optional(shortName({ description: 'Check name' })),
      pipeline_id: Type.Optional(integerId(undefined, 'Only this pipeline')),
      order_by: Type.Optional(Type.Union([Type.Literal('id'), Type.Literal('pipeline_id')])),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      all: Type.Optional(Type.Boolean({ description: 'All, not the latest per name' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    const at = { ...args, sha: await commitSha(forge, args) };
    return forge.list({ method: 'GET', path: fillPath(STATUSES_PATH, at), query: restParams({ method: 'GET', path: STATUSES_PATH }, args) as never });
  },
});

const STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;

const createCommitStatus = defineTool({
  name: 'create_commit_status',
  title: 'Create commit status',
  description:
    "Set a check's state on a commit: updates your own pending/running status of the same name and ref, else adds one " + '(finished ones never change).',
  group: 'branches',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/statuses/{sha} (GET /projects/{project_id}/repository/commits/{sha} first for a branch or tag)',
  input: Type.Object(
    {
      project_id: projectId(),
      sha,
      state: Type.Union(STATES.map((s) => Type.Literal(s))),
      ref: Type.Optional(refName('Branch or tag')),
      name: Type.Optional(shortName({ description: 'Check name (default: default)' })),
      context: Type.Optional(shortName({ description: 'Alias of name' })),
      // GitLab keeps 255 characters of these.
      target_url: Type.Optional(shortName({ description: 'Link for the check' })),
      description: Type.Optional(Type.String({ maxLength: 255 })),
      coverage: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Percent' })),
      pipeline_id: Type.Optional(integerId(undefined, 'Its pipeline')),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.name !== undefined && args.context !== undefined) throw invalidArgument('context', 'is an alias of name; give one of name or context, not both');
  },
  async handler(args, { forge }) {
    const { project_id: _p, sha: _s, context, ...rest } = args;
    const body: Record<string, unknown> = { ...rest };
    if (context !== undefined) body.name = context;
    const at = { ...args, sha: await commitSha(forge, args) };
    // Given a branch or tag, the status is that ref's: without `ref`, GitLab would pick one itself
    // (the newest pipeline's for the commit, else any branch holding it).
    if (body.ref === undefined && namesRef(args.sha, at.sha)) body.ref = args.sha;
    return forge.json({ method: 'POST', path: fillPath('/projects/{project_id}/statuses/{sha}', at), body });
  },
});

export const statusTools = [listCommitStatuses, createCommitStatus];
