// search: GitLab's search API with every scope at every level (lib/api/search.rb); each scope's hits
// are the lean records of their own kind (D33).
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { RECORD_KINDS, type RecordKindName } from '../lean';
import { isRecord } from '../lean/helpers';
import { groupId, LIMITS, pagination, projectId, refName } from '../params';
import { callRest } from '../rest';
import { checkSearch, explainRefusal, levelOf, PATHS, SCOPES, type Scope } from './level';
import { ANY_OBJECT, fields, list, PAGINATION } from '../lean/schema-parts';

const KIND: Record<Scope, RecordKindName> = {
  projects: 'project',
  issues: 'issue',
  merge_requests: 'merge_request',
  milestones: 'milestone',
  snippet_titles: 'snippet_hit',
  users: 'user',
  wiki_blobs: 'code_hit',
  commits: 'commit_summary',
  blobs: 'code_hit',
  notes: 'note',
};

export const term = () => Type.String({ minLength: 1, maxLength: LIMITS.search, description: "Term, in GitLab's search syntax" });

export const searchTool = defineTool({
  name: 'search',
  title: 'Search',
  description:
    "Search the instance, a group (group_id) or a project (project_id) for one scope. Code, commits, wiki and comments across a group or the instance need GitLab's advanced search; within a project they always work.",
  group: 'search',
  mode: 'read',
  // Each scope's hits are lean records of their own kind, applied below; full_response returns GitLab's.
  text: true,
  output: fields({ items: list(ANY_OBJECT), pagination: PAGINATION }),
  input: Type.Object(
    {
      scope: Type.Union(
        Object.keys(SCOPES).map((s) => Type.Literal(s)),
        { description: 'What to search' },
      ),
      search: term(),
      project_id: Type.Optional(projectId()),
      group_id: Type.Optional(groupId()),
      ref: Type.Optional(refName('With project_id: branch or tag')),
      state: Type.Optional(Type.Union([Type.Literal('opened'), Type.Literal('closed'), Type.Literal('merged')])),
      confidential: Type.Optional(Type.Boolean()),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'By creation time.' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check: (args) => checkSearch(args),
  endpoint: `GET ${PATHS.instance}, ${PATHS.group} or ${PATHS.project}`,
  async handler(args, ctx) {
    const level = levelOf(args);
    const query = { ...args, ...(args.sort ? { order_by: 'created_at' } : {}) };
    let page: { items: unknown[] };
    try {
      page = (await callRest({ method: 'GET', path: PATHS[level], list: true }, query, ctx.forge)) as { items: unknown[] };
    } catch (error) {
      throw explainRefusal(error, args.scope, level);
    }
    if (ctx.fullResponse) return page;
    const kind = RECORD_KINDS[KIND[args.scope as Scope]];
    return { ...page, items: page.items.map((item) => (isRecord(item) ? kind.lean(item) : item)) };
  },
});
