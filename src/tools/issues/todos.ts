// The caller's to-do list: list, mark one done, mark all done.
import { Type } from '@sinclair/typebox';
import { pagination } from '../params';
import { restTool } from '../rest';

const ACTIONS = ['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable', 'directly_addressed',
  'merge_train_removed', 'member_access_requested'] as const;
const TYPES = ['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert', 'Project', 'Namespace',
  'Vulnerability', 'WikiPage::Meta'] as const;
const enumOf = (values: readonly string[], description: string) => Type.Optional(Type.Union(values.map((v) => Type.Literal(v)), { description }));
const id = (description: string) => Type.Optional(Type.Integer({ minimum: 1, description }));

export const listTodos = restTool({
  name: 'list_todos',
  title: 'List to-dos',
  description: "List the caller's to-do items, pending ones unless state is done, newest first, one page at a time. Ids here are numbers.",
  group: 'issues',
  mode: 'read',
  input: Type.Object(
    {
      action: enumOf(ACTIONS, `Only to-dos created by this action: ${ACTIONS.join(', ')}.`),
      author_id: id('Only to-dos created by this user (numeric id).'),
      project_id: id('Only to-dos of this project (numeric id).'),
      group_id: id('Only to-dos of projects in this group (numeric id).'),
      state: enumOf(['pending', 'done'], 'pending (default) or done.'),
      type: enumOf(TYPES, `Only to-dos about this kind of item: ${TYPES.join(', ')}.`),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/todos', list: true },
});

export const markTodoDone = restTool({
  name: 'mark_todo_done',
  title: 'Mark to-do done',
  description: 'Mark one of the caller\'s to-do items as done. Returns the to-do with state "done".',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  input: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Id of the to-do item (a number).' }) }, { additionalProperties: false }),
  rest: { method: 'POST', path: '/todos/{id}/mark_as_done' },
});

export const markAllTodosDone = restTool({
  name: 'mark_all_todos_done',
  title: 'Mark all to-dos done',
  description: 'Mark every pending to-do item of the caller as done.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  input: Type.Object({}, { additionalProperties: false }),
  rest: { method: 'POST', path: '/todos/mark_as_done', empty: () => ({ done: true }) },
});

export const todoTools = [listTodos, markTodoDone, markAllTodosDone];
