// The work_items group (issue 39) through an MCP client on both lanes against the fake forge's GraphQL
// endpoint (test/support/fake-forge/graphql/): every tool's success, GitLab's errors[] of each kind
// and HTTP failures, and edition and release refusals made before anything is sent.
import { describe, expect, test } from 'bun:test';
import { TOKENS, WORK_ITEM_SEED as S } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError, type Lane } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'work_items' });
const gid = (id: number) => `gid://gitlab/WorkItem/${id}`;
/** The GraphQL operations sent since the test began, in order. */
const operations = () => h.forge.requests.filter((r) => r.path === '/api/graphql').map((r) => (r.body as { operationName: string }).operationName);
const lastQuery = () => (h.forge.requests.filter((r) => r.path === '/api/graphql').at(-1)!.body as { query: string }).query;

type Item = Record<string, unknown> & { id: string; iid: string; state: string; type: string };
type Page = { items: Item[]; pagination: { page: null; per_page: number; next_page: string | null; total: number | null } };

describe.each(['legacy', 'modern'] as Lane[])('reads (%s lane)', (lane) => {
  test('list_work_items: a group lists its epics; a project its issues and tasks, a page at a time by cursor', async () => {
    h.forge.model.version = '17.11.0';
    const c = await h.on(lane);
    const epics = structured<Page>(await c.call('list_work_items', { namespace_path: S.groupPath, types: ['EPIC'], search: 'sign-on' }));
    expect(epics.items.map((i) => [i.title, i.type, i.has_children])).toEqual([[S.epic.title, 'Epic', true]]);
    const first = structured<Page>(await c.call('list_work_items', { namespace_path: S.projectPath, per_page: 2, sort: 'CREATED_ASC' }));
    expect(first.items.map((i) => i.iid)).toEqual(['101', '102']);
    const cursor = first.pagination.next_page;
    expect([first.pagination.page, first.pagination.per_page, first.pagination.total, typeof cursor]).toEqual([null, 2, 4, 'string']);
    const second = structured<Page>(await c.call('list_work_items', { namespace_path: S.projectPath, per_page: 2, sort: 'CREATED_ASC', after: cursor }));
    expect([second.items.map((i) => i.iid), second.pagination.next_page]).toEqual([['103', '104'], null]);
    expect(operations()).toEqual(['listWorkItems', 'listWorkItems', 'listWorkItems']);
  });

  test('list_work_items with parent_id: the children, with their state', async () => {
    const c = await h.on(lane);
    const children = structured<Page>(await c.call('list_work_items', { parent_id: String(S.saml.id) }));
    expect(children.items.map((i) => [i.title, i.type, i.state])).toEqual([['Write SAML fixtures', 'Task', 'closed']]);
    expect(operations()).toEqual(['listWorkItemChildren']);
  });

  test('get_work_item by iid, by global id and by URL: widgets flattened, children with progress', async () => {
    const c = await h.on(lane);
    const byIid = structured<Item>(await c.call('get_work_item', { namespace_path: S.projectPath, iid: String(S.saml.iid) }));
    expect(byIid).toMatchObject({
      id: gid(S.saml.id),
      type: 'Issue',
      title: 'Login with SAML',
      reference: `${S.projectPath}#101`,
      assignees: [{ id: 2, username: 'dev', name: 'Devon Park' }],
      labels: ['backend'],
      weight: 3,
      parent: { id: gid(S.epic.id), type: 'Epic', title: S.epic.title },
      children: [{ iid: '104', type: 'Task', state: 'closed' }],
      progress: { closed: 1, total: 1 },
    });
    expect(structured(await c.call('get_work_item', { id: gid(S.saml.id) }))).toEqual(byIid);
    expect(structured(await c.call('get_work_item', { id: String(S.saml.id) }))).toEqual(byIid);
    const url = `${new URL(h.forge.apiUrl).origin}/${S.projectPath}/-/issues/101`;
    expect(structured(await c.call('get_work_item', { url }))).toEqual(byIid);
    expect(operations()).toEqual(['getWorkItemByIid', 'getWorkItem', 'getWorkItem', 'getWorkItemByIid']);
    // full_response: GitLab's node as it came.
    expect(structured(await c.call('get_work_item', { id: gid(S.saml.id), full_response: true }))).toMatchObject({
      workItemType: { name: 'Issue' },
      widgets: expect.any(Array),
    });
  });

  test('list_work_item_notes and list_work_item_types', async () => {
    const c = await h.on(lane);
    const notes = structured<Page>(await c.call('list_work_item_notes', { namespace_path: S.projectPath, iid: '101' }));
    expect(notes.items).toEqual([
      expect.objectContaining({
        body: 'Which IdPs must we support first?',
        author: { id: 2, username: 'dev', name: 'Devon Park' },
        discussion_id: expect.stringMatching(/^[0-9a-f]{40}$/),
      }),
    ]);
    const types = structured<Page>(await c.call('list_work_item_types', { namespace_path: S.projectPath }));
    expect(types.items.map((t) => t.name)).toContain('Task');
    expect(operations()).toEqual(['resolveWorkItem', 'listWorkItemNotes', 'workItemTypes']);
  });

  test('list_work_item_statuses on 18.2 (Premium): the allowed statuses of each type', async () => {
    h.forge.model.version = '18.2.0';
    const c = await h.on(lane);
    const types = structured<Page>(await c.call('list_work_item_statuses', { namespace_path: S.projectPath, type: 'ISSUE' }));
    expect(types.items).toEqual([
      expect.objectContaining({ name: 'Issue', statuses: expect.arrayContaining([expect.objectContaining({ name: 'Done', category: 'done' })]) }),
    ]);
  });
});

describe.each(['legacy', 'modern'] as Lane[])('writes (%s lane)', (lane) => {
  test('create_work_item: a task under an issue (the type id asked of the namespace first)', async () => {
    const c = await h.on(lane);
    const task = structured<Item>(
      await c.call('create_work_item', {
        namespace_path: S.projectPath,
        type: 'TASK',
        title: 'Seed an IdP',
        description: 'For the tests.',
        parent_id: gid(S.saml.id),
        assignee_ids: ['2'],
        weight: 1,
      }),
    );
    expect(task).toMatchObject({ type: 'Task', title: 'Seed an IdP', parent: { id: gid(S.saml.id) }, assignees: [{ username: 'dev' }], weight: 1 });
    expect(operations()).toEqual(['workItemTypes', 'createWorkItem']);
    const sent = h.forge.requests.at(-1)!.body as { variables: { input: Record<string, unknown> } };
    expect(sent.variables.input).toMatchObject({
      namespacePath: S.projectPath,
      workItemTypeId: 'gid://gitlab/WorkItems::Type/5',
      descriptionWidget: { description: 'For the tests.' },
    });
  });

  test('update_work_item: close, reopen, set the status (18.2), move under another parent, detach', async () => {
    h.forge.model.version = '18.2.0';
    const c = await h.on(lane);
    expect(structured<Item>(await c.call('update_work_item', { id: gid(S.timeout.id), state_event: 'close' })).state).toBe('closed');
    expect(structured<Item>(await c.call('update_work_item', { id: gid(S.timeout.id), state_event: 'reopen' })).state).toBe('opened');
    const status = 'gid://gitlab/WorkItems::Statuses::SystemDefined::Status/2';
    expect(structured<Item>(await c.call('update_work_item', { id: gid(S.timeout.id), status })).status).toBe('In progress');
    const unknown = toolError(
      await c.call('update_work_item', { id: gid(S.timeout.id), status: 'gid://gitlab/WorkItems::Statuses::SystemDefined::Status/99' }),
    );
    expect(unknown).toMatchObject({ kind: 'not_found', message: expect.stringContaining("Status doesn't exist.") });
    expect(
      structured<Item>(await c.call('update_work_item', { namespace_path: S.projectPath, iid: '103', parent_id: gid(S.otherEpic.id) })).parent,
    ).toMatchObject({ title: S.otherEpic.title });
    expect(structured<Item>(await c.call('update_work_item', { namespace_path: S.projectPath, iid: '103', remove_parent: true })).parent).toBeUndefined();
    expect(operations()).toEqual([
      'updateWorkItem',
      'updateWorkItem',
      'updateWorkItem',
      'updateWorkItem',
      'resolveWorkItem',
      'updateWorkItem',
      'resolveWorkItem',
      'updateWorkItem',
    ]);
  });

  test('add_work_item_children, remove_work_item_children, convert_work_item_type', async () => {
    const c = await h.on(lane);
    const epic = structured<Item>(await c.call('add_work_item_children', { id: gid(S.otherEpic.id), child_ids: [gid(S.audit.id)] }));
    expect(epic.title).toBe(S.otherEpic.title);
    expect(h.forge.model.workItems.items.get(S.audit.id)!.parentId).toBe(S.otherEpic.id);
    expect(structured(await c.call('remove_work_item_children', { id: gid(S.otherEpic.id), child_ids: [gid(S.audit.id)] }))).toEqual({
      parent_id: gid(S.otherEpic.id),
      removed: [gid(S.audit.id)],
    });
    expect(h.forge.model.workItems.items.get(S.audit.id)!.parentId).toBeNull();
    expect(structured<Item>(await c.call('convert_work_item_type', { id: gid(S.audit.id), type: 'INCIDENT' })).type).toBe('Incident');
    expect(operations()).toEqual(['updateWorkItem', 'workItemChildIds', 'updateWorkItem', 'workItemNamespace', 'workItemTypes', 'convertWorkItem']);
  });

  test('create_work_item_note: a comment, then a reply in its thread', async () => {
    const c = await h.on(lane);
    const note = structured<Item & { discussion_id: string }>(await c.call('create_work_item_note', { id: gid(S.audit.id), body: 'Who owns this?' }));
    const reply = structured<Item & { discussion_id: string }>(
      await c.call('create_work_item_note', { id: gid(S.audit.id), body: 'Security does.', discussion_id: note.discussion_id }),
    );
    expect(reply.discussion_id).toBe(note.discussion_id);
    const stray = toolError(await c.call('create_work_item_note', { id: gid(S.audit.id), body: 'Hello?', discussion_id: 'f'.repeat(40) }));
    expect(stray).toMatchObject({ kind: 'not_found', message: expect.stringContaining("The discussion does not exist or you don't have permission") });
    expect(h.forge.model.workItems.items.get(S.audit.id)!.notes.map((n) => n.body)).toEqual(['Who owns this?', 'Security does.']);
  });
});

describe.each(['legacy', 'modern'] as Lane[])('GitLab errors (%s lane)', (lane) => {
  const graphqlErrors = (message: string, data: unknown = null) => ({ pathIncludes: '/api/graphql', status: 200, body: { errors: [{ message }], data } });
  test.each([
    [
      'RESOURCE_ACCESS_ERROR',
      graphqlErrors("The resource that you are attempting to access does not exist or you don't have permission to perform this action"),
      'not_found',
    ],
    ['a rate limit', graphqlErrors('This endpoint has been requested too many times. Try again later.'), 'rate_limited'],
    ['complexity', graphqlErrors('Query has complexity of 300, which exceeds max complexity of 250'), 'validation'],
    ['insufficient scope', graphqlErrors('Insufficient scope for this action'), 'permission'],
    ['data beside errors', graphqlErrors('Timeout on WorkItem.widgets', { workItem: { id: gid(S.saml.id) } }), 'upstream'],
    ['HTTP 500', { pathIncludes: '/api/graphql', status: 500, body: { errors: [{ message: 'Internal server error' }] } }, 'upstream'],
    [
      'an answer nested past any real one',
      { pathIncludes: '/api/graphql', status: 200, body: JSON.parse(`{"data":${'{"workItem":'.repeat(100)}null${'}'.repeat(100)}}`) },
      'upstream',
    ],
    [
      'an HTML page',
      { pathIncludes: '/api/graphql', status: 200, body: '<html><title>Sign in</title></html>', headers: { 'content-type': 'text/html' } },
      'upstream',
    ],
    ['HTTP 401', { pathIncludes: '/api/graphql', status: 401, body: { errors: [{ message: 'Invalid token' }] } }, 'permission'],
  ] as const)('%s is an isError result of its kind, never a success', async (_name, failure, kind) => {
    const c = await h.on(lane);
    h.forge.failNext({ ...failure, times: 3 });
    expect(toolError(await c.call('get_work_item', { id: gid(S.saml.id) })).kind).toBe(kind);
  });

  test("a payload's errors (GitLab's refusal of a change) are a validation failure naming GitLab's words", async () => {
    const c = await h.on(lane);
    const result = toolError(
      await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'Under the epic', parent_id: gid(S.epic.id) }),
    );
    expect(result).toMatchObject({ kind: 'validation', message: expect.stringContaining("it's not allowed to add this type of parent item") });
  });
});

describe('hostile input, refused before anything is sent', () => {
  test.each([
    ['a global id of another kind', 'get_work_item', { id: 'gid://gitlab/Project/42' }, 'id'],
    ['a global id of another kind in a list', 'add_work_item_children', { id: gid(S.epic.id), child_ids: ['gid://gitlab/MergeRequest/1'] }, 'child_ids'],
    ['a fraction', 'get_work_item', { id: 12.5 }, 'id'],
    ['a numeric namespace', 'list_work_items', { namespace_path: '42' }, 'namespace_path'],
    ['a path that leaves the namespace', 'list_work_items', { namespace_path: 'acme/../secret' }, 'namespace_path'],
    ['two ways to name one item', 'get_work_item', { id: gid(1), namespace_path: S.projectPath, iid: '1' }, 'id'],
    ['an iid without its namespace', 'get_work_item', { iid: '3' }, 'namespace_path'],
    ['a URL of another host', 'get_work_item', { url: 'https://evil.example/acme/platform/api/-/work_items/3' }, 'url'],
    ['10,000 children at once', 'add_work_item_children', { id: gid(S.epic.id), child_ids: Array.from({ length: 10_000 }, (_, i) => gid(i + 1)) }, 'child_ids'],
    ['a child twice', 'add_work_item_children', { id: gid(S.epic.id), child_ids: [gid(S.audit.id), String(S.audit.id)] }, 'child_ids'],
    ['an item as its own child', 'add_work_item_children', { id: gid(S.epic.id), child_ids: [gid(S.epic.id)] }, 'child_ids'],
    ['a filter beside parent_id', 'list_work_items', { parent_id: gid(S.epic.id), state: 'opened' }, 'state'],
    [
      'a quick action in a description',
      'create_work_item',
      { namespace_path: S.projectPath, type: 'ISSUE', title: 'x', description: 'Hello\n/close' },
      'description',
    ],
    ['a quick action in a comment', 'create_work_item_note', { id: gid(S.saml.id), body: '/assign @dev' }, 'body'],
    ['a quick action in a new description', 'update_work_item', { id: gid(S.saml.id), description: 'Fine\n/label ~x' }, 'description'],
    ['nothing to change', 'update_work_item', { id: gid(S.saml.id) }, 'title'],
  ] as const)('%s', async (_name, tool, args, parameter) => {
    const c = await h.as();
    const e = toolError(await c.call(tool, args as Record<string, unknown>));
    expect(e.kind).toBe('validation');
    expect(e.message).toStartWith(parameter);
    expect(operations()).toEqual([]);
  });

  test("another namespace's work item the caller cannot see is not_found, read or written", async () => {
    const secret = h.forge.model.workItems.add(
      { namespace: { kind: 'project', id: 43, fullPath: 'acme/secret' }, type: 'Issue', title: 'Hidden', authorId: 1 },
      h.forge.model.now(),
    );
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('get_work_item', { id: gid(secret.id) })).kind).toBe('not_found');
    expect(toolError(await c.call('get_work_item', { namespace_path: 'acme/secret', iid: String(secret.iid) })).kind).toBe('not_found');
    expect(toolError(await c.call('update_work_item', { id: gid(secret.id), title: 'Mine now' })).kind).toBe('not_found');
    expect(h.forge.model.workItems.items.get(secret.id)!.title).toBe('Hidden');
  });

  test("a cycle in the hierarchy is GitLab's refusal, and nothing changes", async () => {
    h.forge.model.version = '17.11.0';
    const c = await h.as();
    structured(await c.call('add_work_item_children', { id: gid(S.epic.id), child_ids: [gid(S.otherEpic.id)] }));
    const e = toolError(await c.call('add_work_item_children', { id: gid(S.otherEpic.id), child_ids: [gid(S.epic.id)] }));
    expect(e).toMatchObject({ kind: 'validation', message: expect.stringContaining("it's already present in this item's hierarchy") });
    expect(h.forge.model.workItems.items.get(S.epic.id)!.parentId).toBeNull();
  });

  test('a parent with as many children as GitLab allows refuses one more', async () => {
    const store = h.forge.model.workItems;
    const saml = store.items.get(S.saml.id)!;
    for (let i = 0; i < 5000; i++) store.add({ namespace: saml.namespace, type: 'Task', title: `t${i}`, authorId: 1, parentId: saml.id }, h.forge.model.now());
    const c = await h.as();
    const task = structured<Item>(await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'One more' }));
    const e = toolError(await c.call('add_work_item_children', { id: gid(S.saml.id), child_ids: [task.id] }));
    expect(e.message).toContain('parent already has maximum number of children.');
  });

  test('removing a work item that is not a child changes nothing', async () => {
    const c = await h.as();
    const e = toolError(await c.call('remove_work_item_children', { id: gid(S.epic.id), child_ids: [gid(S.saml.id), gid(S.audit.id)] }));
    expect(e).toMatchObject({ kind: 'validation', message: expect.stringContaining(`not children of ${gid(S.epic.id)}: ${gid(S.audit.id)}`) });
    expect(operations()).toEqual(['workItemChildIds']);
    expect(h.forge.model.workItems.items.get(S.saml.id)!.parentId).toBe(S.epic.id);
  });
});

describe('editions and releases (docs/forge-editions.md), from the cached instance facts', () => {
  test('Community Edition: paid types and widgets are refused naming the tier; the reads send the variant without ee/ types', async () => {
    h.forge.model.edition = 'ce';
    const c = await h.as();
    for (const [tool, args, parameter] of [
      ['create_work_item', { namespace_path: S.groupPath, type: 'EPIC', title: 'x' }, 'type'],
      ['create_work_item', { namespace_path: S.projectPath, type: 'OBJECTIVE', title: 'x' }, 'type'],
      ['list_work_items', { namespace_path: S.groupPath, types: ['EPIC'] }, 'types'],
      ['update_work_item', { id: gid(S.saml.id), weight: 2 }, 'weight'],
      ['list_work_item_statuses', { namespace_path: S.projectPath }, 'namespace_path'],
      ['list_work_items', { namespace_path: S.projectPath, iteration_id: '7' }, 'iteration_id'],
    ] as const) {
      const e = toolError(await c.call(tool, args as Record<string, unknown>));
      expect(e.message).toStartWith(`${parameter}: `);
      expect(e.message).toContain('needs GitLab Premium or Ultimate');
    }
    expect(operations()).toEqual([]);
    const item = structured<Item>(await c.call('get_work_item', { id: gid(S.saml.id) }));
    expect(item.weight).toBeUndefined();
    expect(lastQuery()).not.toContain('WorkItemWidgetWeight');
    // The iteration filter is declared in ee/ only (ee/app/graphql/ee/resolvers/work_items_resolver.rb).
    const page = structured<Page>(await c.call('list_work_items', { namespace_path: S.projectPath, types: ['ISSUE'] }));
    expect(page.items.length).toBeGreaterThan(0);
    expect(lastQuery()).not.toContain('iterationId');
    // isFixed is declared in ee/ only (ee/app/graphql/ee/types/work_items/widgets/start_and_due_date_update_input_type.rb).
    const dated = structured<Item>(
      await c.call('create_work_item', { namespace_path: S.projectPath, type: 'ISSUE', title: 'Dated', start_date: '2026-12-01', due_date: '2026-12-24' }),
    );
    expect([dated.start_date, dated.due_date]).toEqual(['2026-12-01', '2026-12-24']);
  });

  test('before 16.7, whose schema lacks fields the documents ask for, every tool is refused naming the release', async () => {
    h.forge.model.version = '16.0.0';
    const c = await h.as();
    for (const [tool, args] of [
      ['list_work_items', { namespace_path: S.projectPath }],
      ['get_work_item', { namespace_path: S.projectPath, iid: '101' }],
      ['list_work_item_types', { namespace_path: S.projectPath }],
      ['update_work_item', { id: gid(S.saml.id), title: 'x' }],
    ] as const) {
      expect(toolError(await c.call(tool, args as Record<string, unknown>))).toMatchObject({
        kind: 'validation',
        message: expect.stringContaining('the work item tools need GitLab 16.7 or later'),
      });
    }
    expect(operations()).toEqual([]);
  });

  test('epics before 17.7 and custom statuses before 18.2 name the release they need', async () => {
    h.forge.model.version = '17.6.0';
    const c = await h.as();
    expect(toolError(await c.call('list_work_items', { namespace_path: S.groupPath, types: ['EPIC'] })).message).toContain(
      'needs GitLab 17.7 or later; this forge runs 17.6.0',
    );
    const status = 'gid://gitlab/WorkItems::Statuses::SystemDefined::Status/3';
    expect(toolError(await c.call('update_work_item', { id: gid(S.saml.id), status })).message).toContain(
      'custom work item statuses needs GitLab 18.2 or later',
    );
    expect(toolError(await c.call('list_work_items', { namespace_path: S.projectPath, sort: 'DUE_DATE_ASC' })).message).toBe(
      'sort: sorting work items by due date needs GitLab 17.9 or later; this forge runs 17.6.0-ee',
    );
    expect(operations()).toEqual([]);
  });

  test('the due date sorts, experiments from 17.9, are sent from then on', async () => {
    h.forge.model.version = '17.11.0';
    const c = await h.as();
    const page = structured<Page>(await c.call('list_work_items', { namespace_path: S.projectPath, sort: 'DUE_DATE_ASC' }));
    expect(page.items.length).toBeGreaterThan(0);
    expect(operations()).toEqual(['listWorkItems']);
  });

  test('dates are sent as fixed (isFixed, declared in ee/) to the Enterprise Edition', async () => {
    const input = () =>
      (h.forge.requests.filter((r) => r.path === '/api/graphql').at(-1)!.body as { variables: { input: Record<string, any> } }).variables.input;
    const c = await h.as();
    structured(await c.call('update_work_item', { id: gid(S.saml.id), due_date: '2026-12-24' }));
    expect(input().startAndDueDateWidget).toEqual({ dueDate: '2026-12-24', isFixed: true });
  });

  test('an Enterprise build from 18.2 is asked for statuses in its reads; an older one is not', async () => {
    const c = await h.as();
    await c.call('get_work_item', { id: gid(S.saml.id) });
    expect(lastQuery()).toContain('WorkItemWidgetWeight');
    expect(lastQuery()).not.toContain('WorkItemWidgetStatus');
    h.forge.model.version = '18.2.0';
    h.app.instances.clear();
    expect(structured<Item>(await c.call('get_work_item', { id: gid(S.saml.id) })).status).toBe('To do');
  });
});

describe('progress', () => {
  test('counted only when every child came in the answer; past the first hundred, more_children says to page them', async () => {
    const store = h.forge.model.workItems;
    const saml = store.items.get(S.saml.id)!;
    for (let i = 0; i < 120; i++)
      store.add(
        { namespace: saml.namespace, type: 'Task', title: `t${i}`, authorId: 1, parentId: saml.id, state: i < 60 ? 'CLOSED' : 'OPEN' },
        h.forge.model.now(),
      );
    const c = await h.as();
    const item = structured<Item>(await c.call('get_work_item', { id: gid(S.saml.id) }));
    expect([item.progress, item.more_children, (item.children as unknown[]).length]).toEqual([undefined, true, 100]);
    const page = structured<Page>(await c.call('list_work_items', { parent_id: gid(S.saml.id), per_page: 100 }));
    expect([page.pagination.total, typeof page.pagination.next_page]).toEqual([121, 'string']);
  });
});
