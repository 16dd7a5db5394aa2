// One definition of the milestone tools for either parent: list, get, create, edit, delete, and
// the issues and merge requests of a milestone. Dates are checked here (real calendar dates, due
// after start) so a bad value never reaches the forge, which would silently store no date.
import { Type } from '@sinclair/typebox';
import { defineTool, type ToolDefinition } from '../define';
import { invalidArgument } from '../errors';
import { integerId, isoDate, isoDateTime, listOf, longText, pagination, search, shortName, title, input } from '../params';
import { callRest, restTool, type RestSpec } from '../rest';
import { requireRelease } from '../tiers';
import { ancestorsParameter, milestoneId, parentParam, type MilestoneScope } from './scope';
import { deletedOutput } from '../lean/schema-parts';

const state = Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('closed')]));
const stateEvent = Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('activate')]));
const dates = {
  due_date: isoDate(),
  start_date: isoDate(),
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

interface MilestoneTools {
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

  const listSpec: RestSpec = { method: 'GET', path: `${basePath}/milestones`, list: true };
  const list = defineTool({
    name: names.list,
    title: `List ${noun} milestones`,
    description: `List a ${noun}'s milestones, by due date. Items leave out project_id and web_url (${names.get} has them).`,
    group: 'milestones',
    mode: 'read',
    record: 'milestone_summary',
    input: input({
      ...parent,
      iids: Type.Optional(listOf(integerId('must be a positive integer (an iid)'), 'Not with include_ancestors.')),
      state,
      title: Type.Optional(shortName()),
      search: search(),
      include_ancestors: Type.Optional(Type.Boolean({ description: "Add ancestor groups' milestones" })),
      ...(noun === 'group' ? { include_descendants: Type.Optional(Type.Boolean({ description: "Add subgroups' and projects'" })) } : {}),
      updated_before: isoDateTime(),
      updated_after: isoDateTime(),
      ...pagination,
    }),
    check(args: { iids?: number[]; include_ancestors?: boolean }) {
      // The forge drops the iids filter when ancestors are included; refuse rather than return unfiltered milestones.
      if (args.iids?.length && args.include_ancestors) {
        throw invalidArgument('iids', 'is ignored by the forge together with include_ancestors; filter by title instead, or leave include_ancestors out');
      }
    },
    endpoint: `${listSpec.method} ${listSpec.path}`,
    async handler(args, ctx) {
      const { include_ancestors, ...rest } = args as Record<string, unknown>;
      // Both hierarchy switches came in GitLab 16.7; an older forge drops them without a word (docs/forge-editions.md).
      if (rest.include_descendants === true) await requireRelease(ctx, 'include_descendants', 'listing subgroup and project milestones', 16, 7);
      const values = include_ancestors === true ? { ...rest, [await ancestorsParameter(ctx)]: true } : { ...rest, include_ancestors };
      return callRest(listSpec, values, ctx.forge);
    },
  });

  const get = restTool({
    name: names.get,
    title: `Get ${noun} milestone`,
    description: `Get a ${noun} milestone by its id.`,
    group: 'milestones',
    mode: 'read',
    record: 'milestone',
    input: input({ ...parent, milestone_id: milestoneId() }),
    rest: { method: 'GET', path: one },
  });

  const create = restTool({
    name: names.create,
    title: `Create ${noun} milestone`,
    description: `Create a ${noun} milestone.`,
    group: 'milestones',
    mode: 'write',
    input: input({
      ...parent,
      title: title(),
      description: Type.Optional(longText()),
      ...dates,
    }),
    check: checkDateOrder,
    rest: { method: 'POST', path: `${basePath}/milestones` },
  });

  const edit = restTool({
    name: names.edit,
    title: `Edit ${noun} milestone`,
    description: `Edit a ${noun} milestone; state_event closes/reopens it.`,
    group: 'milestones',
    mode: 'write',
    idempotent: true,
    input: input({
      ...parent,
      milestone_id: milestoneId(),
      title: Type.Optional(title()),
      description: Type.Optional(longText()),
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
    description: `Delete a ${noun} milestone; its issues and MRs are kept.`,
    group: 'milestones',
    mode: 'write',
    destructive: true,
    output: deletedOutput('milestone_id'),
    input: input({ ...parent, milestone_id: milestoneId() }),
    rest: { method: 'DELETE', path: one, empty: (args) => ({ deleted: true, milestone_id: args.milestone_id }) },
  });

  const issues = restTool({
    name: names.issues,
    title: `List ${noun} milestone issues`,
    description: `List a ${noun} milestone's issues.`,
    group: 'milestones',
    mode: 'read',
    record: 'issue',
    input: input({ ...parent, milestone_id: milestoneId(), ...pagination }),
    rest: { method: 'GET', path: `${one}/issues`, list: true },
  });

  const mergeRequests = restTool({
    name: names.mergeRequests,
    title: `List ${noun} milestone merge requests`,
    description: `List a ${noun} milestone's merge requests.`,
    group: 'milestones',
    mode: 'read',
    record: 'merge_request',
    input: input({ ...parent, milestone_id: milestoneId(), ...pagination }),
    rest: { method: 'GET', path: `${one}/merge_requests`, list: true },
  });

  return { list, get, create, edit, delete: remove, issues, mergeRequests };
}
