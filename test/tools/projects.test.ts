// The projects group (issue 36): finding projects, groups and namespaces from a name, their
// members and their recent activity, against the fake forge's GitLab semantics.
import { describe, expect, test } from 'bun:test';
import { DISCOVERY_SEED, MILESTONE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'projects' });

type Page<T> = { items: T[]; pagination: { page: number; per_page: number; next_page: number | null; total: number } };
type Project = Record<string, unknown> & {
  id: number;
  path_with_namespace: string;
  description?: string;
  access_level?: number;
  forked_from_project?: { id: number; path_with_namespace: string };
  license?: unknown;
  statistics?: unknown;
};
const paths = (page: Page<{ path_with_namespace: string }>) => page.items.map((p) => p.path_with_namespace);
const query = () => Object.fromEntries(h.forge.requests.at(-1)!.query);

describe('list_projects', () => {
  test("by default the caller's own projects, most recently active first; membership: false widens to every readable one", async () => {
    const c = await h.as();
    const mine = structured<Page<Project>>(await c.call('list_projects', {}));
    expect(paths(mine)).toEqual(['acme/secret', 'acme/platform/api', MILESTONE_SEED.personalProjectPath]);
    expect(query()).toEqual({ membership: 'true', order_by: 'last_activity_at' });
    expect(mine.items[1]).toEqual({
      id: SEED.project,
      path_with_namespace: 'acme/platform/api',
      description: 'Platform API service: HTTP entry point, config and caching.',
      default_branch: 'main',
      visibility: 'internal',
      topics: ['api', 'platform'],
      open_issues_count: 4,
      access_level: 40,
      last_activity_at: '2024-01-31T12:00:00.000Z',
      web_url: 'http://forge.test/acme/platform/api',
    });
    const all = structured<Page<Project>>(await c.call('list_projects', { membership: false, search: 'api' }));
    expect(paths(all)).toEqual(['acme/platform/api', 'dev/api']);
    expect(all.items[1].forked_from_project).toEqual({ id: SEED.project, path_with_namespace: 'acme/platform/api' });
  });

  test('filters reach GitLab under its own names', async () => {
    const c = await h.as();
    const page = structured<Page<Project>>(
      await c.call('list_projects', { topic: 'security', visibility: 'private', min_access_level: 40, order_by: 'name', sort: 'asc', archived: false }),
    );
    expect(paths(page)).toEqual(['acme/secret']);
    expect(query()).toEqual({
      membership: 'true',
      order_by: 'name',
      sort: 'asc',
      topic: 'security',
      visibility: 'private',
      min_access_level: '40',
      archived: 'false',
    });
  });

  test('a guest sees no private project it is not a member of', async () => {
    const page = structured<Page<Project>>(await (await h.as(TOKENS.guest)).call('list_projects', { membership: false }));
    expect(paths(page)).toEqual(['acme/platform/api', 'dev/api']);
  });

  test('refused before the network: an unknown order, an empty search', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_projects', { order_by: 'stars' })).message).toStartWith('order_by: ');
    expect(toolError(await c.call('list_projects', { search: '' })).message).toStartWith('search: ');
    expect(h.upstream()).toEqual([]);
  });
});

describe('get_project', () => {
  test.each([
    ['a numeric id', SEED.project, '/projects/42'],
    ['a full path', 'acme/platform/api', '/projects/acme%2Fplatform%2Fapi'],
    ['a web URL', '{web}/acme/platform/api', '/projects/acme%2Fplatform%2Fapi'],
    ['a web URL of one of its pages', '{web}/acme/platform/api/-/tree/main/src?ref_type=heads', '/projects/acme%2Fplatform%2Fapi'],
    ['its clone URL', '{web}/acme/platform/api.git', '/projects/acme%2Fplatform%2Fapi'],
  ])('by %s', async (_, projectId, path) => {
    const c = await h.as();
    // The forge's web origin is its API URL's: the fake on a loopback port.
    const p = structured<Project>(await c.call('get_project', { project_id: String(projectId).replace('{web}', new URL(h.forge.apiUrl).origin) }));
    expect(p.id).toBe(SEED.project);
    expect(h.upstream()).toEqual([`GET /api/v4${path}`]);
  });

  test('licence and statistics only on request', async () => {
    const c = await h.as();
    const plain = structured<Project>(await c.call('get_project', { project_id: SEED.project }));
    expect(plain.license).toBeUndefined();
    const full = structured<Project>(await c.call('get_project', { project_id: SEED.project, license: true, statistics: true }));
    expect(full.license).toEqual({ key: 'mit', name: 'MIT License' });
    expect(full.statistics).toMatchObject({ commit_count: expect.any(Number) });
  });

  test('a URL of another forge, or one naming no project, is refused before the network', async () => {
    const c = await h.as();
    // The app's forge is the fake on 127.0.0.1: forge.test is only the web base the fake writes into its records.
    const forgeHost = new URL(h.forge.apiUrl).host;
    const other = toolError(await c.call('get_project', { project_id: 'https://gitlab.com/acme/platform/api' }));
    expect([other.kind, other.message]).toEqual([
      'validation',
      `project_id: is a URL of gitlab.com, not of this forge (${forgeHost}); give the project's id or path`,
    ]);
    const bare = toolError(await c.call('get_project', { project_id: `${new URL(h.forge.apiUrl).origin}/acme` }));
    expect(bare.message).toStartWith('project_id: is a URL that names no project');
    const dots = toolError(await c.call('get_project', { project_id: `${new URL(h.forge.apiUrl).origin}/acme/%2e%2e/x` }));
    expect(dots.message).toStartWith('project_id: must not be');
    expect(h.upstream()).toEqual([]);
  });

  test("a private project the caller may not read is GitLab's 404", async () => {
    const error = toolError(await (await h.as(TOKENS.guest)).call('get_project', { project_id: SEED.privateProjectPath }));
    expect([error.kind, error.status, error.message]).toEqual(['not_found', 404, '404 Project Not Found']);
  });
});

describe('list_group_projects, list_groups, get_group', () => {
  test("a group's projects, its subgroups' with include_subgroups", async () => {
    const c = await h.as();
    expect(paths(structured(await c.call('list_group_projects', { group_id: 'acme' })))).toEqual(['acme/secret']);
    expect(paths(structured(await c.call('list_group_projects', { group_id: 'acme', include_subgroups: true })))).toEqual(['acme/secret', 'acme/platform/api']);
    expect(query()).toEqual({ order_by: 'last_activity_at', include_subgroups: 'true' });
  });

  test("the groups the caller belongs to; top-level only; a group's subgroups", async () => {
    const c = await h.as();
    type G = Record<string, unknown> & { id: number; full_path: string; parent_id?: number };
    const groups = structured<Page<G>>(await c.call('list_groups', {}));
    expect(groups.items).toEqual([
      { id: 6, full_path: 'acme', description: 'Acme Corporation', visibility: 'internal', web_url: 'http://forge.test/groups/acme' },
      {
        id: 7,
        full_path: 'acme/platform',
        description: 'The platform teams',
        visibility: 'internal',
        parent_id: 6,
        web_url: 'http://forge.test/groups/acme/platform',
      },
    ]);
    expect(structured<Page<G>>(await c.call('list_groups', { top_level_only: true })).items.map((g) => g.id)).toEqual([6]);
    expect(structured<Page<G>>(await c.call('list_groups', { group_id: 'acme' })).items.map((g) => g.id)).toEqual([7]);
    expect(h.upstream().at(-1)).toBe('GET /api/v4/groups/acme/subgroups');
    // dev belongs to acme/platform only; gus to no group.
    expect(structured<Page<G>>(await (await h.as(TOKENS.developer)).call('list_groups', {})).items.map((g) => g.id)).toEqual([7]);
    expect(structured<Page<G>>(await (await h.as(TOKENS.guest)).call('list_groups', {})).items).toEqual([]);
  });

  test("get_group leaves the group's projects to list_group_projects", async () => {
    const g = structured<{ id: number; full_path: string }>(await (await h.as()).call('get_group', { group_id: 'acme/platform' }));
    expect(g).toMatchObject({ id: 7, full_path: 'acme/platform' });
    expect(query()).toEqual({ with_projects: 'false' });
    const missing = toolError(await (await h.as()).call('get_group', { group_id: 'nope' }));
    expect([missing.kind, missing.message]).toEqual(['not_found', '404 Group Not Found']);
  });
});

describe('namespaces', () => {
  test("list_namespaces: the caller's own and their groups'; get_namespace by id or path", async () => {
    const c = await h.as();
    const list = structured<Page<{ id: number; full_path: string; kind: string }>>(await c.call('list_namespaces', {}));
    expect(list.items.map((n) => [n.id, n.full_path, n.kind])).toEqual([
      [DISCOVERY_SEED.namespaces.maria, 'maria', 'user'],
      [6, 'acme', 'group'],
    ]);
    expect(structured(await c.call('get_namespace', { namespace_id: 'acme' }))).toMatchObject({ id: 6, kind: 'group' });
    const other = toolError(await c.call('get_namespace', { namespace_id: DISCOVERY_SEED.namespaces.dev }));
    expect([other.kind, other.message]).toEqual(['not_found', '404 Namespace Not Found']);
  });
});

describe('members', () => {
  test('list_project_members: inherited members included, the access level named', async () => {
    const c = await h.as();
    const page = structured<Page<Record<string, unknown>>>(await c.call('list_project_members', { project_id: SEED.project }));
    expect(page.items).toEqual([
      { id: 1, username: 'maria', name: 'Maria Rossi', access_level: 40, access_level_name: 'Maintainer' },
      { id: 2, username: 'dev', name: 'Devon Park', access_level: 30, access_level_name: 'Developer' },
      { id: 3, username: 'gus', name: 'Gus Guest', access_level: 10, access_level_name: 'Guest' },
      // The bot users of the project's and its group's access tokens are members as well.
      { id: 10, username: 'project_42_bot_5c1f0e2a9b7d4c3e8f6a1b2c3d4e5f60', name: 'api-bot', access_level: 40, access_level_name: 'Maintainer' },
      { id: 11, username: 'group_6_bot_0a1b2c3d4e5f60718293a4b5c6d7e8f9', name: 'acme-bot', access_level: 30, access_level_name: 'Developer' },
    ]);
    expect(h.upstream()).toEqual(['GET /api/v4/projects/42/members/all']);
    await c.call('list_project_members', { project_id: SEED.project, include_inheritance: false, query: 'dev' });
    expect(h.upstream().at(-1)).toBe('GET /api/v4/projects/42/members');
  });

  test("list_group_members: a subgroup lists its parent's members too", async () => {
    const page = structured<Page<{ username: string; access_level: number }>>(await (await h.as()).call('list_group_members', { group_id: 'acme/platform' }));
    // acme's access-token bot user is inherited as well.
    expect(page.items.map((m) => [m.username, m.access_level])).toEqual([
      ['maria', 40],
      ['dev', 30],
      ['group_6_bot_0a1b2c3d4e5f60718293a4b5c6d7e8f9', 30],
    ]);
    const direct = structured<Page<{ username: string }>>(
      await (await h.as()).call('list_group_members', { group_id: 'acme/platform', include_inheritance: false }),
    );
    expect(direct.items.map((m) => m.username)).toEqual(['dev']);
  });

  test('members of a project the caller may not read: 404', async () => {
    const error = toolError(await (await h.as(TOKENS.guest)).call('list_project_members', { project_id: SEED.privateProject }));
    expect([error.kind, error.status]).toEqual(['not_found', 404]);
  });
});

describe('events', () => {
  test("list_events: the caller's own activity, newest first, with the push and the comment", async () => {
    const c = await h.as();
    const page = structured<Page<Record<string, unknown>>>(await c.call('list_events', {}));
    expect(page.items.map((e) => e.id)).toEqual([
      DISCOVERY_SEED.events.secretPush,
      DISCOVERY_SEED.events.push,
      DISCOVERY_SEED.events.closed,
      DISCOVERY_SEED.events.commented,
    ]);
    expect(page.items[1]).toEqual({
      id: DISCOVERY_SEED.events.push,
      created_at: '2024-01-31T09:00:00.000Z',
      project_id: 42,
      action_name: 'pushed to',
      author: { id: 1, username: 'maria', name: 'Maria Rossi' },
      push_data: { action: 'pushed', ref_type: 'branch', ref: 'main', commit_count: 1, commit_to: SEED.headSha, commit_title: 'Bump version to 1.4.0' },
    });
    expect(page.items[3]).toMatchObject({
      target_type: 'Note',
      note: { body: 'I can reproduce this with the staging IdP.', noteable_type: 'Issue', noteable_iid: 1 },
    });
  });

  test('get_project_events: filters by action, target type and days', async () => {
    const c = await h.as();
    const ids = async (args: Record<string, unknown>) =>
      structured<Page<{ id: number }>>(await c.call('get_project_events', { project_id: SEED.project, ...args })).items.map((e) => e.id);
    const E = DISCOVERY_SEED.events;
    expect(await ids({})).toEqual([E.push, E.closed, E.commented, E.opened]);
    expect(await ids({ action: 'pushed' })).toEqual([E.push]);
    expect(await ids({ target_type: 'issue' })).toEqual([E.closed, E.opened]);
    expect(await ids({ after: '2024-01-05', before: '2024-01-31' })).toEqual([E.closed]);
    expect(await ids({ sort: 'asc' })).toEqual([E.opened, E.commented, E.closed, E.push]);
    expect(query()).toEqual({ sort: 'asc' });
    expect(toolError(await c.call('get_project_events', { project_id: SEED.project, before: '2024-02-30' })).message).toStartWith('before: ');
  });
});

describe('get_project with a URL holding a user name and password', () => {
  test('is refused without repeating them, and the audit line leaves them out', async () => {
    const { compileArgSummary } = await import('../../src/tools/arg-summary');
    const { ALL_TOOLS } = await import('../../src/tools/catalog');
    const c = await h.as();
    const url = `${new URL(h.forge.apiUrl).origin.replace('://', '://bob:s3cret@')}/acme/platform/api`;
    const error = toolError(await c.call('get_project', { project_id: url }));
    expect([error.kind, error.message]).toEqual([
      'validation',
      "project_id: is a URL with a user name or password in it; give the project's URL without them, or its path",
    ]);
    expect(h.upstream()).toEqual([]);
    const summary = compileArgSummary(ALL_TOOLS.find((t) => t.name === 'get_project')!.input)({ project_id: url });
    expect(summary).toEqual({ project_id: `${new URL(h.forge.apiUrl).origin}/acme/platform/api` });
  });
});
