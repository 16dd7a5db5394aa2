// Issue tools through an MCP client against the fake forge: lists (scope defaults, filters,
// exclusive parameters), my_issues, get/update with slim results, create and delete.
import { describe, expect, test } from 'bun:test';
import { ACCESS, MILESTONE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
/** The tool's own request, the edition probe (GET /metadata, asked for paid-tier parameters) left out. */
// The tool's own request: not the edition look-up, nor the look-up of the labels a write names (labels_created).
const toolRequest = () => h.forge.requests.find((r) => !r.path.endsWith('/metadata') && !r.path.endsWith('/labels'))!;
const P = String(SEED.project);
type Issue = { iid: number; title: string; state: string; labels: string[]; milestone: Record<string, unknown> | null; assignees: { id: number }[] };
type Page = { items: Issue[]; pagination: { total: number | null; page: number | null } };
const issue = (iid: number) => h.forge.model.projects.get(SEED.project)!.issues.get(iid)!;

describe('list_issues', () => {
  test('without project_id or scope: issues the caller created, across projects (scope sent explicitly)', async () => {
    const c = await h.as();
    const page = structured<Page>(await c.call('list_issues', {}));
    expect(page.items.map((i) => i.iid)).toEqual([4, 1]);
    expect(page.pagination.total).toBe(2);
    expect(h.forge.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(['GET /api/v4/issues?scope=created_by_me']);
  });

  test("in one project the default is still created_by_me, although GitLab's own default there is all", async () => {
    const c = await h.as(TOKENS.developer);
    const page = structured<Page>(await c.call('list_issues', { project_id: SEED.projectPath }));
    expect(page.items.map((i) => i.iid)).toEqual([3, 2]);
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/issues`]);
    expect(h.forge.requests[0].query.get('scope')).toBe('created_by_me');
  });

  // D40: a client that never shows the server's instructions still tells the model the default that
  // hid others' issues from a search, and the conventions of the ids and filters it sends.
  test('the published schema says the scope default, and how ids, iids, dates and label filters are written', async () => {
    const c = await h.as();
    const tools = new Map((await c.client.listTools()).tools.map((t) => [t.name, t.inputSchema.properties as Record<string, { description?: string }>]));
    const list = tools.get('list_issues')!;
    expect(list.scope.description).toContain('Default created_by_me, even in a project');
    expect(list.scope.description).toContain('all');
    expect(list.project_id.description).toContain('group/project');
    expect(list.updated_after.description).toContain('YYYY-MM-DD');
    expect(list.labels.description).toContain('None');
    expect(list.per_page.description).toContain('20');
    expect(tools.get('get_issue')!.issue_iid.description).toContain('#12');
    expect(tools.get('update_issue')!.milestone_id.description).toContain('not iid');
    expect(tools.get('list_merge_requests')!.scope.description).toContain('created_by_me without project_id');
  });

  test('filters: labels as one comma-separated string, assignee_username as assignee_username[]', async () => {
    const c = await h.as();
    const page = structured<Page>(
      await c.call('list_issues', { project_id: P, scope: 'all', labels: ['bug', 'auth'], assignee_username: ['dev'], state: 'opened' }),
    );
    expect(page.items.map((i) => i.iid)).toEqual([1]);
    const q = h.forge.requests[0].query;
    expect(q.get('labels')).toBe('bug,auth');
    expect(q.getAll('assignee_username[]')).toEqual(['dev']);
    expect(q.get('state')).toBe('opened');
  });

  test('more filters reach the forge under their own names', async () => {
    const c = await h.as();
    const page = structured<Page>(
      await c.call('list_issues', {
        scope: 'all',
        author_username: 'gus',
        confidential: true,
        issue_type: 'incident',
        search: 'secret',
        milestone: 'None',
        created_after: '2024-01-01T00:00:00Z',
        updated_before: '2030-01-01T00:00:00Z',
        iteration_id: 'none',
        with_labels_details: true,
        per_page: 5,
      }),
    );
    expect(page.items.map((i) => i.iid)).toEqual([5]);
    expect(Object.fromEntries(toolRequest().query)).toMatchObject({
      author_username: 'gus',
      confidential: 'true',
      issue_type: 'incident',
      iteration_id: 'none',
      per_page: '5',
    });
  });

  test.each([
    [{ assignee_id: '2', assignee_username: ['dev'] }, 'assignee_username: cannot be combined with assignee_id; give one of them'],
    [{ author_id: '1', author_username: 'maria' }, 'author_username: cannot be combined with author_id; give one of them'],
    [{ assignee_id: 'nobody' }, 'assignee_id: must be a numeric id, none or any'],
    [{ per_page: 101 }, 'per_page: must be an integer from 1 to 100'],
  ])('refuses %j before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('list_issues', args))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });

  test('a project the caller cannot see → not_found', async () => {
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('list_issues', { project_id: SEED.privateProjectPath }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Project Not Found',
    });
  });
});

describe('my_issues', () => {
  test('issues assigned to the caller, open ones, whoever created them', async () => {
    const c = await h.as(TOKENS.developer);
    const page = structured<Page>(await c.call('my_issues', {}));
    // dev created 2 and 3 but is assigned 1, 4 (closed) and 5 (confidential, created by gus).
    expect(page.items.map((i) => i.iid)).toEqual([5, 1]);
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({ scope: 'assigned_to_me', state: 'opened' });
    expect(h.upstream()).toEqual(['GET /api/v4/issues']);
  });

  test('in one project, with another state and filters', async () => {
    const c = await h.as(TOKENS.developer);
    const page = structured<Page>(await c.call('my_issues', { project_id: P, state: 'all', labels: ['bug'], per_page: 1 }));
    expect(page.items.map((i) => i.iid)).toEqual([4]);
    expect(page.pagination).toMatchObject({ total: 2, page: 1 });
    expect(h.forge.requests[0].query.get('labels')).toBe('bug');
  });

  test('a bad state is refused without an upstream call; an unknown project → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('my_issues', { state: 'open' })).message).toBe('state: must be one of opened, closed, all');
    expect(h.upstream()).toEqual([]);
    expect(toolError(await c.call('my_issues', { project_id: 'acme/none' })).kind).toBe('not_found');
  });
});

describe('get_issue', () => {
  test('the milestone is slim by default', async () => {
    const c = await h.as();
    const got = structured<Issue>(await c.call('get_issue', { project_id: P, issue_iid: '1' }));
    expect(got).toMatchObject({ iid: 1, title: 'Login fails with SSO', labels: ['bug', 'auth'] });
    expect(got.milestone).toEqual({ id: 101, iid: 1, title: 'v1.0', state: 'active', web_url: 'http://forge.test/acme/platform/api/-/milestones/1' });
  });

  test('full_response returns the complete milestone object', async () => {
    const c = await h.as();
    const got = structured<Issue>(await c.call('get_issue', { project_id: P, issue_iid: 3, full_response: true }));
    expect(got.milestone).toMatchObject({ id: 201, group_id: 7, title: 'Q1 Platform', description: 'Platform goals for Q1', due_date: '2024-03-31' });
  });

  test('a confidential issue is hidden from a guest who neither wrote it nor is assigned; a bad iid never reaches the forge', async () => {
    issue(5).author_id = SEED.users.maintainer;
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('get_issue', { project_id: P, issue_iid: '5' }))).toEqual({ kind: 'not_found', status: 404, message: '404 Issue Not Found' });
    h.forge.reset();
    expect(toolError(await c.call('get_issue', { project_id: P, issue_iid: '#5' })).message).toBe('issue_iid: must be a positive integer id such as 42');
    expect(h.upstream()).toEqual([]);
  });
});

describe('update_issue', () => {
  test('close and reopen, with the slim confirmation by default', async () => {
    const c = await h.as();
    const closed = structured(await c.call('update_issue', { project_id: P, issue_iid: '2', state_event: 'close' }));
    expect(Object.keys(closed)).toEqual(['iid', 'title', 'state', 'web_url', 'updated_at']);
    expect(closed).toMatchObject({ iid: 2, state: 'closed', web_url: 'http://forge.test/acme/platform/api/-/issues/2' });
    expect(issue(2)).toMatchObject({ state: 'closed', closed_by_id: 1 });
    expect(structured(await c.call('update_issue', { project_id: P, issue_iid: '2', state_event: 'reopen' }))).toMatchObject({ state: 'opened' });
    expect(issue(2)).toMatchObject({ state: 'opened', closed_at: null });
    expect(h.forge.requests[0].body).toEqual({ state_event: 'close' });
  });

  test("fields are sent in GitLab's form; full_response returns the whole issue", async () => {
    const c = await h.as();
    const full = structured<Issue>(
      await c.call('update_issue', {
        project_id: P,
        issue_iid: '1',
        title: 'SSO login fails',
        labels: ['bug', 'sso'],
        assignee_ids: [1, 2],
        milestone_id: '0',
        due_date: '2024-05-01',
        full_response: true,
      }),
    );
    expect(toolRequest().body).toEqual({ title: 'SSO login fails', labels: 'bug,sso', assignee_ids: [1, 2], milestone_id: '0', due_date: '2024-05-01' });
    expect(full).toMatchObject({ title: 'SSO login fails', labels: ['bug', 'sso'], milestone: null });
    expect(full.assignees.map((a) => a.id)).toEqual([1, 2]);
  });

  test('what GitLab answers without doing is listed in not_applied: a type the caller may not create, a milestone outside the project', async () => {
    const c = await h.as();
    const before = issue(1).milestone_id;
    expect(before).not.toBeNull();
    // GitLab drops a test_case type without Ultimate, and unsets the milestone for an id outside the project's hierarchy.
    const slim = structured<Record<string, unknown>>(
      await c.call('update_issue', {
        project_id: P,
        issue_iid: '1',
        issue_type: 'test_case',
        milestone_id: String(MILESTONE_SEED.personalMilestone),
        title: 'Renamed',
      }),
    );
    expect(slim).toMatchObject({ iid: 1, title: 'Renamed' });
    expect(slim.not_applied).toEqual([
      'issue_type (the issue is issue: GitLab ignores a type the caller may not create; incidents need Reporter, test cases Ultimate)',
      "milestone_id (the issue's milestone is none)",
    ]);
    expect(issue(1)).toMatchObject({ issue_type: 'issue', milestone_id: null, title: 'Renamed' });
    // Everything applied: no not_applied.
    expect(
      structured<Record<string, unknown>>(await c.call('update_issue', { project_id: P, issue_iid: '1', issue_type: 'incident', milestone_id: String(before) }))
        .not_applied,
    ).toBeUndefined();
  });

  test('nothing to change is refused before any upstream call', async () => {
    const c = await h.as();
    const error = toolError(await c.call('update_issue', { project_id: P, issue_iid: '1', full_response: true }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith('arguments: give at least one field to change');
    expect(h.upstream()).toEqual([]);
  });

  test('a guest who neither wrote nor is assigned the issue → permission, and it stays open', async () => {
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('update_issue', { project_id: P, issue_iid: '1', state_event: 'close' }))).toEqual({
      kind: 'permission',
      status: 403,
      message: '403 Forbidden',
    });
    expect(issue(1).state).toBe('opened');
  });
});

describe('create_issue', () => {
  test('creates an issue with labels, assignees, milestone and type', async () => {
    const c = await h.as();
    const created = structured<Issue & { issue_type: string; weight: number }>(
      await c.call('create_issue', {
        project_id: SEED.projectPath,
        title: 'Cache misses on login',
        description: 'Seen in staging.',
        labels: ['bug', 'cache'],
        assignee_ids: [2],
        milestone_id: '101',
        issue_type: 'incident',
        weight: 2,
      }),
    );
    expect(created).toMatchObject({ iid: 6, title: 'Cache misses on login', labels: ['bug', 'cache'], issue_type: 'incident', weight: 2, state: 'opened' });
    expect(created).not.toHaveProperty('not_applied');
    expect(toolRequest().body).toEqual({
      title: 'Cache misses on login',
      description: 'Seen in staging.',
      labels: 'bug,cache',
      assignee_ids: [2],
      milestone_id: '101',
      issue_type: 'incident',
      weight: 2,
    });
    expect(issue(6).assignee_ids).toEqual([2]);
  });

  test("a guest's incident type and labels, which GitLab drops without an error, are listed in not_applied", async () => {
    const created = structured<Issue & { issue_type: string; not_applied?: string[] }>(
      await (await h.as(TOKENS.guest)).call('create_issue', {
        project_id: P,
        title: 'Outage',
        labels: ['bug'],
        issue_type: 'incident',
      }),
    );
    expect(created).toMatchObject({ title: 'Outage', issue_type: 'issue', labels: [] });
    expect(created.not_applied).toEqual([
      'issue_type (the issue is issue: GitLab ignores a type the caller may not create; incidents need Reporter, test cases Ultimate)',
      'labels',
    ]);
  });

  test('a missing project → not_found; a title over 255 characters never reaches the forge', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_issue', { project_id: 'acme/none', title: 'x' })).kind).toBe('not_found');
    h.forge.reset();
    expect(toolError(await c.call('create_issue', { project_id: P, title: 'x'.repeat(256) })).kind).toBe('validation');
    expect(h.upstream()).toEqual([]);
  });
});

describe('delete_issue', () => {
  test('a project Owner deletes an issue permanently, with its comments and links', async () => {
    h.forge.model.projects.get(SEED.project)!.members.set(SEED.users.maintainer, ACCESS.owner);
    const c = await h.as();
    expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: '1' }))).toEqual({ deleted: true, issue_iid: '1' });
    expect(issue(1)).toBeUndefined();
    expect(h.forge.model.tracker.notesOf(SEED.project, 'Issue', 1)).toEqual([]);
    expect(h.forge.model.tracker.links).toEqual([]);
  });

  test('a Maintainer may not → permission, and the issue stays', async () => {
    const c = await h.as();
    expect(toolError(await c.call('delete_issue', { project_id: P, issue_iid: '1' }))).toEqual({ kind: 'permission', status: 403, message: '403 Forbidden' });
    expect(issue(1)).toBeDefined();
  });
});
