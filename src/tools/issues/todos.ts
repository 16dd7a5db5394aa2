// The caller's to-do list: list, mark one done, mark all done.
import { Type } from '@sinclair/typebox';
import { numericId, pagination } from '../params';
import { restTool } from '../rest';

// GitLab app/models/todo.rb ACTION_NAMES (the values TodosFinder accepts for `action`), in its order.
const ACTIONS = ['assigned', 'review_requested', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable',
  'directly_addressed', 'merge_train_removed', 'member_access_requested', 'review_submitted', 'okr_checkin_requested',
  'added_approver', 'ssh_key_expired', 'ssh_key_expiring_soon'] as const;
const TYPES = ['Issue', 'MergeRequest', 'Commit', 'Epic', 'DesignManagement::Design', 'AlertManagement::Alert', 'Project', 'Namespace',
  'Vulnerability', 'WikiPage::Meta'] as const;
const enumOf = (values: readonly string[]) => Type.Optional(Type.Union(values.map((v) => Type.Literal(v))));
// Numeric ids like every other tool's (D32); GitLab's to-do filters take no paths.
const id = () => Type.Optional(numericId('must be a numeric id such as 42, not a path'));

export const listTodos = restTool({
  name: 'list_todos',
  title: 'List to-dos',
  description: "List the caller's to-dos, newest first (pending unless state: done). project_id/group_id: numeric.",
  group: 'issues',
  mode: 'read',
  record: 'todo',
  input: Type.Object(
    {
      action: enumOf(ACTIONS),
      author_id: id(),
      project_id: id(),
      group_id: id(),
      state: enumOf(['pending', 'done']),
      type: enumOf(TYPES),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/todos', list: true },
});

export const markTodoDone = restTool({
  name: 'mark_todo_done',
  title: 'Mark to-do done',
  description: 'Mark one to-do of the caller done.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  input: Type.Object({ id: numericId('must be a positive integer to-do id such as 42') }, { additionalProperties: false }),
  rest: { method: 'POST', path: '/todos/{id}/mark_as_done' },
});

export const markAllTodosDone = restTool({
  name: 'mark_all_todos_done',
  title: 'Mark all to-dos done',
  description: 'Mark all pending to-dos done.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  input: Type.Object({}, { additionalProperties: false }),
  rest: { method: 'POST', path: '/todos/mark_as_done', empty: () => ({ done: true }) },
});

export const todoTools = [listTodos, markTodoDone, markAllTodosDone];
