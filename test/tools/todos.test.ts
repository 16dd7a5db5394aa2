// To-do tools through an MCP client: list with numeric filters, mark one done (GitLab's 201),
// mark all done (GitLab's 204).
import { describe, expect, test } from 'bun:test';
import { ISSUE_SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
type Todo = { id: number; action_name: string; state: string; target: { iid: number } };
type Page = { items: Todo[]; pagination: { total: number | null } };
const todo = (id: number) => h.forge.model.tracker.todos.find((t) => t.id === id)!;

describe('list_todos', () => {
  test("the caller's pending to-dos, newest first", async () => {
    const c = await h.as();
    const page = structured<Page>(await c.call('list_todos', {}));
    expect(page.items.map((t) => [t.id, t.action_name, t.target.iid])).toEqual([
      [ISSUE_SEED.todos.mariaMentioned, 'mentioned', 1],
      [ISSUE_SEED.todos.mariaAssigned, 'assigned', 2],
    ]);
    expect(h.upstream()).toEqual(['GET /api/v4/todos']);
  });

  test('numeric filters and enums reach the forge', async () => {
    const c = await h.as();
    const page = structured<Page>(
      await c.call('list_todos', { state: 'done', action: 'marked', type: 'Issue', project_id: 42, group_id: 6, author_id: 1, per_page: 5 }),
    );
    expect(page.items.map((t) => t.id)).toEqual([ISSUE_SEED.todos.mariaDone]);
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({
      state: 'done',
      action: 'marked',
      type: 'Issue',
      project_id: '42',
      group_id: '6',
      author_id: '1',
      per_page: '5',
    });
  });

  test.each(['review_requested', 'review_submitted', 'member_access_requested', 'ssh_key_expiring_soon'])(
    'action %s (GitLab app/models/todo.rb) reaches the forge',
    async (action) => {
      const c = await h.as();
      expect(structured<Page>(await c.call('list_todos', { action })).items).toEqual([]);
      // The SSH key actions ask the forge's release first (GET /metadata).
      expect(h.forge.requests.find((r) => r.path === '/api/v4/todos')!.query.get('action')).toBe(action);
    },
  );

  // lib/api/todos.rb validates `type` against TodosFinder.todo_types (EE adds Epic and Vulnerability:
  // ee/app/finders/ee/todos_finder.rb) and `action` against Todo::ACTION_NAMES (the SSH key actions from
  // 17.5, app/models/todo.rb): GitLab answers 400 to one the instance lacks.
  test.each(['Epic', 'Vulnerability'])('ce: type %s is refused before the network, naming the edition; EE takes it', async (type) => {
    h.forge.model.edition = 'ce';
    const c = await h.as();
    const error = toolError(await c.call('list_todos', { type }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toBe(`type: ${type} to-dos exist only on GitLab's Enterprise Edition; this forge runs the Community Edition (17.6.0)`);
    expect(h.upstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
    h.forge.model.edition = 'ee-premium';
    h.app.instances.clear();
    expect(structured<Page>(await c.call('list_todos', { type })).items).toEqual([]);
  });

  test.each(['ssh_key_expired', 'ssh_key_expiring_soon'])('16.7: action %s is refused before the network, naming the release', async (action) => {
    h.forge.model.version = '16.7.0';
    const c = await h.as();
    const error = toolError(await c.call('list_todos', { action }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toBe(`action: ${action} needs GitLab 17.5 or later; this forge runs 16.7.0-ee`);
    expect(h.upstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
  });

  test.each(['review_submitted', 'okr_checkin_requested', 'added_approver'])('16.0: action %s is refused before the network, naming 16.3', async (action) => {
    h.forge.model.version = '16.0.0';
    const c = await h.as();
    const error = toolError(await c.call('list_todos', { action }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toBe(`action: ${action} needs GitLab 16.3 or later; this forge runs 16.0.0-ee`);
    expect(h.upstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
  });

  test.each(['review_submitted', 'added_approver'])('the fake forge answers 400 to action %s before 16.3, as Grape does', async (action) => {
    h.forge.model.version = '16.0.0';
    const get = () => fetch(`${h.forge.apiUrl}/todos?action=${action}`, { headers: { 'PRIVATE-TOKEN': TOKENS.maintainer } });
    const refused = await get();
    expect([refused.status, await refused.json()]).toEqual([400, { error: 'action does not have a valid value' }]);
    h.forge.model.version = '16.7.0';
    expect((await get()).status).toBe(200);
  });

  // lib/gitlab/pagination/offset_pagination.rb: above 10,000 rows GitLab pages without counting.
  test('above 10,000 to-dos GitLab sends no totals: the pagination has total null and still a next page', async () => {
    const t = h.forge.model.tracker;
    const first = todo(ISSUE_SEED.todos.mariaAssigned);
    for (let i = 0; i < 10_050; i++) t.todos.push({ ...first, id: 900_000 + i });
    const c = await h.as();
    const page1 = structured<{ items: Todo[]; pagination: Record<string, unknown> }>(await c.call('list_todos', { per_page: 100 }));
    expect(page1.items).toHaveLength(100);
    expect(page1.pagination).toMatchObject({ page: 1, per_page: 100, next_page: 2, total: null, total_pages: null });
    const last = structured<{ items: Todo[]; pagination: Record<string, unknown> }>(await c.call('list_todos', { per_page: 100, page: 101 }));
    expect(last.items).toHaveLength(52);
    expect(last.pagination).toMatchObject({ page: 101, next_page: null, total: null, total_pages: null });
    expect(h.forge.requests.at(-1)!.path).toBe('/api/v4/todos');
  });

  test("ids are taken as numbers or digit strings alike, like every other tool's (D32)", async () => {
    const c = await h.as();
    structured<Page>(await c.call('list_todos', { project_id: '42', author_id: 1 }));
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({ project_id: '42', author_id: '1' });
  });

  test.each([
    [{ project_id: 'acme/platform/api' }, 'project_id: must be a numeric id such as 42, not a path'],
    [
      { action: 'reviewed' },
      'action: must be one of assigned, review_requested, mentioned, build_failed, marked, approval_required, unmergeable, directly_addressed, merge_train_removed, member_access_requested, review_submitted, okr_checkin_requested, added_approver, ssh_key_expired, ssh_key_expiring_soon',
    ],
    [
      { type: 'Issues' },
      'type: must be one of Issue, MergeRequest, Commit, Epic, DesignManagement::Design, AlertManagement::Alert, Project, Namespace, Vulnerability, WikiPage::Meta',
    ],
  ])('%j is refused before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('list_todos', args)).message).toBe(message);
    expect(h.upstream()).toEqual([]);
  });

  test('a token the forge no longer accepts → permission', async () => {
    const c = await h.asRevoked();
    expect(toolError(await c.call('list_todos', {}))).toEqual({ kind: 'permission', status: 401, message: '401 Unauthorized' });
  });
});

describe('mark_todo_done', () => {
  test("marks one of the caller's to-dos done", async () => {
    const c = await h.as();
    const done = structured<Todo>(await c.call('mark_todo_done', { id: ISSUE_SEED.todos.mariaAssigned }));
    expect(done).toMatchObject({ id: ISSUE_SEED.todos.mariaAssigned, state: 'done' });
    expect(todo(ISSUE_SEED.todos.mariaMentioned).state).toBe('pending');
    expect(h.upstream()).toEqual([`POST /api/v4/todos/${ISSUE_SEED.todos.mariaAssigned}/mark_as_done`]);
  });

  test("someone else's to-do → not_found, and it stays pending", async () => {
    const c = await h.as();
    expect(toolError(await c.call('mark_todo_done', { id: ISSUE_SEED.todos.devAssigned }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Todo Not Found',
    });
    expect(todo(ISSUE_SEED.todos.devAssigned).state).toBe('pending');
  });

  test('a missing id never reaches the forge', async () => {
    const c = await h.as();
    expect(toolError(await c.call('mark_todo_done', {})).message).toBe('id: is required');
    expect(h.upstream()).toEqual([]);
  });
});

describe('mark_all_todos_done', () => {
  test("marks every pending to-do of the caller, and only the caller's", async () => {
    const c = await h.as();
    expect(structured(await c.call('mark_all_todos_done', {}))).toEqual({ done: true });
    expect([ISSUE_SEED.todos.mariaAssigned, ISSUE_SEED.todos.mariaMentioned].map((id) => todo(id).state)).toEqual(['done', 'done']);
    expect(todo(ISSUE_SEED.todos.devAssigned).state).toBe('pending');
    expect(h.upstream()).toEqual(['POST /api/v4/todos/mark_as_done']);
  });

  test('a token the forge no longer accepts → permission, nothing changes', async () => {
    const c = await h.asRevoked();
    expect(toolError(await c.call('mark_all_todos_done', {})).kind).toBe('permission');
    expect(todo(ISSUE_SEED.todos.mariaAssigned).state).toBe('pending');
  });
});
