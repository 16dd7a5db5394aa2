// Branch tools through an MCP client against the fake forge: success and upstream rejection.
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness();
const P = String(SEED.project);

describe('create_branch', () => {
  test('creates from an explicit ref', async () => {
    const c = await h.as();
    const branch = structured<{ name: string; commit: { id: string } }>(await c.call('create_branch', { project_id: P, branch: 'fix/typo', ref: 'develop' }));
    expect(branch.name).toBe('fix/typo');
    expect(branch.commit.id).toBe(SEED.developShas.at(-1)!);
    expect(h.forge.model.findProject(P)!.branches.has('fix/typo')).toBe(true);
  });

  test("without ref it branches from the project's default branch", async () => {
    const c = await h.as();
    const branch = structured<{ commit: { id: string } }>(await c.call('create_branch', { project_id: SEED.projectPath, branch: 'from-default' }));
    expect(branch.commit.id).toBe(SEED.headSha);
    const post = h.forge.requests.find((r) => r.method === 'POST')!;
    expect(post.path).toBe(`/api/v4/projects/${SEED.projectPathEncoded}/repository/branches`);
    expect(post.body).toEqual({ branch: 'from-default', ref: 'main' });
  });

  test.each([
    ['an existing branch', { branch: 'develop', ref: 'main' }, 'validation', 400, 'Branch already exists'],
    ['an unknown ref', { branch: 'x', ref: 'no-such-ref' }, 'validation', 400, 'Invalid reference name: no-such-ref'],
    ['an invalid name', { branch: 'bad name', ref: 'main' }, 'validation', 400, 'Branch name is invalid'],
  ])('refuses %s', async (_, args, kind, status, message) => {
    const c = await h.as();
    const error = toolError(await c.call('create_branch', { project_id: P, ...args }));
    expect(error).toEqual({ kind, status, message });
  });

  test('a guest gets permission', async () => {
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('create_branch', { project_id: P, branch: 'g', ref: 'main' })).kind).toBe('permission');
  });

  test('a missing project gets not_found', async () => {
    const c = await h.as();
    const error = toolError(await c.call('create_branch', { project_id: 'acme/nothing', branch: 'g', ref: 'main' }));
    expect(error).toEqual({ kind: 'not_found', status: 404, message: '404 Project Not Found' });
  });
});

describe('get_branch', () => {
  test('a branch with a slash, by project path: encoded once in the URL', async () => {
    const c = await h.as();
    const branch = structured<{ name: string; protected: boolean; default: boolean }>(
      await c.call('get_branch', { project_id: SEED.projectPath, branch_name: SEED.featureBranch }),
    );
    expect(branch.name).toBe('feature/login');
    expect(branch.default).toBe(false);
    expect(h.upstream()).toEqual([`GET /api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/feature%2Flogin`]);
  });

  test('already-encoded identifiers are not encoded twice', async () => {
    const c = await h.as();
    structured(await c.call('get_branch', { project_id: SEED.projectPathEncoded, branch_name: 'feature%2Flogin' }));
    expect(h.upstream()).toEqual([`GET /api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/feature%2Flogin`]);
  });

  test('main is protected and the default', async () => {
    const c = await h.as();
    const branch = structured<{ protected: boolean; default: boolean }>(await c.call('get_branch', { project_id: P, branch_name: 'main' }));
    expect(branch).toMatchObject({ protected: true, default: true });
  });

  test('an unknown branch → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_branch', { project_id: P, branch_name: 'nope' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Branch Not Found',
    });
  });

  test('a project the caller cannot see → not_found (GitLab hides it)', async () => {
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('get_branch', { project_id: String(SEED.privateProject), branch_name: 'main' })).kind).toBe('not_found');
  });
});

describe('list_branches', () => {
  test("returns one page with the pagination object from GitLab's headers", async () => {
    const c = await h.as();
    const result = structured<{ items: { name: string }[]; pagination: Record<string, number | null> }>(
      await c.call('list_branches', { project_id: P, per_page: 10, page: 2 }),
    );
    expect(result.items).toHaveLength(10);
    expect(result.pagination).toEqual({ page: 2, per_page: 10, next_page: 3, total: SEED.branchCount, total_pages: 3 });
  });

  test('search filters by name', async () => {
    const c = await h.as();
    const result = structured<{ items: { name: string }[] }>(await c.call('list_branches', { project_id: P, search: '^feature' }));
    expect(result.items.map((b) => b.name)).toEqual(['feature/login']);
    expect(h.forge.requests[0].query.get('search')).toBe('^feature');
  });

  test('per_page above 100 is refused before any upstream call', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_branches', { project_id: P, per_page: 101 }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'per_page: must be an integer from 1 to 100',
    });
    expect(h.upstream()).toEqual([]);
  });

  test('an unknown project → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_branches', { project_id: '999' })).kind).toBe('not_found');
  });
});

describe('delete_branch', () => {
  test('deletes a branch', async () => {
    const c = await h.as();
    expect(structured(await c.call('delete_branch', { project_id: P, branch_name: 'topic-01' }))).toEqual({ deleted: true, branch_name: 'topic-01' });
    expect(h.forge.model.findProject(P)!.branches.has('topic-01')).toBe(false);
  });

  test('the forge refuses a protected branch, and nothing is deleted', async () => {
    const c = await h.as();
    const error = toolError(await c.call('delete_branch', { project_id: P, branch_name: 'main' }));
    expect(error.kind).toBe('validation');
    expect(error.status).toBe(400);
    expect(h.forge.model.findProject(P)!.branches.has('main')).toBe(true);
  });

  test('a missing branch → not_found; a guest → permission', async () => {
    expect(toolError(await (await h.as()).call('delete_branch', { project_id: P, branch_name: 'gone' })).kind).toBe('not_found');
    expect(toolError(await (await h.as(TOKENS.guest)).call('delete_branch', { project_id: P, branch_name: 'topic-02' })).kind).toBe('permission');
  });
});

describe('update_default_branch', () => {
  test('sets the default branch and returns a slim project', async () => {
    const c = await h.as();
    const project = structured(await c.call('update_default_branch', { project_id: P, default_branch: 'develop' }));
    expect(project).toEqual({ id: SEED.project, path_with_namespace: SEED.projectPath, default_branch: 'develop', web_url: expect.any(String) });
    expect(h.forge.model.findProject(P)!.default_branch).toBe('develop');
  });

  test('an unknown branch → validation; a developer → permission', async () => {
    expect(toolError(await (await h.as()).call('update_default_branch', { project_id: P, default_branch: 'nope' })).kind).toBe('validation');
    expect(toolError(await (await h.as(TOKENS.developer)).call('update_default_branch', { project_id: P, default_branch: 'develop' })).kind).toBe('permission');
    expect(h.forge.model.findProject(P)!.default_branch).toBe('main');
  });
});
