// The work item reads (D45): list a project's or group's work items (or one work item's children),
// get one with its widgets, its notes, and the types and statuses a namespace offers. Lists page by
// cursor: pagination.next_page is GitLab's endCursor, given back as `after`.
import { Type } from '@sinclair/typebox';
import { defineTool, type ToolContext } from '../define';
import { invalidArgument } from '../errors';
import { requireRelease } from '../tiers';
import { isoDateTime, listOf, search, shortName, input } from '../params';
import {
  GET_WORK_ITEM,
  GET_WORK_ITEM_BY_IID,
  LIST_WORK_ITEM_CHILDREN,
  LIST_WORK_ITEM_NOTES,
  LIST_WORK_ITEMS,
  WORK_ITEM_STATUSES,
  WORK_ITEM_TYPES,
} from './documents';
import { refusePaidWidgets, refuseStatuses, refuseTypes, schemaVariant, typeName, type TypeName, workItemGraphql } from './editions';
import { checkRef, gone, widget, firstNode, iidRef, namespacePath, resolveGid, toGid, workItemId, workItemRef, type RefArgs } from './refs';

/** GitLab's default_max_page_size is 100 (app/graphql/gitlab_schema.rb). */
const perPage = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, hint: 'must be an integer from 1 to 100', description: 'Default 20, max 100.' }));
const after = Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'pagination.next_page of the previous page.' }));

interface Connection {
  count?: number;
  nodes?: unknown[] | null;
  pageInfo?: { hasNextPage?: boolean; endCursor?: string | null };
}

/** A GraphQL connection as this server's page (D16, D45): next_page is a cursor for `after`. */
function pageOf(connection: Connection | null | undefined, perPageAsked: number) {
  const items = (connection?.nodes ?? []).filter((n) => n !== null);
  const next = connection?.pageInfo?.hasNextPage ? (connection.pageInfo.endCursor ?? null) : null;
  return {
    items,
    pagination: {
      page: null,
      per_page: perPageAsked,
      next_page: next,
      total: typeof connection?.count === 'number' ? connection.count : null,
      total_pages: null,
    },
  };
}

interface Widgets {
  widgets?: ({ type?: string; children?: Connection; discussions?: Connection } | null)[] | null;
}

interface ListArgs {
  namespace_path?: string;
  parent_id?: string;
  types?: TypeName[];
  state?: 'opened' | 'closed' | 'all';
  search?: string;
  labels?: string[];
  assignee_usernames?: string[];
  author_username?: string;
  milestone_title?: string;
  iteration_id?: string;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  sort?: string;
  include_descendants?: boolean;
  per_page?: number;
  after?: string;
}

const SORTS = ['CREATED_DESC', 'CREATED_ASC', 'UPDATED_DESC', 'UPDATED_ASC', 'TITLE_ASC', 'TITLE_DESC', 'DUE_DATE_ASC', 'DUE_DATE_DESC'];
const FILTERS = [
  'types',
  'state',
  'search',
  'labels',
  'assignee_usernames',
  'author_username',
  'milestone_title',
  'iteration_id',
  'created_after',
  'created_before',
  'updated_after',
  'updated_before',
  'sort',
  'include_descendants',
] as const;

const listWorkItems = defineTool({
  name: 'list_work_items',
  title: 'List work items',
  description:
    "List a project's or group's work items (issues, tasks, epics, objectives, …), or with parent_id one work item's children. A group lists its own (epics) unless include_descendants. Pages by cursor: pass pagination.next_page as after.",
  group: 'work_items',
  mode: 'read',
  record: 'work_item',
  input: input({
    namespace_path: Type.Optional(namespacePath()),
    parent_id: Type.Optional(workItemId("List this work item's children instead (no other filter applies).")),
    types: Type.Optional({ ...listOf(typeName()), description: 'Only these types (ISSUE, TASK, EPIC, …).' }),
    state: Type.Optional(Type.Union([Type.Literal('opened'), Type.Literal('closed'), Type.Literal('all')])),
    search: search(),
    labels: Type.Optional({ ...listOf(shortName()), description: 'Label names; a work item must have all.' }),
    assignee_usernames: Type.Optional({ ...listOf(shortName()), description: 'Usernames (without @); assigned to all of them.' }),
    author_username: Type.Optional({ ...shortName(), description: 'Username without @.' }),
    milestone_title: Type.Optional({ ...shortName(), description: 'Milestone title, exact.' }),
    iteration_id: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,18}$',
        maxLength: 19,
        hint: 'must be an iteration id such as 7',
        stringOrInteger: true,
        description: 'Premium/Ultimate.',
      }),
    ),
    created_after: isoDateTime(),
    created_before: isoDateTime(),
    updated_after: isoDateTime(),
    updated_before: isoDateTime(),
    sort: Type.Optional(Type.Union(SORTS.map((s) => Type.Literal(s)))),
    include_descendants: Type.Optional(Type.Boolean({ description: "A group: also its subgroups' and projects' work items." })),
    per_page: perPage,
    after,
  }),
  endpoint: 'POST /api/graphql (listWorkItems, listWorkItemChildren)',
  check: (raw) => {
    const args = raw as unknown as ListArgs;
    if ((args.namespace_path === undefined) === (args.parent_id === undefined))
      throw invalidArgument('namespace_path', "give namespace_path, or parent_id for a work item's children");
    if (args.parent_id !== undefined) {
      const used = FILTERS.find((f) => args[f] !== undefined);
      if (used) throw invalidArgument(used, "does not apply with parent_id: GitLab lists a work item's children unfiltered");
    }
  },
  handler: async (raw, ctx) => {
    const args = raw as unknown as ListArgs;
    const first = args.per_page ?? 20;
    const variant = await schemaVariant(ctx);
    if (args.parent_id !== undefined) {
      const data = await workItemGraphql<{ workItem: Widgets | null }>(ctx, LIST_WORK_ITEM_CHILDREN[variant], {
        id: toGid(args.parent_id),
        first,
        after: args.after,
      });
      if (!data.workItem) throw gone(`work item ${args.parent_id}`);
      return pageOf(widget(data.workItem, 'HIERARCHY')?.children, first);
    }
    await refuseTypes(ctx, 'types', args.types);
    await refusePaidWidgets(ctx, { iteration_id: args.iteration_id });
    // The due date sorts are WorkItems::Widgets::StartAndDueDate's sorting_keys, experiments from 17.9.
    if (args.sort?.startsWith('DUE_DATE')) await requireRelease(ctx, 'sort', 'sorting work items by due date', 17, 9);
    // The iteration filter exists only in ee/; an instance that will not say its edition is sent it,
    // and GitLab decides.
    const listVariant = args.iteration_id !== undefined && variant === 'free' ? 'paid' : variant;
    const data = await workItemGraphql<{ project?: { workItems?: Connection } | null; group?: { workItems?: Connection } | null }>(
      ctx,
      LIST_WORK_ITEMS[listVariant],
      {
        fullPath: args.namespace_path,
        types: args.types,
        state: args.state,
        search: args.search,
        labelName: args.labels,
        assigneeUsernames: args.assignee_usernames,
        authorUsername: args.author_username,
        milestoneTitle: args.milestone_title === undefined ? undefined : [args.milestone_title],
        iterationId: args.iteration_id === undefined ? undefined : [`gid://gitlab/Iteration/${args.iteration_id}`],
        createdAfter: args.created_after,
        createdBefore: args.created_before,
        updatedAfter: args.updated_after,
        updatedBefore: args.updated_before,
        sort: args.sort,
        includeDescendants: args.include_descendants,
        first,
        after: args.after,
      },
    );
    const connection = data.project?.workItems ?? data.group?.workItems;
    if (!data.project && !data.group) throw gone(`project or group ${args.namespace_path}`);
    return pageOf(connection, first);
  },
});

async function getWhole(args: RefArgs, ctx: ToolContext): Promise<Widgets> {
  const variant = await schemaVariant(ctx);
  const ref = iidRef(args, ctx);
  if (ref) {
    return firstNode<Widgets>(
      await workItemGraphql(ctx, GET_WORK_ITEM_BY_IID[variant], { fullPath: ref.namespace_path, iid: ref.iid, first: 1 }),
      ref.namespace_path,
      ref.iid,
    );
  }
  const data = await workItemGraphql<{ workItem: Widgets | null }>(ctx, GET_WORK_ITEM[variant], { id: toGid(args.id!) });
  if (!data.workItem) throw gone(`work item ${args.id}`);
  return data.workItem;
}

const getWorkItem = defineTool({
  name: 'get_work_item',
  title: 'Get a work item',
  description:
    'One work item with its widgets: description, parent, children with their state and progress (closed of total), linked items, labels, assignees, milestone, iteration, weight, dates and status where the forge has them.',
  group: 'work_items',
  mode: 'read',
  record: 'work_item',
  input: input(workItemRef()),
  endpoint: 'POST /api/graphql (getWorkItem, getWorkItemByIid)',
  check: (args) => checkRef(args as RefArgs),
  handler: (args, ctx) => getWhole(args as RefArgs, ctx),
});

interface Discussion {
  id?: string;
  notes?: { nodes?: unknown[] | null };
}

const listWorkItemNotes = defineTool({
  name: 'list_work_item_notes',
  title: 'List work item notes',
  description:
    "A work item's comments, thread by thread (each note has its discussion_id, to reply with create_work_item_note). Pages by thread: pass pagination.next_page as after.",
  group: 'work_items',
  mode: 'read',
  record: 'work_item_note',
  input: input({ ...workItemRef(), per_page: perPage, after }),
  endpoint: 'POST /api/graphql (listWorkItemNotes)',
  check: (args) => checkRef(args as RefArgs),
  handler: async (raw, ctx) => {
    const args = raw as unknown as RefArgs & { per_page?: number; after?: string };
    const id = await resolveGid(args, ctx);
    const first = args.per_page ?? 20;
    const data = await workItemGraphql<{ workItem: Widgets | null }>(ctx, LIST_WORK_ITEM_NOTES, { id, first, after: args.after });
    if (!data.workItem) throw gone(`work item ${id}`);
    const discussions = widget(data.workItem, 'NOTES')?.discussions;
    const page = pageOf(discussions, first);
    return { ...page, items: (page.items as Discussion[]).flatMap((d) => (d.notes?.nodes ?? []).filter((n) => n !== null)) };
  },
});

interface TypeNodes {
  project?: { workItemTypes?: { nodes?: unknown[] | null } | null } | null;
  group?: { workItemTypes?: { nodes?: unknown[] | null } | null } | null;
}

function typesOf(data: TypeNodes, path: string): unknown[] {
  if (!data.project && !data.group) throw gone(`project or group ${path}`);
  return ((data.project ?? data.group)?.workItemTypes?.nodes ?? []).filter((n) => n !== null);
}

const listWorkItemTypes = defineTool({
  name: 'list_work_item_types',
  title: 'List work item types',
  description:
    'The work item types GitLab lists for a project or group, with their global ids and widgets (what each type can carry). GitLab may list a type the namespace cannot hold; creating one is then refused.',
  group: 'work_items',
  mode: 'read',
  record: 'work_item_type',
  input: input({ namespace_path: namespacePath() }),
  endpoint: 'POST /api/graphql (workItemTypes)',
  handler: async (args, ctx) =>
    typesOf(await workItemGraphql<TypeNodes>(ctx, WORK_ITEM_TYPES, { fullPath: args.namespace_path }), args.namespace_path as string),
});

const listWorkItemStatuses = defineTool({
  name: 'list_work_item_statuses',
  title: 'List work item statuses',
  description:
    'The statuses each work item type of a project or group allows (custom statuses: Premium or Ultimate, GitLab 18.2 or later), with the ids update_work_item takes as status.',
  group: 'work_items',
  mode: 'read',
  record: 'work_item_type',
  input: input({ namespace_path: namespacePath(), type: Type.Optional(typeName('Only this type.')) }),
  endpoint: 'POST /api/graphql (workItemStatuses)',
  handler: async (args, ctx) => {
    await refuseStatuses(ctx, 'namespace_path');
    const types = typesOf(
      await workItemGraphql<TypeNodes>(ctx, WORK_ITEM_STATUSES, { fullPath: args.namespace_path, name: args.type }),
      args.namespace_path as string,
    );
    return types.filter((t) => ((t as { widgetDefinitions?: { type?: string }[] }).widgetDefinitions ?? []).some((d) => d.type === 'STATUS'));
  },
});

export const workItemReadTools = [listWorkItems, getWorkItem, listWorkItemNotes, listWorkItemTypes, listWorkItemStatuses];
