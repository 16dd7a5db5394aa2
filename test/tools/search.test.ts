// The search group (issue 36): GitLab's search at three levels, code search's lean hits, and the
// scopes an instance without advanced search refuses, per edition of the fake forge.
import { describe, expect, test } from 'bun:test';
import { EDITIONS, SEED } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'search' });
type Page<T> = { items: T[]; pagination: { total: number } };
type Hit = { project_id: number; path: string; ref: string; startline: number; lines: Record<string, string> };

describe('search_code', () => {
  test('in a project: each hit is the path, ref, start line and the matching lines by number', async () => {
    const c = await h.as();
    const page = structured<Page<Hit>>(await c.call('search_code', { project_id: SEED.projectPath, search: 'server' }));
    expect(page.items[0]).toEqual({
      project_id: SEED.project,
      path: 'src/app.ts',
      ref: 'main',
      startline: 1,
      // Lines 1-10 are one chunk of GitLab's (its matches and their context); only the matching ones are kept.
      lines: {
        1: "import { serve } from './server';",
        6: '  const server = serve({ port });',
        7: "  server.on('error', (err) => {",
        8: "    console.error('server error', err);",
        10: '  return server;',
      },
    });
    expect(h.upstream()).toEqual(['GET /api/v4/projects/acme%2Fplatform%2Fapi/search']);
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({ scope: 'blobs', search: 'server' });
    // full_response: GitLab's hits as they came.
    const full = structured<Page<Record<string, unknown>>>(await c.call('search_code', { project_id: SEED.project, search: 'server', full_response: true }));
    expect(full.items[0]).toMatchObject({ basename: 'src/app', filename: 'src/app.ts', startline: 1, data: expect.stringContaining('serve') });
  });

  test("at a ref; GitLab's own syntax is passed on and the lines still come", async () => {
    const c = await h.as();
    const page = structured<Page<Hit>>(await c.call('search_code', { project_id: SEED.project, search: 'login filename:*.ts', ref: SEED.featureBranch }));
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toEqual({ scope: 'blobs', search: 'login filename:*.ts', ref: SEED.featureBranch });
    expect(page.items).toEqual([]);
    const plain = structured<Page<Hit>>(await c.call('search_code', { project_id: SEED.project, search: 'login', ref: SEED.featureBranch }));
    expect(plain.items.map((hit) => [hit.path, hit.ref])).toEqual([['src/auth/login.ts', SEED.featureBranch]]);
  });

  describe.each(EDITIONS)('across a group or everywhere (%s)', (edition) => {
    const advanced = edition === 'gitlab.com';
    test(advanced ? 'answers: the fake plays advanced search there' : 'is refused as a validation error naming the scope and the remedy', async () => {
      h.forge.model.edition = edition;
      const c = await h.as();
      for (const where of [{ group_id: 'acme' }, {}]) {
        const result = await c.call('search_code', { search: 'server', ...where });
        if (advanced) {
          expect(structured<Page<Hit>>(result).items.map((hit) => hit.path)).toContain('src/app.ts');
          continue;
        }
        const error = toolError(result);
        expect([error.kind, error.status]).toEqual(['validation', 400]);
        const across = 'group_id' in where ? 'a group' : 'the whole instance';
        const answered = edition === 'ce' ? 'scope does not have a valid value' : 'Scope supported only with advanced search or exact code search';
        expect(error.message).toBe(
          `scope: blobs across ${across} needs GitLab's advanced search or exact code search, which this GitLab does not have (it answered: ${answered}); search one project instead (project_id), which every GitLab answers`,
        );
      }
    });
  });
});

describe('search', () => {
  test('issues in a project, lean, with state and confidential', async () => {
    const c = await h.as();
    const page = structured<Page<{ iid: number; title: string }>>(
      await c.call('search', { scope: 'issues', search: 'crash', project_id: SEED.project, state: 'closed' }),
    );
    expect(page.items.map((i) => [i.iid, i.title])).toEqual([[4, 'Old crash on start']]);
    expect(page.items[0]).not.toHaveProperty('_links');
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toEqual({ scope: 'issues', search: 'crash', state: 'closed' });
  });

  test('projects everywhere and in a group, users, milestones and commits in a project', async () => {
    const c = await h.as();
    const paths = structured<Page<{ path_with_namespace: string }>>(await c.call('search', { scope: 'projects', search: 'api' })).items.map(
      (p) => p.path_with_namespace,
    );
    expect(paths).toEqual(['acme/platform/api', 'dev/api']);
    expect(
      structured<Page<{ path_with_namespace: string }>>(await c.call('search', { scope: 'projects', search: 'secret', group_id: 'acme' })).items.map(
        (p) => p.path_with_namespace,
      ),
    ).toEqual(['acme/secret']);
    expect(structured<Page<Record<string, unknown>>>(await c.call('search', { scope: 'users', search: 'dev', project_id: SEED.project })).items).toEqual([
      { id: 2, username: 'dev', name: 'Devon Park' },
    ]);
    expect(
      structured<Page<{ title: string }>>(await c.call('search', { scope: 'milestones', search: 'v1', project_id: SEED.project })).items.map((m) => m.title),
    ).toEqual(['v1.0', 'v1.1']);
    const commits = structured<Page<{ id: string; title: string }>>(await c.call('search', { scope: 'commits', search: 'graceful', project_id: SEED.project }));
    expect(commits.items.map((x) => x.title)).toEqual(['Add graceful shutdown']);
    expect(Object.keys(commits.items[0])).not.toContain('committer_email');
  });

  test.each(['blobs', 'commits', 'wiki_blobs', 'notes'])('%s across a group without advanced search: refused, named, with the remedy', async (scope) => {
    h.forge.model.edition = 'ee-premium';
    const error = toolError(await (await h.as()).call('search', { scope, search: 'x', group_id: 'acme' }));
    const needs = scope === 'blobs' ? 'advanced search or exact code search' : 'advanced search';
    expect([error.kind, error.message]).toEqual([
      'validation',
      `scope: ${scope} across a group needs GitLab's ${needs}, which this GitLab does not have (it answered: Scope supported only with ${needs}); search one project instead (project_id), which every GitLab answers`,
    ]);
  });

  test('scopes a level does not have are refused before the network', async () => {
    const c = await h.as();
    const cases: [Record<string, unknown>, string][] = [
      [
        { scope: 'projects', search: 'x', project_id: SEED.project },
        'scope: projects is not searched within a project; search it without project_id and group_id or with group_id',
      ],
      [
        { scope: 'snippet_titles', search: 'x', group_id: 'acme' },
        'scope: snippet_titles is not searched within a group; search it without project_id and group_id',
      ],
      [{ scope: 'issues', search: 'x', project_id: SEED.project, group_id: 'acme' }, 'group_id: give project_id or group_id, not both'],
      [{ scope: 'commits', search: 'x', ref: 'main' }, 'ref: is taken only with project_id (a group or the instance searches default branches)'],
      [{ scope: 'epics', search: 'x' }, 'scope: '],
    ];
    for (const [args, message] of cases) expect(toolError(await c.call('search', args)).message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });

  test('hostile terms: empty, blank, 1 MB and control characters are refused; search syntax and unicode go to GitLab as they are', async () => {
    const c = await h.as();
    for (const [search, message] of [
      ['', 'search: '],
      ['   ', 'search: must not be blank'],
      ['x'.repeat(1024 * 1024), 'search: '],
      ['a\u0000b', 'search: must not contain control characters'],
      ['a\u001bb', 'search: must not contain control characters'],
    ] as const) {
      const error = toolError(await c.call('search', { scope: 'issues', search, project_id: SEED.project }));
      expect([error.kind, error.message.startsWith(message)]).toEqual(['validation', true]);
    }
    expect(h.upstream()).toEqual([]);
    for (const search of ['"exact phrase" -excluded | other*', 'bug~2 +(auth)', 'café ☕ 日本語', 'a\tb']) {
      structured(await c.call('search', { scope: 'issues', search, project_id: SEED.project }));
      expect(h.forge.requests.at(-1)!.query.get('search')).toBe(search);
    }
  });
});
