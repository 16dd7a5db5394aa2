// The labels group (issue 36): a project's labels with its groups', and changing its own.
import { describe, expect, test } from 'bun:test';
import { DISCOVERY_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'labels' });
type Page<T> = { items: T[] };
type Label = Record<string, unknown> & {
  id: number;
  name: string;
  description?: string;
  priority?: number;
  is_project_label?: true;
  open_issues_count?: number;
};
const L = DISCOVERY_SEED.labels;

describe('list_labels, get_label, list_group_labels', () => {
  test("a project's own labels and its groups', with counts on request", async () => {
    const c = await h.as();
    const page = structured<Page<Label>>(await c.call('list_labels', { project_id: SEED.project, with_counts: true }));
    expect(page.items.map((l) => l.name)).toEqual(['auth', 'bug', 'docs', 'feature', 'priority::high', 'team/platform', '🚀 launch']);
    expect(page.items[1]).toEqual({
      id: L.bug,
      name: 'bug',
      description: 'Something is broken',
      priority: 1,
      is_project_label: true,
      open_issues_count: 1,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
    });
    const own = structured<Page<Label>>(await c.call('list_labels', { project_id: SEED.project, include_ancestor_groups: false, search: 'u' }));
    expect(own.items.map((l) => l.name)).toEqual(['auth', 'bug', 'feature']);
  });

  test('get_label by id or by a name with a slash or an emoji', async () => {
    const c = await h.as();
    expect(structured<Label>(await c.call('get_label', { project_id: SEED.project, label_id: L.auth })).name).toBe('auth');
    expect(structured<Label>(await c.call('get_label', { project_id: SEED.project, label_id: 'team/platform' })).id).toBe(L.teamPlatform);
    expect(structured<Label>(await c.call('get_label', { project_id: SEED.project, label_id: '🚀 launch' })).id).toBe(L.launch);
    expect(h.upstream()).toEqual([
      `GET /api/v4/projects/42/labels/${L.auth}`,
      'GET /api/v4/projects/42/labels/team%2Fplatform',
      'GET /api/v4/projects/42/labels/%F0%9F%9A%80%20launch',
    ]);
    const missing = toolError(await c.call('get_label', { project_id: SEED.project, label_id: 'nope' }));
    expect([missing.kind, missing.message]).toEqual(['not_found', '404 Label Not Found']);
  });

  test("list_group_labels: a subgroup with its parent's", async () => {
    const page = structured<Page<Label>>(await (await h.as()).call('list_group_labels', { group_id: 'acme/platform' }));
    expect(page.items.map((l) => l.name)).toEqual(['priority::high', 'team/platform', '🚀 launch']);
  });
});

describe('create_label, update_label, delete_label', () => {
  test('create, rename (issues keep it), delete', async () => {
    const c = await h.as();
    const made = structured<Label>(
      await c.call('create_label', { project_id: SEED.project, name: 'area/search 🔎', color: '#123abc', description: 'Search', priority: 3 }),
    );
    expect(made).toMatchObject({ name: 'area/search 🔎', description: 'Search', priority: 3, is_project_label: true });
    const renamed = structured<Label>(await c.call('update_label', { project_id: SEED.project, label_id: 'bug', new_name: 'defect' }));
    expect(renamed).toMatchObject({ id: L.bug, name: 'defect' });
    expect(h.forge.model.projects.get(SEED.project)!.issues.get(1)!.labels).toContain('defect');
    expect(structured(await c.call('delete_label', { project_id: SEED.project, label_id: made.id }))).toEqual({ deleted: true, label_id: String(made.id) });
  });

  test("GitLab's refusals: a name taken, a group's label changed through the project, a guest", async () => {
    const c = await h.as();
    const taken = toolError(await c.call('create_label', { project_id: SEED.project, name: 'bug', color: 'red' }));
    expect([taken.kind, taken.status, taken.message]).toEqual(['conflict', 409, 'Label already exists']);
    const group = toolError(await c.call('update_label', { project_id: SEED.project, label_id: 'team/platform', description: 'x' }));
    expect([group.kind, group.message]).toEqual(['not_found', '404 Label Not Found']);
    const guest = toolError(await (await h.as(TOKENS.guest)).call('create_label', { project_id: SEED.project, name: 'x', color: '#fff' }));
    expect([guest.kind, guest.status]).toEqual(['permission', 403]);
  });

  test('refused before the network: a comma in a name, a colour that is none, nothing to change', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_label', { project_id: SEED.project, name: 'a,b', color: '#fff' })).message).toBe(
      'name: must be a label name without commas (GitLab separates label names with commas)',
    );
    expect(toolError(await c.call('create_label', { project_id: SEED.project, name: 'x', color: '#12345' })).message).toStartWith('color: must be a colour');
    expect(toolError(await c.call('update_label', { project_id: SEED.project, label_id: 'bug', new_name: 'x,y' })).message).toStartWith('new_name: ');
    expect(toolError(await c.call('update_label', { project_id: SEED.project, label_id: 'bug' })).message).toStartWith('arguments: give at least one of');
    expect(h.upstream()).toEqual([]);
  });
});
