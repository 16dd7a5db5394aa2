// The labels group (opt-in, D13): a project's labels (its own and its groups'), and a group's
// (lib/api/labels.rb, lib/api/group_labels.rb). GitLab refuses a label name with a comma
// (app/models/label.rb: title format) since label lists are comma-separated; so does the schema.
import { Type } from '@sinclair/typebox';
import { invalidArgument } from '../errors';
import { described, groupId, integer, LIMITS, longText, pagination, projectId, search, shortName, input } from '../params';
import { restTool } from '../rest';
import { deletedOutput } from '../lean/schema-parts';

/** A label's id or its name (names may hold slashes and emoji). */
const labelId = () => Type.String({ minLength: 1, maxLength: LIMITS.name, identifier: true, stringOrInteger: true, description: 'Id or exact name' });
const labelName = (description?: string) =>
  shortName({ pattern: '^[^,]+$', hint: 'must be a label name without commas (GitLab separates label names with commas)', ...described(description) });
const color = () =>
  Type.String({
    pattern: '^(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3}|[A-Za-z]{3,32})$',
    maxLength: 32,
    hint: 'must be a colour such as #d9534f or a CSS colour name such as red',
    description: '#d9534f or a CSS name',
  });
const priority = () => ({ ...integer(0, 'must be an integer, 0 or more (lower comes first)'), description: 'Lower comes first' });
const one = '/projects/{project_id}/labels/{label_id}';

const listLabels = restTool({
  name: 'list_labels',
  title: 'List labels',
  description: "List the labels a project's issues and merge requests can use: its own and its groups'.",
  group: 'labels',
  mode: 'read',
  record: 'label',
  input: input({
    project_id: projectId(),
    search: search('Part of the name'),
    with_counts: Type.Optional(Type.Boolean({ description: 'Add issue and MR counts' })),
    include_ancestor_groups: Type.Optional(Type.Boolean({ description: "Default true: groups' too" })),
    ...pagination,
  }),
  rest: { method: 'GET', path: '/projects/{project_id}/labels', list: true },
});

const getLabel = restTool({
  name: 'get_label',
  title: 'Get label',
  description: "Get a project label (or one of its groups') by id or exact name.",
  group: 'labels',
  mode: 'read',
  record: 'label',
  input: input({
    project_id: projectId(),
    label_id: labelId(),
    include_ancestor_groups: Type.Optional(Type.Boolean({ description: "Default true: groups' too" })),
  }),
  rest: { method: 'GET', path: one },
});

const createLabel = restTool({
  name: 'create_label',
  title: 'Create label',
  description: 'Create a project label.',
  group: 'labels',
  mode: 'write',
  record: 'label',
  input: input({
    project_id: projectId(),
    name: labelName('No commas'),
    color: color(),
    description: Type.Optional(longText()),
    priority: Type.Optional(priority()),
  }),
  rest: { method: 'POST', path: '/projects/{project_id}/labels' },
});

const EDITABLE = ['new_name', 'color', 'description', 'priority'] as const;

const updateLabel = restTool({
  name: 'update_label',
  title: 'Update label',
  description: "Change a project's own label; its issues keep it.",
  group: 'labels',
  mode: 'write',
  idempotent: true,
  record: 'label',
  input: input({
    project_id: projectId(),
    label_id: labelId(),
    new_name: Type.Optional(labelName('Rename to')),
    color: Type.Optional(color()),
    description: Type.Optional(longText()),
    priority: Type.Optional(priority()),
  }),
  check(args: Record<string, unknown>) {
    if (!EDITABLE.some((name) => args[name] !== undefined)) throw invalidArgument('arguments', `give at least one of ${EDITABLE.join(', ')}`);
  },
  rest: { method: 'PUT', path: one },
});

const deleteLabel = restTool({
  name: 'delete_label',
  title: 'Delete label',
  description: "Delete a project's own label; it is removed from its issues and merge requests.",
  group: 'labels',
  mode: 'write',
  destructive: true,
  output: deletedOutput('label_id'),
  input: input({ project_id: projectId(), label_id: labelId() }),
  rest: { method: 'DELETE', path: one, empty: (args) => ({ deleted: true, label_id: args.label_id }) },
});

const listGroupLabels = restTool({
  name: 'list_group_labels',
  title: 'List group labels',
  description: "List a group's labels.",
  group: 'labels',
  mode: 'read',
  record: 'label',
  input: input({
    group_id: groupId(),
    search: search('Part of the name'),
    with_counts: Type.Optional(Type.Boolean({ description: 'Add issue and MR counts' })),
    include_ancestor_groups: Type.Optional(Type.Boolean({ description: "Default true: ancestors' too" })),
    include_descendant_groups: Type.Optional(Type.Boolean({ description: "Add subgroups'" })),
    ...pagination,
  }),
  rest: { method: 'GET', path: '/groups/{group_id}/labels', list: true },
});

export const labelGroupTools = [listLabels, getLabel, createLabel, updateLabel, deleteLabel, listGroupLabels];
