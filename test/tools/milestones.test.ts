// Project milestone tools, and the opt-in switches of the milestones group (D13).
import { describe, expect, test } from 'bun:test';
import { useApps } from '../support/apps';
import { MILESTONE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { forgeApi } from '../support/forge-api';
import { useHarness } from '../support/harness';
import { connect, structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'milestones' });
const P = String(SEED.project);
const { v1, v09, groupQ1 } = SEED.milestones;

type Milestone = {
  id: number;
  iid: number;
  title: string;
  description?: string;
  state: string;
  project_id?: number;
  group_id?: number;
  due_date: string | null;
  expired?: boolean;
  web_url?: string;
};
type Page<T> = { items: T[]; pagination: { page: number; per_page: number; next_page: number | null; total: number } };
const api = () => h.forge.model.projects.get(SEED.project)!;
const ids = (page: Page<{ id: number }>) => page.items.map((x) => x.id);

const MILESTONE_TOOLS = [
  'list_milestones',
  'get_milestone',
  'create_milestone',
  'edit_milestone',
  'delete_milestone',
  'get_milestone_issue',
  'get_milestone_merge_requests',
  'promote_milestone',
  'get_milestone_burndown_events',
  'list_group_milestones',
  'get_group_milestone',
  'create_group_milestone',
  'edit_group_milestone',
  'delete_group_milestone',
  'get_group_milestone_issue',
  'get_group_milestone_merge_requests',
  'get_group_milestone_burndown_events',
];

describe('the milestones group is opt-in (D13)', () => {
  const apps = useApps(() => h.forge.apiUrl, 'all');
  async function listed(overrides: Record<string, string>): Promise<string[]> {
    const app = apps(overrides);
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const { tools } = await session.client.listTools();
    await session.close();
    return tools.map((t) => t.name);
  }
  const milestoneNames = (names: string[]) => names.filter((n) => MILESTONE_TOOLS.includes(n));

  test.each([
    ['FORGE_TOOLSETS=milestones', { FORGE_TOOLSETS: 'milestones' }],
    ['FORGE_TOOLSETS=all', { FORGE_TOOLSETS: 'all' }],
    ['USE_MILESTONE=true', { USE_MILESTONE: 'true' }],
  ])('%s lists all 17 milestone tools', async (_, overrides) => {
    expect(milestoneNames(await listed(overrides))).toEqual(MILESTONE_TOOLS);
  });

  test('without a switch, or with other groups only, none is listed', async () => {
    const byDefault = await listed({ FORGE_TOOLSETS: '' });
    expect(byDefault.length).toBeGreaterThan(0);
    expect(milestoneNames(byDefault)).toEqual([]);
    expect(milestoneNames(await listed({ FORGE_TOOLSETS: 'branches', USE_MILESTONE: 'false' }))).toEqual([]);
  });

  test('FORGE_TOOLSETS=milestones lists nothing else', async () => {
    expect(await listed({ FORGE_TOOLSETS: 'milestones' })).toEqual(MILESTONE_TOOLS);
  });
});

describe('list_milestones', () => {
  test("lists the project's milestones by due date with pagination", async () => {
    const page = structured<Page<Milestone>>(await (await h.as()).call('list_milestones', { project_id: P }));
    expect(ids(page)).toEqual([v09, v1, MILESTONE_SEED.v11]);
    // A list item is the milestone summary (D33): the list's project and the link are get_milestone's.
    expect(page.items[0]).toEqual({ id: 102, iid: 2, title: 'v0.9', description: 'v0.9 release', state: 'closed', due_date: '2024-01-15', expired: true });
    const full = structured<Page<Milestone>>(await (await h.as()).call('list_milestones', { project_id: P, full_response: true }));
    expect(full.items[0]).toMatchObject({ id: 102, project_id: SEED.project, web_url: 'http://forge.test/acme/platform/api/-/milestones/2' });
    expect(page.pagination).toMatchObject({ page: 1, total: 3, next_page: null });
  });

  test('filters: state, iids, exact title, search in the description, update times', async () => {
    const c = await h.as();
    const list = async (args: Record<string, unknown>) => ids(structured<Page<Milestone>>(await c.call('list_milestones', { project_id: P, ...args })));
    expect(await list({ state: 'closed' })).toEqual([v09]);
    expect(await list({ state: 'active' })).toEqual([v1, MILESTONE_SEED.v11]);
    expect(await list({ iids: [1, 3] })).toEqual([v1, MILESTONE_SEED.v11]);
    expect(h.forge.requests.at(-1)!.query.getAll('iids[]')).toEqual(['1', '3']);
    expect(await list({ title: 'v1.0' })).toEqual([v1]);
    expect(await list({ title: 'v1' })).toEqual([]);
    expect(await list({ search: 'PERFORMANCE' })).toEqual([MILESTONE_SEED.v11]);
    expect(await list({ updated_after: '2024-02-01T00:00:00Z' })).toEqual([MILESTONE_SEED.v11]);
    expect(await list({ updated_before: '2024-01-03T00:00:00Z' })).toEqual([v09, v1]);
  });

  test('include_ancestors adds the milestones of the parent groups', async () => {
    const page = structured<Page<Milestone>>(await (await h.as()).call('list_milestones', { project_id: P, include_ancestors: true }));
    expect(ids(page).sort()).toEqual([v1, v09, MILESTONE_SEED.v11, groupQ1, MILESTONE_SEED.acmeRoadmap].sort());
    expect(page.items.find((m) => m.id === groupQ1)).toMatchObject({ group_id: SEED.groups.platform });
  });

  test('before GitLab 16.7, which drops include_ancestors, the ancestors are asked for as include_parent_milestones', async () => {
    h.forge.model.version = '16.0.0';
    // The fake drops the newer name as GitLab 16.0 does: only the project's own milestones.
    const dropped = await forgeApi(h.forge, `/projects/${SEED.project}/milestones?include_ancestors=true`);
    expect((dropped.body as Milestone[]).map((m) => m.id).sort()).toEqual([v1, v09, MILESTONE_SEED.v11].sort());
    h.forge.requests.length = 0;
    const page = structured<Page<Milestone>>(await (await h.as()).call('list_milestones', { project_id: P, include_ancestors: true }));
    expect(ids(page).sort()).toEqual([v1, v09, MILESTONE_SEED.v11, groupQ1, MILESTONE_SEED.acmeRoadmap].sort());
    const sent = h.forge.requests.at(-1)!.query;
    expect([sent.get('include_parent_milestones'), sent.has('include_ancestors')]).toEqual(['true', false]);
  });

  test('from GitLab 16.7 include_ancestors goes as it is named', async () => {
    h.forge.model.version = '16.7.0';
    await (await h.as()).call('list_milestones', { project_id: P, include_ancestors: true });
    const sent = h.forge.requests.at(-1)!.query;
    expect([sent.get('include_ancestors'), sent.has('include_parent_milestones')]).toEqual(['true', false]);
  });

  test('a project path reaches the forge encoded once; per_page pages', async () => {
    const page = structured<Page<Milestone>>(await (await h.as()).call('list_milestones', { project_id: SEED.projectPath, per_page: 2, page: 2 }));
    expect(ids(page)).toEqual([MILESTONE_SEED.v11]);
    expect(page.pagination).toMatchObject({ page: 2, per_page: 2, total: 3 });
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/milestones`]);
  });

  test('a private project is not_found for the guest', async () => {
    const err = toolError(await (await h.as(TOKENS.guest)).call('list_milestones', { project_id: String(SEED.privateProject) }));
    expect(err).toMatchObject({ kind: 'not_found', status: 404, message: '404 Project Not Found' });
  });

  test.each([
    [{ state: 'open' }, 'state: must be one of active, closed'],
    [{ updated_after: '2024-02-30T00:00:00Z' }, 'updated_after: must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z'],
    [{ iids: ['one'] }, 'iids.0: must be a positive integer (an iid)'],
    [{ iids: [1], include_ancestors: true }, 'iids: is ignored by the forge together with include_ancestors'],
    [{ include_descendants: true }, 'include_descendants: is not a parameter of this tool'],
    [{ per_page: 500 }, 'per_page: must be an integer from 1 to 100'],
  ])('rejects %j before any upstream call', async (args, message) => {
    const err = toolError(await (await h.as()).call('list_milestones', { project_id: P, ...args }));
    expect(err.kind).toBe('validation');
    expect(err.message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });
});

describe('get_milestone', () => {
  test('gets a milestone by its global id (a number is accepted too)', async () => {
    const ms = structured<Milestone>(await (await h.as()).call('get_milestone', { project_id: P, milestone_id: v1 }));
    expect(ms).toMatchObject({ id: v1, iid: 1, title: 'v1.0', state: 'active', due_date: '2024-02-29', project_id: SEED.project });
    expect(h.upstream()).toEqual([`GET /api/v4/projects/42/milestones/${v1}`]);
  });

  test('a group milestone, or an unknown id, is not_found through the project', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_milestone', { project_id: P, milestone_id: String(groupQ1) }))).toMatchObject({ kind: 'not_found', status: 404 });
    expect(toolError(await c.call('get_milestone', { project_id: P, milestone_id: '999' })).kind).toBe('not_found');
  });

  test('a title instead of an id is refused before any upstream call', async () => {
    const err = toolError(await (await h.as()).call('get_milestone', { project_id: P, milestone_id: 'v1.0' }));
    expect(err).toMatchObject({ kind: 'validation', message: "milestone_id: must be the milestone's numeric id (the id field, not iid)" });
    expect(h.upstream()).toEqual([]);
  });
});

describe('create_milestone', () => {
  test('creates an active milestone with dates', async () => {
    const ms = structured<Milestone & { start_date: string }>(
      await (await h.as(TOKENS.developer)).call('create_milestone', {
        project_id: P,
        title: 'v2.0',
        description: 'Next',
        start_date: '2024-05-01',
        due_date: '2024-06-30',
      }),
    );
    expect(ms).toMatchObject({ title: 'v2.0', state: 'active', start_date: '2024-05-01', due_date: '2024-06-30', project_id: SEED.project, iid: 4 });
    expect(api().milestones.find((m) => m.id === ms.id)?.title).toBe('v2.0');
    expect(h.forge.requests[0].body).toEqual({ title: 'v2.0', description: 'Next', start_date: '2024-05-01', due_date: '2024-06-30' });
  });

  test('a title used in the project or its groups is refused by the forge', async () => {
    const c = await h.as();
    for (const title of ['v1.0', 'Q1 Platform']) {
      const err = toolError(await c.call('create_milestone', { project_id: P, title }));
      expect(err).toMatchObject({ kind: 'validation', status: 400 });
      expect(err.message).toContain('already being used for another group or project milestone');
    }
  });

  test('a guest may not create milestones', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('create_milestone', { project_id: P, title: 'v3' }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
  });

  test.each([
    [{ due_date: '2024-02-30' }, 'due_date: must be a date in the form YYYY-MM-DD'],
    [{ start_date: '2024/05/01' }, 'start_date: must be a date in the form YYYY-MM-DD'],
    [{ start_date: '2024-05-01', due_date: '2024-05-01' }, 'due_date: must be after start_date (2024-05-01)'],
    [{ title: '' }, 'title: must not be empty'],
    [{ title: undefined }, 'title: is required'],
  ])('rejects %j before any upstream call', async (args, message) => {
    const err = toolError(await (await h.as()).call('create_milestone', { project_id: P, title: 'v2.0', ...args }));
    expect(err).toMatchObject({ kind: 'validation', message });
    expect(h.upstream()).toEqual([]);
  });
});

describe('edit_milestone', () => {
  test('state_event close moves active → closed, activate moves it back', async () => {
    const c = await h.as();
    expect(structured<Milestone>(await c.call('edit_milestone', { project_id: P, milestone_id: String(v1), state_event: 'close' })).state).toBe('closed');
    expect(api().milestones.find((m) => m.id === v1)!.state).toBe('closed');
    // Closing a closed milestone changes nothing and is no error.
    expect(structured<Milestone>(await c.call('edit_milestone', { project_id: P, milestone_id: String(v1), state_event: 'close' })).state).toBe('closed');
    expect(structured<Milestone>(await c.call('edit_milestone', { project_id: P, milestone_id: String(v1), state_event: 'activate' })).state).toBe('active');
    expect(h.forge.requests.map((r) => r.body)).toEqual([{ state_event: 'close' }, { state_event: 'close' }, { state_event: 'activate' }]);
  });

  test('changes title and dates', async () => {
    const ms = structured<Milestone>(
      await (await h.as()).call('edit_milestone', { project_id: P, milestone_id: String(v09), title: 'v0.9.1', due_date: '2024-01-20' }),
    );
    expect(ms).toMatchObject({ id: v09, title: 'v0.9.1', due_date: '2024-01-20', state: 'closed' });
  });

  test('a start date after the stored due date is refused by the forge', async () => {
    const err = toolError(await (await h.as()).call('edit_milestone', { project_id: P, milestone_id: String(v1), start_date: '2024-03-15' }));
    expect(err).toMatchObject({ kind: 'validation', status: 400 });
    expect(err.message).toContain('must be greater than start date');
  });

  test('a guest may not edit; an unknown milestone is not_found', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('edit_milestone', { project_id: P, milestone_id: String(v1), state_event: 'close' })).kind).toBe(
      'permission',
    );
    expect(toolError(await (await h.as()).call('edit_milestone', { project_id: P, milestone_id: '999', title: 'x' })).kind).toBe('not_found');
  });

  test.each([
    [{ state_event: 'reopen' }, 'state_event: must be one of close, activate'],
    [{ state_event: 'closed' }, 'state_event: must be one of close, activate'],
    [{}, 'arguments: give at least one of title, description, due_date, start_date, state_event'],
    [{ due_date: '2023-02-29' }, 'due_date: must be a date in the form YYYY-MM-DD'],
    [{ start_date: '2024-06-01', due_date: '2024-05-01' }, 'due_date: must be after start_date (2024-06-01)'],
  ])('rejects %j before any upstream call', async (args, message) => {
    const err = toolError(await (await h.as()).call('edit_milestone', { project_id: P, milestone_id: String(v1), ...args }));
    expect(err).toMatchObject({ kind: 'validation', message });
    expect(h.upstream()).toEqual([]);
  });
});

describe('delete_milestone', () => {
  test('deletes the milestone; its issues and merge requests stay without it', async () => {
    const result = structured(await (await h.as()).call('delete_milestone', { project_id: P, milestone_id: String(v1) }));
    expect(result).toEqual({ deleted: true, milestone_id: String(v1) });
    expect(api().milestones.some((m) => m.id === v1)).toBe(false);
    expect(api().issues.get(1)!.milestone_id).toBeNull();
    expect(api().mergeRequests.find((mr) => mr.iid === 1)!.milestone_id).toBeNull();
  });

  test('a guest gets permission; a second delete gets not_found', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('delete_milestone', { project_id: P, milestone_id: String(v1) }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
    const c = await h.as();
    structured(await c.call('delete_milestone', { project_id: P, milestone_id: String(v09) }));
    expect(toolError(await c.call('delete_milestone', { project_id: P, milestone_id: String(v09) })).kind).toBe('not_found');
  });
});

describe('get_milestone_issue and get_milestone_merge_requests', () => {
  test('lists the issues of a milestone, paginated', async () => {
    const c = await h.as();
    const page = structured<Page<{ iid: number; milestone: { id: number } }>>(
      await c.call('get_milestone_issue', { project_id: P, milestone_id: String(v1), per_page: 1 }),
    );
    expect(page.items.map((i) => i.iid)).toEqual([1]);
    expect(page.items[0].milestone.id).toBe(v1);
    expect(page.pagination).toMatchObject({ total: 2, next_page: 2 });
    const closed = structured<Page<{ iid: number; state: string }>>(await c.call('get_milestone_issue', { project_id: P, milestone_id: String(v09) }));
    expect(closed.items).toMatchObject([{ iid: 4, state: 'closed' }]);
  });

  test("lists the merge requests of a milestone in GitLab's shape", async () => {
    const page = structured<Page<Record<string, unknown>>>(
      await (await h.as()).call('get_milestone_merge_requests', { project_id: P, milestone_id: String(v1), per_page: 2, page: 2 }),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      iid: 3,
      project_id: SEED.project,
      state: 'opened',
      draft: true,
      source_branch: 'topic-14',
      target_branch: 'main',
      milestone: { id: v1 },
    });
    expect(page.pagination).toMatchObject({ page: 2, total: 3 });
  });

  test('an unknown milestone, or one of the group, is not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_milestone_issue', { project_id: P, milestone_id: '999' })).kind).toBe('not_found');
    expect(toolError(await c.call('get_milestone_merge_requests', { project_id: P, milestone_id: String(groupQ1) })).kind).toBe('not_found');
  });

  test('pagination and ids are checked before any upstream call', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_milestone_issue', { project_id: P, milestone_id: String(v1), per_page: 0 })).kind).toBe('validation');
    expect(toolError(await c.call('get_milestone_merge_requests', { project_id: P, milestone_id: '#1' })).kind).toBe('validation');
    expect(h.upstream()).toEqual([]);
  });
});
