// The releases group (issue 38): tags, releases and asset links through the MCP client against the
// fake forge (test/support/fake-forge/handlers/tags.ts and releases.ts, after lib/api/tags.rb,
// lib/api/releases.rb and lib/api/release/links.rb).
import { describe, expect, test } from 'bun:test';
import { useApps } from '../support/apps';
import { RELEASE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { connect, structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'releases' });
const P = String(SEED.project);
const api = () => h.forge.model.projects.get(SEED.project)!;
const sent = () => h.upstream().filter((r) => !r.endsWith('/metadata'));

type Tag = { name: string; commit_sha?: string; commit_title?: string; message?: string; protected?: boolean; release?: boolean; created_at?: string };
type Link = { id: number; name: string; url?: string; direct_asset_path?: string; direct_asset_url?: string; link_type?: string };
type Release = {
  tag_name: string;
  name?: string;
  description?: string;
  commit_sha?: string;
  released_at?: string;
  author?: unknown;
  milestones?: { id: number; title: string }[];
  links?: Link[];
  web_url?: string;
  upcoming_release?: boolean;
};
type Page<T> = { items: T[]; pagination: { total: number | null } };

describe('the wiki and releases groups are opt-in (D13)', () => {
  const apps = useApps(() => h.forge.apiUrl, 'all');
  async function listed(overrides: Record<string, string>): Promise<string[]> {
    const session = await connect(apps(overrides), { 'Private-Token': TOKENS.maintainer });
    const { tools } = await session.client.listTools();
    await session.close();
    return tools.map((t) => t.name);
  }
  const ours = (names: string[]) => names.filter((n) => /tag|release|wiki/.test(n));

  test('none is listed by default; FORGE_TOOLSETS names each group, and all holds both', async () => {
    expect(ours(await listed({}))).toEqual([]);
    expect(await listed({ FORGE_TOOLSETS: 'releases' })).toEqual([
      'list_tags',
      'get_tag',
      'create_tag',
      'delete_tag',
      'list_releases',
      'get_release',
      'create_release',
      'update_release',
      'delete_release',
      'list_release_links',
      'create_release_link',
      'delete_release_link',
    ]);
    expect(await listed({ FORGE_TOOLSETS: 'wiki' })).toEqual([
      'list_wiki_pages',
      'get_wiki_page',
      'create_wiki_page',
      'update_wiki_page',
      'delete_wiki_page',
      'list_group_wiki_pages',
      'get_group_wiki_page',
      'create_group_wiki_page',
      'update_group_wiki_page',
      'delete_group_wiki_page',
    ]);
    expect(ours(await listed({ FORGE_TOOLSETS: 'all' }))).toHaveLength(22);
    expect(ours(await listed({ FORGE_TOOLSETS: 'wiki,releases', FORGE_READ_ONLY_MODE: 'true' }))).toEqual([
      'list_wiki_pages',
      'get_wiki_page',
      'list_group_wiki_pages',
      'get_group_wiki_page',
      'list_tags',
      'get_tag',
      'list_releases',
      'get_release',
      'list_release_links',
    ]);
  });
});

describe('tags', () => {
  test('list_tags: lean records with the commit SHA; search and order', async () => {
    const c = await h.as();
    const page = structured<Page<Tag>>(await c.call('list_tags', { project_id: P }));
    expect(page.items.map((t) => t.name)).toEqual(['v1.0.0', 'v0.9.0']);
    expect(page.items[0]).toEqual({
      name: 'v1.0.0',
      commit_sha: SEED.tagSha,
      commit_title: 'Return server from start()',
      message: 'Release 1.0.0',
      protected: true,
      release: true,
      created_at: '2024-01-21T09:30:00.000+00:00',
    });
    expect(page.items[1]).toEqual({ name: 'v0.9.0', commit_sha: SEED.mainShas[9], commit_title: 'Rename logger modules across packages', protected: true });
    expect(structured<Page<Tag>>(await c.call('list_tags', { project_id: P, search: '^v0' })).items.map((t) => t.name)).toEqual(['v0.9.0']);
    expect(structured<Page<Tag>>(await c.call('list_tags', { project_id: P, order_by: 'name', sort: 'asc' })).items.map((t) => t.name)).toEqual([
      'v0.9.0',
      'v1.0.0',
    ]);
  });

  test('get_tag: by name; a tag name with / is one encoded segment; an unknown tag is not_found', async () => {
    const c = await h.as();
    expect(structured<Tag>(await c.call('get_tag', { project_id: P, tag_name: 'v1.0.0' })).commit_sha).toBe(SEED.tagSha);
    api().tags.set('release/2024', SEED.headSha);
    expect(structured<Tag>(await c.call('get_tag', { project_id: P, tag_name: 'release/2024' })).name).toBe('release/2024');
    expect(h.forge.requests.at(-1)!.path).toBe(`/api/v4/projects/${SEED.project}/repository/tags/release%2F2024`);
    expect(toolError(await c.call('get_tag', { project_id: P, tag_name: 'v9' }))).toMatchObject({ kind: 'not_found', message: '404 Tag Not Found' });
  });

  test("create_tag: annotated at a branch; GitLab's refusals", async () => {
    const c = await h.as(TOKENS.developer);
    const tag = structured<Tag & { target?: string }>(await c.call('create_tag', { project_id: P, tag_name: 'build-7', ref: 'develop', message: 'Build 7' }));
    expect(tag).toMatchObject({ name: 'build-7', message: 'Build 7', commit: { id: SEED.developShas[1] } });
    expect(api().tags.get('build-7')).toBe(SEED.developShas[1]);
    expect(toolError(await c.call('create_tag', { project_id: P, tag_name: 'build-7', ref: 'main' }))).toMatchObject({
      kind: 'validation',
      status: 400,
      message: 'Tag build-7 already exists',
    });
    expect(toolError(await c.call('create_tag', { project_id: P, tag_name: 'build-8', ref: 'no-such-branch' })).message).toBe(
      'Target no-such-branch is invalid',
    );
  });

  test('create_tag: a protected tag the caller may not create is a permission failure that names the rule', async () => {
    const result = await (await h.as(TOKENS.developer)).call('create_tag', { project_id: P, tag_name: 'v2.0.0', ref: 'main' });
    expect(toolError(result)).toMatchObject({ kind: 'permission', status: 400 });
    expect(toolError(result).message).toStartWith('You are not allowed to create this tag as it is protected.');
    expect(toolError(result).message).toContain('protected tag rule');
    expect(api().tags.has('v2.0.0')).toBe(false);
    expect(structured<Tag>(await (await h.as()).call('create_tag', { project_id: P, tag_name: 'v2.0.0', ref: 'main' })).protected).toBe(true);
  });

  test('delete_tag: a protected tag only by a Maintainer, the refusal saying so; an unprotected one by a Developer', async () => {
    const dev = await h.as(TOKENS.developer);
    const refused = await dev.call('delete_tag', { project_id: P, tag_name: 'v0.9.0' });
    expect(toolError(refused)).toMatchObject({ kind: 'permission', status: 403 });
    expect(toolError(refused).message).toBe('403 Forbidden: tag v0.9.0 is protected, and GitLab lets only Maintainers delete a protected tag');
    expect(api().tags.has('v0.9.0')).toBe(true);
    api().tags.set('scratch', SEED.headSha);
    expect(structured(await dev.call('delete_tag', { project_id: P, tag_name: 'scratch' }))).toEqual({ deleted: true, tag_name: 'scratch' });
    expect(structured(await (await h.as()).call('delete_tag', { project_id: P, tag_name: 'v0.9.0' }))).toEqual({ deleted: true, tag_name: 'v0.9.0' });
    expect(toolError(await dev.call('delete_tag', { project_id: P, tag_name: 'v0.9.0' })).kind).toBe('not_found');
  });
});

describe('releases', () => {
  test('list_releases and get_release: lean records (notes, commit, milestones, links; no archives or _links)', async () => {
    const c = await h.as();
    const page = structured<Page<Release>>(await c.call('list_releases', { project_id: P }));
    expect(page.items).toHaveLength(1);
    const release = structured<Release>(await c.call('get_release', { project_id: P, tag_name: RELEASE_SEED.releaseTag }));
    expect(release).toEqual({
      tag_name: 'v1.0.0',
      name: 'Version 1.0',
      description: 'First stable release.\n\n- SSO login\n- Rate limiter',
      commit_sha: SEED.tagSha,
      released_at: '2024-01-21T10:00:00.000Z',
      author: { id: 1, username: 'maria', name: 'Maria Rossi' },
      milestones: [{ id: 101, title: 'v1.0' }],
      links: [
        {
          id: 1,
          name: 'api-linux-amd64',
          direct_asset_path: '/bin/api-linux-amd64',
          link_type: 'package',
        },
      ],
      web_url: 'http://forge.test/acme/platform/api/-/releases/v1.0.0',
    });
    const full = structured<Record<string, unknown>>(await c.call('get_release', { project_id: P, tag_name: 'v1.0.0', full_response: true }));
    expect(full).toHaveProperty('assets.sources');
    // The permanent URL redirects to the link's url; full_response gives both (D33).
    expect(full).toHaveProperty('assets.links.0.url', 'https://downloads.forge.test/api/1.0.0/api-linux-amd64');
    expect(full).toHaveProperty('assets.links.0.direct_asset_url', 'http://forge.test/acme/platform/api/-/releases/v1.0.0/downloads/bin/api-linux-amd64');
    expect(toolError(await c.call('get_release', { project_id: P, tag_name: 'v0.9.0' })).kind).toBe('not_found');
  });

  test('create_release of a new tag at ref, with milestones and links; then update and delete (the tag stays)', async () => {
    const c = await h.as();
    const created = structured<Release>(
      await c.call('create_release', {
        project_id: P,
        tag_name: 'v1.1.0',
        ref: 'main',
        tag_message: 'Release 1.1.0',
        name: 'Version 1.1',
        description: 'Faster.',
        milestones: ['v1.1'],
        assets: { links: [{ name: 'checksums', url: 'https://downloads.forge.test/api/1.1.0/SHA256SUMS', direct_asset_path: '/SHA256SUMS' }] },
        released_at: '2099-01-01T00:00:00Z',
      }),
    );
    expect(created).toMatchObject({
      tag_name: 'v1.1.0',
      name: 'Version 1.1',
      commit_sha: SEED.headSha,
      upcoming_release: true,
      milestones: [{ title: 'v1.1' }],
    });
    expect(created.links![0]).toEqual({ id: 2, name: 'checksums', direct_asset_path: '/SHA256SUMS' });
    expect(api().tags.get('v1.1.0')).toBe(SEED.headSha);
    const updated = structured<Release>(
      await c.call('update_release', { project_id: P, tag_name: 'v1.1.0', description: 'Faster, and smaller.', milestones: [] }),
    );
    expect(updated.description).toBe('Faster, and smaller.');
    expect(updated.milestones).toBeUndefined();
    expect(h.forge.requests.at(-1)!.body).toEqual({ description: 'Faster, and smaller.', milestones: [] });
    expect(structured<Release>(await c.call('delete_release', { project_id: P, tag_name: 'v1.1.0' })).tag_name).toBe('v1.1.0');
    expect(api().tags.has('v1.1.0')).toBe(true);
  });

  test('upstream rejections: a release that exists, a new tag without ref, an unknown milestone, a guest, a missing release', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_release', { project_id: P, tag_name: 'v1.0.0' }))).toMatchObject({
      kind: 'conflict',
      status: 409,
      message: 'Release already exists',
    });
    expect(toolError(await c.call('create_release', { project_id: P, tag_name: 'v3.0.0' }))).toMatchObject({
      kind: 'validation',
      status: 422,
      message: 'Ref is not specified',
    });
    expect(toolError(await c.call('create_release', { project_id: P, tag_name: 'v0.9.0', milestones: ['v7'] }))).toMatchObject({
      status: 400,
      message: 'Milestone(s) not found: v7',
    });
    expect(toolError(await (await h.as(TOKENS.guest)).call('create_release', { project_id: P, tag_name: 'v0.9.0' })).kind).toBe('permission');
    expect(toolError(await (await h.as(TOKENS.developer)).call('delete_release', { project_id: P, tag_name: 'v1.0.0' })).kind).toBe('permission');
    expect(toolError(await c.call('update_release', { project_id: P, tag_name: 'v0.9.0', name: 'x' }))).toMatchObject({
      kind: 'not_found',
      message: 'Release does not exist',
    });
  });

  test('links and edits GitLab would refuse are refused before anything is sent', async () => {
    const c = await h.as();
    const link = (o: Record<string, unknown>) => ({ project_id: P, tag_name: 'v0.9.0', assets: { links: [{ name: 'a', url: 'https://x.test/a', ...o }] } });
    expect(toolError(await c.call('create_release', link({ url: 'javascript:alert(1)' }))).message).toStartWith(
      'assets.links.0.url: must be an http, https or ftp URL',
    );
    expect(toolError(await c.call('create_release', link({ direct_asset_path: '/bin/../../x' }))).message).toStartWith('assets.links.0.direct_asset_path:');
    const twice = {
      project_id: P,
      tag_name: 'v0.9.0',
      assets: {
        links: [
          { name: 'a', url: 'https://x.test/a' },
          { name: 'a', url: 'https://x.test/b' },
        ],
      },
    };
    expect(toolError(await c.call('create_release', twice)).message).toStartWith('assets.links.1.name: repeats');
    expect(toolError(await c.call('update_release', { project_id: P, tag_name: 'v1.0.0' })).message).toStartWith('arguments: give at least one of');
    expect(toolError(await c.call('create_release', { project_id: P, tag_name: 'v0.9.0', released_at: 'yesterday' })).message).toStartWith('released_at:');
    expect(sent()).toEqual([]);
  });
});

describe('release links', () => {
  test('list, create, delete', async () => {
    const c = await h.as(TOKENS.developer);
    const list = structured<Page<Link>>(await c.call('list_release_links', { project_id: P, tag_name: 'v1.0.0' }));
    expect(list.items.map((l) => l.name)).toEqual(['api-linux-amd64']);
    const created = structured<Link>(
      await c.call('create_release_link', { project_id: P, tag_name: 'v1.0.0', name: 'runbook', url: 'https://wiki.forge.test/runbook', link_type: 'runbook' }),
    );
    expect(created).toMatchObject({ name: 'runbook', url: 'https://wiki.forge.test/runbook', link_type: 'runbook' });
    expect(structured<Link>(await c.call('delete_release_link', { project_id: P, tag_name: 'v1.0.0', link_id: created.id }))).toEqual({
      id: created.id,
      name: 'runbook',
      url: 'https://wiki.forge.test/runbook',
      link_type: 'runbook',
    });
    expect(structured<Page<Link>>(await c.call('list_release_links', { project_id: P, tag_name: 'v1.0.0' })).items).toHaveLength(1);
  });

  test('upstream rejections: a name taken, an unknown link, an unknown release, a guest', async () => {
    const c = await h.as(TOKENS.developer);
    expect(
      toolError(await c.call('create_release_link', { project_id: P, tag_name: 'v1.0.0', name: 'api-linux-amd64', url: 'https://x.test/new' })),
    ).toMatchObject({
      kind: 'validation',
      status: 400,
      message: 'name has already been taken',
    });
    expect(toolError(await c.call('delete_release_link', { project_id: P, tag_name: 'v1.0.0', link_id: 999 })).kind).toBe('not_found');
    expect(toolError(await c.call('list_release_links', { project_id: P, tag_name: 'v0.9.0' })).kind).toBe('not_found');
    expect(
      toolError(await (await h.as(TOKENS.guest)).call('create_release_link', { project_id: P, tag_name: 'v1.0.0', name: 'z', url: 'https://x.test/z' })).kind,
    ).toBe('permission');
  });

  test('a URL GitLab would block and a bad link id are refused before anything is sent', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_release_link', { project_id: P, tag_name: 'v1.0.0', name: 'x', url: 'file:///etc/passwd' })).message).toStartWith(
      'url:',
    );
    expect(toolError(await c.call('delete_release_link', { project_id: P, tag_name: 'v1.0.0', link_id: '../1' })).message).toStartWith('link_id:');
    expect(toolError(await c.call('get_release', { project_id: P, tag_name: '../../issues' })).kind).toBe('validation');
    expect(sent()).toEqual([]);
  });
});
