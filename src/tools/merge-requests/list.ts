// list_merge_requests: one page of merge requests across all projects or in one, with GitLab's filters.
import { Type } from '@sinclair/typebox';
import { fillPath, type QueryValue } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { ID, isoDateTime, LIMITS, pagination, projectId, refName, search, shortName, oneOf } from '../params';
import { labels } from '../issues/params';
import { requireRelease } from '../tiers';

// Checked in `check` rather than by a published pattern: the description says it in fewer bytes.
const idNoneAny = () => Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.idDigits, description: 'User id, None or Any', ...ID }));
const ID_NONE_ANY = /^([0-9]+|none|any)$/i;
const EXCLUSIVE = [
  ['assignee_id', 'assignee_username'],
  ['reviewer_id', 'reviewer_username'],
] as const;

export const listMergeRequests = defineTool({
  name: 'list_merge_requests',
  attachments: true,
  title: 'List merge requests',
  description: 'List merge requests, newest first.',
  group: 'merge_requests',
  mode: 'read',
  record: 'merge_request',
  endpoint: 'GET /merge_requests or GET /projects/{project_id}/merge_requests',
  input: Type.Object(
    {
      project_id: Type.Optional(projectId()),
      state: oneOf(['opened', 'closed', 'locked', 'merged', 'all']),
      // lib/api/merge_requests.rb: GET /merge_requests defaults scope to created_by_me; a project's list to all.
      scope: oneOf(['created_by_me', 'assigned_to_me', 'reviews_for_me', 'all'], 'Default created_by_me without project_id, else all; reviews_for_me: 18.4+'),
      author_username: Type.Optional(shortName({ description: 'Username' })),
      assignee_id: idNoneAny(),
      assignee_username: Type.Optional(shortName({ description: 'Username' })),
      reviewer_id: idNoneAny(),
      reviewer_username: Type.Optional(shortName({ description: 'Username' })),
      labels: labels(),
      milestone: Type.Optional(shortName({ description: 'Title, None or Any' })),
      source_branch: Type.Optional(refName('Branch merged from')),
      target_branch: Type.Optional(refName('Branch merged into')),
      search: search(),
      wip: oneOf(['yes', 'no'], 'yes: drafts only; no: no drafts'),
      created_after: isoDateTime(),
      created_before: isoDateTime(),
      updated_after: isoDateTime(),
      updated_before: isoDateTime(),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    for (const name of ['assignee_id', 'reviewer_id'] as const) {
      if (args[name] !== undefined && !ID_NONE_ANY.test(args[name])) throw invalidArgument(name, 'must be a numeric user id, none or any');
    }
    for (const [id, name] of EXCLUSIVE)
      if (args[id] !== undefined && args[name] !== undefined) throw invalidArgument(name, `cannot be combined with ${id}; give one of them`);
  },
  async handler(args, ctx) {
    // GitLab 18.4 added the scope (lib/api/helpers/merge_requests_helpers.rb); an older one answers 400.
    if (args.scope === 'reviews_for_me') await requireRelease(ctx, 'scope', 'reviews_for_me', 18, 4);
    const { forge } = ctx;
    const { project_id, labels: names, ...rest } = args;
    const query: Record<string, QueryValue> = { ...rest };
    if (names !== undefined) query.labels = names.join(',');
    const path = project_id === undefined ? '/merge_requests' : fillPath('/projects/{project_id}/merge_requests', { project_id });
    return forge.list({ method: 'GET', path, query });
  },
});
