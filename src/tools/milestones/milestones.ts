// One definition of the milestone tools for either parent: list, get, create, edit, delete, and
// the issues and merge requests of a milestone. Dates are checked here (real calendar dates, due
// after start) so a bad value never reaches the forge, which would silently store no date.
import { Type, type TObject } from '@sinclair/typebox';
import type { ToolDefinition } from '../define';
import { invalidArgument } from '../errors';
import { isoDate, isoDateTime, pagination } from '../params';
import { restTool } from '../rest';
import { milestoneId, parentParam, type MilestoneScope } from './scope';

const state = Type.Optional(
  Type.Union([Type.Literal('active'), Type.Literal('closed')], { description: 'Only active or only closed milestones (default: both).' }),
);
const stateEvent = Type.Optional(
  Type.Union([Type.Literal('close'), Type.Literal('activate')], { description: 'close: active → closed; activate: closed → active.' }),
);
const dates = {
  due_date: isoDate('Due date,'),
  start_date: isoDate('Start date,'),
};

interface DatedArgs {
  due_date?: string;
  start_date?: string;
}

/** GitLab refuses a due date on or before the start date; say so before asking it. */
function checkDateOrder(args: DatedArgs): void {
  if (args.due_date && args.start_date && args.due_date <= args.start_date) {
    throw invalidArgument('due_date', `must be after start_date (${args.start_date})`);
  }
}

const EDITABLE = ['title', 'description', 'due_date', 'start_date', 'state_event'] as const;

export interface MilestoneTools {
  list: ToolDefinition;
  get: ToolDefinition;
  create: ToolDefinition;
  edit: ToolDefinition;
  delete: ToolDefinition;
  issues: ToolDefinition;
  mergeRequests: ToolDefinition;
}

export function milestoneTools(scope: MilestoneScope): MilestoneTools {
  const { names, noun, basePath } = scope;
  const parent = parentParam(scope);
  const one = `${basePath}/milestones/{milestone_id}`;
  const other = noun === 'project' ? 'group' : 'project';
  const input = (properties: Parameters<typeof Type.Object>[0]): TObject => Type.Object(properties, { additionalProperties: false });

  const list = restTool({
    name: names.list,
    title: `List ${noun} milestones`,
    description:
      `List a ${noun}'s milestones, one page at a time, by due date. Filters: state, exact title, search (title or description), ` +
      `iids, updated_before/updated_after. include_ancestors adds the milestones of parent groups` +
      (noun === 'group' ? '; include_descendants adds those of subgroups and their projects' : '') +
      '. Other milestone tools take the `id` field as milestone_id.',
    group: 'milestones',
    mode: 'read',
    input: input({
      ...parent,
      iids: Type.Optional(
        Type.Array(Type.Integer({ minimum: 1, hint: 'must be a positive integer (an iid)' }), { description: `Only milestones with these iids (numbers within the ${noun}).` }),
      ),
      state,
      title: Type.Optional(Type.String({ description: 'Only the milestone with exactly this title.' })),
      search: Type.Optional(Type.String({ description: 'Only milestones whose title or description contains this text.' })),
      include_ancestors: Type.Optional(Type.Boolean({ description: `Also list milestones of the ${noun}'s parent groups.` })),
      ...(noun === 'group'
        ? { include_descendants: Type.Optional(Type.Boolean({ description: 'Also list milestones of subgroups and of projects below the group.' })) }
        : {}),
      updated_before: isoDateTime('Only milestones last updated before this time.'),
      updated_after: isoDateTime('Only milestones last updated after this time.'),
      ...pagination,
    }),
    check(args: { iids?: number[]; include_ancestors?: boolean }) {
      // The forge drops the iids filter when ancestors are included; refuse rather than return unfiltered milestones.
      if (args.iids?.length && args.include_ancestors) {
        throw invalidArgument('iids', 'is ignored by the forge together with include_ancestors; filter by title instead, or leave include_ancestors out');
      }
    },
    rest: { method: 'GET', path: `${basePath}/milestones`, list: true },
  });

  const get = restTool({
    name: names.get,
    title: `Get ${noun} milestone`,
    description: `Get one ${noun} milestone by its global id (the id field, not iid). A ${other} milestone is not found here: use the ${other} milestone tools.`,
    group: 'milestones',
    mode: 'read',
    input: input({ ...parent, milestone_id: milestoneId() }),
    rest: { method: 'GET', path: one },
  });

  const create = restTool({
    name: names.create,
    title: `Create ${noun} milestone`,
    description:
      `Create a ${noun} milestone (active). The title must not be used by another milestone of the ${noun}'s hierarchy; ` +
      'dates are YYYY-MM-DD and due_date must be after start_date. Returns the milestone with its id.',
    group: 'milestones',
    mode: 'write',
    input: input({
      ...parent,
      title: Type.String({ minLength: 1, description: 'Title, unique among the milestones of the hierarchy.' }),
      description: Type.Optional(Type.String({ description: 'Description (Markdown).' })),
      ...dates,
    }),
    check: checkDateOrder,
    rest: { method: 'POST', path: `${basePath}/milestones` },
  });

  const edit = restTool({
    name: names.edit,
    title: `Edit ${noun} milestone`,
    description:
      `Change a ${noun} milestone's title, description or dates, or move its state: state_event close (active → closed) or activate ` +
      '(closed → active). Give at least one of these. Returns the updated milestone.',
    group: 'milestones',
    mode: 'write',
    idempotent: true,
    input: input({
      ...parent,
      milestone_id: milestoneId(),
      title: Type.Optional(Type.String({ minLength: 1, description: 'New title.' })),
      description: Type.Optional(Type.String({ description: 'New description (Markdown).' })),
      ...dates,
      state_event: stateEvent,
    }),
    check(args: DatedArgs & Record<string, unknown>) {
      if (!EDITABLE.some((name) => args[name] !== undefined)) throw invalidArgument('arguments', `give at least one of ${EDITABLE.join(', ')}`);
      checkDateOrder(args);
    },
    rest: { method: 'PUT', path: one },
  });

  const remove = restTool({
    name: names.delete,
    title: `Delete ${noun} milestone`,
    description: `Delete a ${noun} milestone permanently. Its issues and merge requests are kept, without a milestone.`,
    group: 'milestones',
    mode: 'write',
    destructive: true,
    input: input({ ...parent, milestone_id: milestoneId() }),
    rest: { method: 'DELETE', path: one, empty: (args) => ({ deleted: true, milestone_id: args.milestone_id }) },
  });

  const issues = restTool({
    name: names.issues,
    title: `List ${noun} milestone issues`,
    description: `List the issues assigned to a ${noun} milestone, one page at a time (confidential ones only where the caller may see them).`,
    group: 'milestones',
    mode: 'read',
    input: input({ ...parent, milestone_id: milestoneId(), ...pagination }),
    rest: { method: 'GET', path: `${one}/issues`, list: true },
  });

  const mergeRequests = restTool({
    name: names.mergeRequests,
    title: `List ${noun} milestone merge requests`,
    description: `List the merge requests assigned to a ${noun} milestone, one page at a time.`,
    group: 'milestones',
    mode: 'read',
    input: input({ ...parent, milestone_id: milestoneId(), ...pagination }),
    rest: { method: 'GET', path: `${one}/merge_requests`, list: true },
  });

  return { list, get, create, edit, delete: remove, issues, mergeRequests };
}
