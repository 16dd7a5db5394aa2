// The caller's to-do list: list, mark one done, mark all done.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { numericId, pagination, oneOf } from '../params';
import { callRest, restTool, type RestSpec } from '../rest';
import { instanceOf, requireRelease } from '../tiers';
import { B, fields } from '../lean/schema-parts';

// GitLab app/models/todo.rb ACTION_NAMES (the values TodosFinder accepts for `action`), in its order.
const ACTIONS = [
  'assigned',
  'review_requested',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
  'merge_train_removed',
  'member_access_requested',
  'review_submitted',
  'okr_checkin_requested',
  'added_approver',
  'ssh_key_expired',
  'ssh_key_expiring_soon',
] as const;
const TYPES = [
  'Issue',
  'MergeRequest',
  'Commit',
  'Epic',
  'DesignManagement::Design',
  'AlertManagement::Alert',
  'Project',
  'Namespace',
  'Vulnerability',
  'WikiPage::Meta',
] as const;
// Numeric ids like every other tool's (D32); GitLab's to-do filters take no paths.
const id = () => Type.Optional(numericId('must be a numeric id such as 42, not a path', 'Numeric id only'));

const LIST_TODOS: RestSpec = { method: 'GET', path: '/todos', list: true };

/** To-do types only the Enterprise Edition's finder declares (ee/app/finders/ee/todos_finder.rb), licensed or not. */
const EE_TYPES: readonly string[] = ['Epic', 'Vulnerability'];
/** Actions app/models/todo.rb gained in GitLab 17.5 (to-dos for expiring SSH keys). */
const SSH_KEY_ACTIONS: readonly string[] = ['ssh_key_expired', 'ssh_key_expiring_soon'];
/**
 * review_submitted (value 11 of app/models/todo.rb) came in GitLab 16.3 (gitlab-org/gitlab!127076);
 * okr_checkin_requested (12) and added_approver (13) are numbered after it: no earlier release has them.
 */
const SINCE_16_3_ACTIONS: readonly string[] = ['review_submitted', 'okr_checkin_requested', 'added_approver'];

const listTodos = defineTool({
  name: 'list_todos',
  title: 'List to-dos',
  description:
    "List the caller's to-dos, newest first (pending unless state: done). " +
    'type Epic, Vulnerability: Enterprise Edition only; action review_submitted, okr_checkin_requested, added_approver: GitLab 16.3+; ssh_key_*: 17.5+.',
  group: 'issues',
  mode: 'read',
  record: 'todo',
  endpoint: `${LIST_TODOS.method} ${LIST_TODOS.path}`,
  input: Type.Object(
    {
      action: oneOf(ACTIONS, 'Why it is a to-do'),
      author_id: id(),
      project_id: id(),
      group_id: id(),
      state: oneOf(['pending', 'done']),
      type: oneOf(TYPES, 'Kind of target'),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  // lib/api/todos.rb declares `type` with `values: TodosFinder.todo_types` and `action` with
  // `values: Todo::ACTION_NAMES.values`: an instance that lacks one answers 400. Refused here before
  // the network, naming what the instance runs; an instance that will not say lets GitLab decide.
  async handler(args, ctx) {
    if (args.type !== undefined && EE_TYPES.includes(args.type)) {
      const info = await instanceOf(ctx);
      if (info.edition === 'ce') {
        throw invalidArgument(
          'type',
          `${args.type} to-dos exist only on GitLab's Enterprise Edition; this forge runs the Community Edition (${info.versionText})`,
        );
      }
    }
    if (args.action !== undefined && SSH_KEY_ACTIONS.includes(args.action)) await requireRelease(ctx, 'action', args.action, 17, 5);
    if (args.action !== undefined && SINCE_16_3_ACTIONS.includes(args.action)) await requireRelease(ctx, 'action', args.action, 16, 3);
    return callRest(LIST_TODOS, args, ctx.forge);
  },
});

const markTodoDone = restTool({
  name: 'mark_todo_done',
  title: 'Mark to-do done',
  description: 'Mark one to-do of the caller done.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  input: Type.Object({ id: numericId('must be a positive integer to-do id such as 42', 'To-do id') }, { additionalProperties: false }),
  rest: { method: 'POST', path: '/todos/{id}/mark_as_done' },
});

const markAllTodosDone = restTool({
  name: 'mark_all_todos_done',
  title: 'Mark all to-dos done',
  description: 'Mark all pending to-dos done.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  output: fields({ done: B }, true),
  input: Type.Object({}, { additionalProperties: false }),
  rest: { method: 'POST', path: '/todos/mark_as_done', empty: () => ({ done: true }) },
});

export const todoTools = [listTodos, markTodoDone, markAllTodosDone];
