// The caller's to-do list: list with filters (pending by default), mark one done (201, Grape's POST
// default), mark all done (204).
import { atLeast } from '../edition';
import type { ForgeModel } from '../model';
import { TODO_ACTIONS, TODO_TYPES } from '../model-issues';
import { json, notFound, route, type Route } from './http';
import { intParam } from './issue-access';
import { listResponse } from './paginate';
import { presentTodo } from './present-issues';

/**
 * lib/api/todos.rb declares `type` with `values: TodosFinder.todo_types` and `action` with
 * `values: Todo::ACTION_NAMES.values`, so Grape answers 400 "… does not have a valid value" to one the
 * instance lacks. Epic and Vulnerability are added by the EE finder (ee/app/finders/ee/todos_finder.rb),
 * licensed or not; the SSH key actions by app/models/todo.rb in GitLab 17.5 (the to-dos for expiring
 * SSH keys, behind `todos_for_ssh_key_expiry` until 17.6). review_submitted (value 11) came with
 * gitlab-org/gitlab!127076 in GitLab 16.3; okr_checkin_requested (12) and added_approver (13) are
 * numbered after it, so no release before 16.3 has them (the fake takes 16.3 for all three).
 */
const todoTypes = (m: ForgeModel) => (m.edition === 'ce' ? TODO_TYPES.filter((t) => t !== 'Epic' && t !== 'Vulnerability') : TODO_TYPES);
const FROM_16_3: readonly string[] = ['review_submitted', 'okr_checkin_requested', 'added_approver'];
const todoActions = (m: ForgeModel) =>
  TODO_ACTIONS.filter((a) => (a.startsWith('ssh_key_') ? atLeast(m, 17, 5) : FROM_16_3.includes(a) ? atLeast(m, 16, 3) : true));

export const todoRoutes: Route[] = [
  route('GET', '/todos', (ctx) => {
    const { input, model: m } = ctx;
    const action = input.oneOf('action', todoActions(m));
    const type = input.oneOf('type', todoTypes(m));
    const state = input.oneOf('state', ['pending', 'done'] as const) ?? 'pending';
    const authorId = input.int('author_id');
    const projectId = input.int('project_id');
    const groupId = input.int('group_id');
    const inGroup = (projectId: number) => {
      const ns = m.groups.get(m.projects.get(projectId)!.namespace.id);
      return ns !== undefined && m.groupChain(ns).some((g) => g.id === groupId);
    };
    const todos = m.tracker.todos
      .filter(
        (t) =>
          t.user_id === ctx.user.id &&
          t.state === state &&
          (!action || t.action_name === action) &&
          (!type || t.target_type === type) &&
          (authorId === undefined || t.author_id === authorId) &&
          (projectId === undefined || t.project_id === projectId) &&
          (groupId === undefined || inGroup(t.project_id)),
      )
      .sort((a, b) => b.id - a.id);
    return listResponse(ctx, todos, (t) => presentTodo(m, t));
  }),

  route('POST', '/todos/mark_as_done', (ctx) => {
    const now = ctx.model.now();
    for (const t of ctx.model.tracker.todos) if (t.user_id === ctx.user.id && t.state === 'pending') Object.assign(t, { state: 'done', updated_at: now });
    return new Response(null, { status: 204 });
  }),

  route('POST', '/todos/:id/mark_as_done', (ctx) => {
    const id = intParam(ctx, 'id');
    const todo = ctx.model.tracker.todos.find((t) => t.id === id && t.user_id === ctx.user.id);
    if (!todo) throw notFound('Todo');
    Object.assign(todo, { state: 'done', updated_at: ctx.model.now() });
    return json(presentTodo(ctx.model, todo), 201);
  }),
];
