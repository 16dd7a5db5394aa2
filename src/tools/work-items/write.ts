// The work item writes (D45): create, update (state, status, parent and the widgets), add and remove
// children, convert type, comment. Each is one GitLab mutation (app/graphql/mutations/work_items/
// create.rb, update.rb, convert.rb; mutations/notes/create/note.rb) after, where the work item is named
// by iid or URL, one query for its global id. GitLab reports a refused change in the payload's
// `errors` with HTTP 200 ("… cannot be added: it's not allowed to add this type of parent item"): that
// is a failure here (validation), never a success. Descriptions and comments go through the
// quick-action guard like the REST tools' (D36); GitLab reads no quick actions in titles.
import { Type } from '@sinclair/typebox';
import { ToolError } from '../../forge/errors';
import type { GraphqlDocument } from '../../forge/graphql';
import { defineTool, type ToolContext } from '../define';
import { invalidArgument } from '../errors';
import { ID, integer, listOf, longText, noteBody, numericId, title, userText, input } from '../params';
import {
  CONVERT_WORK_ITEM,
  CREATE_WORK_ITEM,
  CREATE_WORK_ITEM_NOTE,
  UPDATE_WORK_ITEM,
  WORK_ITEM_CHILD_IDS,
  WORK_ITEM_NAMESPACE,
  WORK_ITEM_TYPES,
  type SchemaVariant,
} from './documents';
import { refusePaidWidgets, refuseStatuses, refuseTypes, schemaVariant, typeName, type TypeName, workItemGraphql } from './editions';
import { checkRef, gone, widget, namespacePath, resolveGid, toGid, workItemId, workItemRef, type RefArgs } from './refs';

const ids = (what: string, description?: string) => Type.Optional(listOf(numericId(`must be a positive integer ${what} id such as 42`), description));
// GitLab's work item mutations take labels by id only (WorkItemWidgetLabelsCreateInput.labelIds,
// WorkItemWidgetLabelsUpdateInput.addLabelIds/removeLabelIds; no names, unlike REST's `labels`).
const LABEL_IDS = 'Label ids (list_labels), not names.';
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { description }));

/** GitLab's payload `errors`: a refusal, said in its words. */
function payloadOf<T extends { errors?: unknown; workItem?: unknown; note?: unknown }>(data: Record<string, T | null>, field: string): T {
  const payload = data[field];
  if (!payload) throw new ToolError('upstream', `GitLab answered ${field} without a payload`);
  const errors = Array.isArray(payload.errors) ? payload.errors.filter((e): e is string => typeof e === 'string') : [];
  if (errors.length > 0) throw new ToolError('validation', `GitLab refused the change: ${errors.slice(0, 5).join('; ')}`);
  return payload;
}

/** Sends a mutation in the variant the forge's schema takes (`variant`: when the caller already knows it). */
async function mutate(
  ctx: ToolContext,
  documents: Record<SchemaVariant, GraphqlDocument>,
  field: string,
  inputValue: Record<string, unknown>,
  variant?: SchemaVariant,
): Promise<unknown> {
  const document = documents[variant ?? (await schemaVariant(ctx))];
  const data = await workItemGraphql<Record<string, { errors?: unknown; workItem?: unknown } | null>>(ctx, document, { input: inputValue });
  return payloadOf(data, field).workItem;
}

/** The global id of a namespace's work item type, asked of GitLab (types have no fixed ids across instances). */
async function typeId(ctx: ToolContext, path: string, type: TypeName, parameter: string): Promise<string> {
  const data = await workItemGraphql<{
    project?: { workItemTypes?: { nodes?: { id?: string }[] } } | null;
    group?: { workItemTypes?: { nodes?: { id?: string }[] } } | null;
  }>(ctx, WORK_ITEM_TYPES, { fullPath: path, name: type });
  if (!data.project && !data.group) throw new ToolError('not_found', `no project or group ${path} that the caller can see`);
  const id = (data.project ?? data.group)?.workItemTypes?.nodes?.[0]?.id;
  if (!id) throw invalidArgument(parameter, `${path} offers no work item type ${type} (list_work_item_types says which it does)`);
  return id;
}

const gids = (model: string, values: string[] | undefined) => values?.map((v) => `gid://gitlab/${model}/${v}`);

interface Fields {
  description?: string;
  label_ids?: string[];
  assignee_ids?: string[];
  milestone_id?: string;
  weight?: number | null;
  iteration_id?: string;
  start_date?: string | null;
  due_date?: string | null;
}

/**
 * The widget inputs both create and update take. `isFixed` (dates set by hand, not rolled up from
 * children) is declared in ee/ only, and the Community Edition refuses an input that carries it, so
 * only the Enterprise variants send it.
 */
function widgetInputs(args: Fields, variant: SchemaVariant): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (args.description !== undefined) out.descriptionWidget = { description: args.description };
  if (args.assignee_ids !== undefined) out.assigneesWidget = { assigneeIds: gids('User', args.assignee_ids) };
  if (args.milestone_id !== undefined) out.milestoneWidget = { milestoneId: args.milestone_id === '0' ? null : `gid://gitlab/Milestone/${args.milestone_id}` };
  if (args.weight !== undefined) out.weightWidget = { weight: args.weight };
  if (args.iteration_id !== undefined) out.iterationWidget = { iterationId: args.iteration_id === '0' ? null : `gid://gitlab/Iteration/${args.iteration_id}` };
  if (args.start_date !== undefined || args.due_date !== undefined) {
    out.startAndDueDateWidget = {
      ...(args.start_date !== undefined ? { startDate: args.start_date } : {}),
      ...(args.due_date !== undefined ? { dueDate: args.due_date } : {}),
      ...(variant === 'free' ? {} : { isFixed: true }),
    };
  }
  return out;
}

/** An id where 0 removes what is set (as GitLab's REST API reads milestone_id 0). */
const idOrZero = (what: string, description: string) =>
  Type.Optional(
    Type.String({ pattern: '^(0|[1-9][0-9]{0,18})$', maxLength: 19, hint: `must be a ${what} id such as 42, or 0 to remove it`, description, ...ID }),
  );

const common = {
  description: Type.Optional(userText(longText())),
  assignee_ids: ids('user', 'User ids (list_project_members), not usernames.'),
  milestone_id: idOrZero('milestone', 'Milestone id (list_milestones); 0 removes it.'),
  weight: nullable(integer(0, 'must be an integer, 0 or more'), 'Premium/Ultimate; null removes it.'),
  iteration_id: idOrZero('iteration', 'Premium/Ultimate; 0 removes it.'),
  start_date: nullable(Type.String({ format: 'date', maxLength: 10, hint: 'must be a date in the form YYYY-MM-DD' }), 'YYYY-MM-DD; null removes it.'),
  due_date: nullable(Type.String({ format: 'date', maxLength: 10, hint: 'must be a date in the form YYYY-MM-DD' }), 'YYYY-MM-DD; null removes it.'),
};

const createWorkItem = defineTool({
  name: 'create_work_item',
  title: 'Create a work item',
  description:
    'Create a work item of a type the project or group offers (list_work_item_types), optionally under a parent (tasks under issues, incidents and tickets; issues, tickets and epics under epics). Epics live in groups. Labels, assignees and milestone are given by id.',
  group: 'work_items',
  mode: 'write',
  record: 'work_item',
  input: input({
    namespace_path: namespacePath(),
    type: typeName('A type the namespace offers (list_work_item_types).'),
    title: title(),
    ...common,
    parent_id: Type.Optional(workItemId('The parent work item.')),
    label_ids: ids('label', LABEL_IDS),
    confidential: Type.Optional(Type.Boolean()),
  }),
  endpoint: 'POST /api/graphql (workItemTypes, createWorkItem)',
  handler: async (raw, ctx) => {
    const args = raw as unknown as Fields & { namespace_path: string; type: TypeName; title: string; parent_id?: string; confidential?: boolean };
    await refuseTypes(ctx, 'type', [args.type]);
    await refusePaidWidgets(ctx, args);
    const workItemTypeId = await typeId(ctx, args.namespace_path, args.type, 'type');
    const variant = await schemaVariant(ctx);
    return mutate(
      ctx,
      CREATE_WORK_ITEM,
      'workItemCreate',
      {
        namespacePath: args.namespace_path,
        title: args.title,
        workItemTypeId,
        confidential: args.confidential,
        ...widgetInputs(args, variant),
        ...(args.parent_id !== undefined ? { hierarchyWidget: { parentId: toGid(args.parent_id) } } : {}),
        ...(args.label_ids !== undefined ? { labelsWidget: { labelIds: gids('Label', args.label_ids) } } : {}),
      },
      variant,
    );
  },
});

const STATUS_ID = '^gid://gitlab/WorkItems::Statuses::(SystemDefined|Custom)::Status/[1-9][0-9]{0,18}$';

const updateWorkItem = defineTool({
  name: 'update_work_item',
  title: 'Update a work item',
  description:
    'Change a work item: title, description, state (close or reopen), status (custom statuses: list_work_item_statuses), parent (null detaches it), labels, assignees, milestone, iteration, weight, dates, confidentiality. Fields not given stay as they are.',
  group: 'work_items',
  mode: 'write',
  idempotent: true,
  record: 'work_item',
  input: input({
    ...workItemRef(),
    title: Type.Optional(title()),
    state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('reopen')])),
    status: Type.Optional(
      Type.String({
        pattern: STATUS_ID,
        maxLength: 100,
        hint: 'must be a status id from list_work_item_statuses',
        description: 'A status id from list_work_item_statuses.',
      }),
    ),
    parent_id: Type.Optional(workItemId('The new parent.')),
    remove_parent: Type.Optional(Type.Boolean({ description: 'Detach the work item from its parent.' })),
    add_label_ids: ids('label', LABEL_IDS),
    remove_label_ids: ids('label', LABEL_IDS),
    confidential: Type.Optional(Type.Boolean()),
    ...common,
  }),
  endpoint: 'POST /api/graphql (resolveWorkItem, updateWorkItem)',
  check: (raw) => {
    const args = raw as unknown as RefArgs & Record<string, unknown>;
    checkRef(args);
    if (args.parent_id !== undefined && args.remove_parent === true) throw invalidArgument('remove_parent', 'give parent_id or remove_parent, not both');
    const changes = Object.keys(args).filter((k) => !['id', 'namespace_path', 'iid', 'url'].includes(k));
    if (changes.length === 0) throw invalidArgument('title', 'nothing to change: give at least one field to update');
  },
  handler: async (raw, ctx) => {
    const args = raw as unknown as RefArgs &
      Fields & {
        title?: string;
        state_event?: 'close' | 'reopen';
        status?: string;
        parent_id?: string;
        remove_parent?: boolean;
        add_label_ids?: string[];
        remove_label_ids?: string[];
        confidential?: boolean;
      };
    if (args.status !== undefined) await refuseStatuses(ctx, 'status');
    await refusePaidWidgets(ctx, args);
    const id = await resolveGid(args, ctx);
    if (args.parent_id !== undefined && toGid(args.parent_id) === id) throw invalidArgument('parent_id', 'a work item cannot be its own parent');
    const variant = await schemaVariant(ctx);
    return mutate(
      ctx,
      UPDATE_WORK_ITEM,
      'workItemUpdate',
      {
        id,
        title: args.title,
        stateEvent: args.state_event?.toUpperCase(),
        confidential: args.confidential,
        ...widgetInputs(args, variant),
        ...(args.status !== undefined ? { statusWidget: { status: args.status } } : {}),
        ...(args.parent_id !== undefined ? { hierarchyWidget: { parentId: toGid(args.parent_id) } } : {}),
        ...(args.remove_parent === true ? { hierarchyWidget: { parentId: null } } : {}),
        ...(args.add_label_ids !== undefined || args.remove_label_ids !== undefined
          ? { labelsWidget: { addLabelIds: gids('Label', args.add_label_ids), removeLabelIds: gids('Label', args.remove_label_ids) } }
          : {}),
      },
      variant,
    );
  },
});

const childIds = () => Type.Array(workItemId(), { minItems: 1, maxItems: 100, description: 'Global ids of the children (at most 100 a call).' });

const addWorkItemChildren = defineTool({
  name: 'add_work_item_children',
  title: 'Add children to a work item',
  description:
    'Put work items under a parent (tasks under issues, incidents, tickets; issues, tickets, epics under epics, 7 deep; objectives, key results under objectives). GitLab refuses other types, cycles, a public child of a confidential parent.',
  group: 'work_items',
  mode: 'write',
  idempotent: true,
  record: 'work_item',
  input: input({ ...workItemRef(), child_ids: childIds() }),
  endpoint: 'POST /api/graphql (resolveWorkItem, updateWorkItem)',
  check: (raw) => {
    const args = raw as unknown as RefArgs & { child_ids: string[] };
    checkRef(args, 'the parent');
    const seen = new Set<string>();
    for (const c of args.child_ids.map(toGid)) {
      if (seen.has(c)) throw invalidArgument('child_ids', `${c} is given twice`);
      seen.add(c);
    }
  },
  handler: async (raw, ctx) => {
    const args = raw as unknown as RefArgs & { child_ids: string[] };
    const id = await resolveGid(args, ctx);
    if (args.child_ids.some((c) => toGid(c) === id)) throw invalidArgument('child_ids', 'a work item cannot be its own child');
    return mutate(ctx, UPDATE_WORK_ITEM, 'workItemUpdate', { id, hierarchyWidget: { childrenIds: args.child_ids.map(toGid) } });
  },
});

interface ChildPage {
  workItem: {
    widgets?: ({ type?: string; children?: { nodes?: { id?: string }[]; pageInfo?: { hasNextPage?: boolean; endCursor?: string } } } | null)[];
  } | null;
}

/** Pages of a parent's child ids read at most: 50 × 100, past GitLab's 5,000 children a parent may have. */
const MAX_CHILD_PAGES = 51;

const removeWorkItemChildren = defineTool({
  name: 'remove_work_item_children',
  title: 'Remove children from a work item',
  description:
    'Detach work items from their parent (they stay, without a parent). Each must be a child of the parent named, checked before anything changes; one mutation per child.',
  group: 'work_items',
  mode: 'write',
  idempotent: true,
  destructive: true,
  input: input({ ...workItemRef(), child_ids: childIds() }),
  endpoint: 'POST /api/graphql (resolveWorkItem, workItemChildIds, updateWorkItem)',
  check: (raw) => checkRef(raw as RefArgs, 'the parent'),
  handler: async (raw, ctx) => {
    const args = raw as unknown as RefArgs & { child_ids: string[] };
    const id = await resolveGid(args, ctx);
    const children = new Set<string>();
    let cursor: string | undefined;
    for (let n = 0; n < MAX_CHILD_PAGES; n++) {
      const data = await workItemGraphql<ChildPage>(ctx, WORK_ITEM_CHILD_IDS, { id, after: cursor });
      if (!data.workItem) throw gone(`work item ${id}`);
      const connection = widget(data.workItem, 'HIERARCHY')?.children;
      for (const c of connection?.nodes ?? []) if (c?.id) children.add(c.id);
      if (!connection?.pageInfo?.hasNextPage || !connection.pageInfo.endCursor) break;
      cursor = connection.pageInfo.endCursor;
    }
    const wanted = [...new Set(args.child_ids.map(toGid))];
    const strangers = wanted.filter((c) => !children.has(c));
    if (strangers.length) throw invalidArgument('child_ids', `not children of ${id}: ${strangers.join(', ')}; nothing was changed`);
    const removed: string[] = [];
    const variant = await schemaVariant(ctx);
    for (const child of wanted) {
      await mutate(ctx, UPDATE_WORK_ITEM, 'workItemUpdate', { id: child, hierarchyWidget: { parentId: null } }, variant);
      removed.push(child);
    }
    return { parent_id: id, removed };
  },
});

const convertWorkItemType = defineTool({
  name: 'convert_work_item_type',
  title: 'Convert a work item type',
  description:
    'Change a work item to another type its namespace offers (an issue to a task, …). GitLab refuses a type its parent or children cannot have beside it.',
  group: 'work_items',
  mode: 'write',
  idempotent: true,
  record: 'work_item',
  input: input({ ...workItemRef(), type: typeName('The type to convert to.') }),
  endpoint: 'POST /api/graphql (resolveWorkItem, workItemTypes, convertWorkItem)',
  check: (raw) => checkRef(raw as RefArgs),
  handler: async (raw, ctx) => {
    const args = raw as unknown as RefArgs & { type: TypeName };
    await refuseTypes(ctx, 'type', [args.type]);
    const id = await resolveGid(args, ctx);
    const item = (await workItemGraphql<{ workItem: { namespace?: { fullPath?: string } } | null }>(ctx, WORK_ITEM_NAMESPACE, { id })).workItem;
    const path = item?.namespace?.fullPath;
    if (!path) throw gone(`work item ${id}`);
    return mutate(ctx, CONVERT_WORK_ITEM, 'workItemConvert', { id, workItemTypeId: await typeId(ctx, path, args.type, 'type') });
  },
});

const createWorkItemNote = defineTool({
  name: 'create_work_item_note',
  title: 'Comment on a work item',
  description:
    'Add a comment to a work item, or with discussion_id (from list_work_item_notes) reply in that thread. internal: visible to Reporters and above only.',
  group: 'work_items',
  mode: 'write',
  record: 'work_item_note',
  input: input({
    ...workItemRef(),
    body: userText(noteBody()),
    discussion_id: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{40}$',
        maxLength: 40,
        identifier: true,
        hint: 'must be a discussion_id from list_work_item_notes (40 hex characters)',
        description: 'Reply in this thread (discussion_id of list_work_item_notes); absent: a new thread.',
      }),
    ),
    internal: Type.Optional(Type.Boolean({ description: 'Visible to Reporters and above only.' })),
  }),
  endpoint: 'POST /api/graphql (resolveWorkItem, createWorkItemNote)',
  check: (raw) => checkRef(raw as RefArgs),
  handler: async (raw, ctx) => {
    const args = raw as unknown as RefArgs & { body: string; discussion_id?: string; internal?: boolean };
    const noteableId = await resolveGid(args, ctx);
    const data = await workItemGraphql<Record<string, { errors?: unknown; note?: unknown } | null>>(ctx, CREATE_WORK_ITEM_NOTE, {
      input: {
        noteableId,
        body: args.body,
        discussionId: args.discussion_id === undefined ? undefined : `gid://gitlab/Discussion/${args.discussion_id}`,
        internal: args.internal,
      },
    });
    return payloadOf(data, 'createNote').note;
  },
});

export const workItemWriteTools = [createWorkItem, updateWorkItem, addWorkItemChildren, removeWorkItemChildren, convertWorkItemType, createWorkItemNote];
