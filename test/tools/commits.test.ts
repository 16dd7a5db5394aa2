// Commit tools: history with filters, one commit, its diff (one page or all), and blame.
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness();
const P = String(SEED.project);
type Page<T> = {
  items: T[];
  pagination: { page: number | null; per_page: number | null; next_page: number | null; total: number | null; total_pages: number | null };
};
type Commit = { id: string; committed_date: string; stats?: unknown; trailers?: Record<string, string> };

describe('list_commits', () => {
  test('defaults to the default branch, newest first, paginated', async () => {
    const c = await h.as();
    const page = structured<Page<Commit>>(await c.call('list_commits', { project_id: SEED.projectPath, per_page: 5 }));
    expect(page.items[0].id).toBe(SEED.headSha);
    expect(page.items).toHaveLength(5);
    expect(page.pagination.next_page).toBe(2);
  });

  test('passes every filter to the forge under its own name', async () => {
    const c = await h.as();
    const args = {
      project_id: P,
      ref_name: 'develop',
      since: '2020-01-01T00:00:00Z',
      until: '2030-01-01T00:00:00Z',
      path: 'src/app.ts',
      author: 'a',
      all: false,
      with_stats: true,
      first_parent: true,
      order: 'topo',
      trailers: true,
      page: 1,
      per_page: 3,
    };
    structured(await c.call('list_commits', args));
    const q = h.forge.requests[0].query;
    expect(Object.fromEntries(q)).toEqual({
      ref_name: 'develop',
      since: '2020-01-01T00:00:00Z',
      until: '2030-01-01T00:00:00Z',
      path: 'src/app.ts',
      author: 'a',
      all: 'false',
      with_stats: 'true',
      first_parent: 'true',
      order: 'topo',
      trailers: 'true',
      page: '1',
      per_page: '3',
    });
  });

  test('since/until select an inclusive window', async () => {
    const c = await h.as();
    const all = structured<Page<Commit>>(await c.call('list_commits', { project_id: P, per_page: 100 })).items;
    const [newest, , third] = all;
    const page = structured<Page<Commit>>(
      await c.call('list_commits', { project_id: P, since: third.committed_date.replace('.000', ''), until: newest.committed_date.replace('.000', '') }),
    );
    expect(page.items.map((x) => x.id)).toEqual(all.slice(0, 3).map((x) => x.id));
  });

  test('a date alone is accepted as midnight UTC, as GitLab reads it (D32)', async () => {
    const c = await h.as();
    const page = structured<Page<Commit>>(await c.call('list_commits', { project_id: P, since: '2024-01-29', until: '2024-01-30', per_page: 100 }));
    expect(h.forge.requests[0].query.get('since')).toBe('2024-01-29');
    // Main commit i is committed on 2024-01-(1+i) at 09:00 UTC: only the 29th's lies between the two midnights.
    expect(page.items.map((x) => x.committed_date.slice(0, 10))).toEqual(['2024-01-29']);
  });

  test.each([
    [{ since: '2026-02-30' }, 'since: must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z, or a date such as 2026-01-31 (midnight UTC)'],
    [{ until: '2026-02-30T10:00:00Z' }, 'until: must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z, or a date such as 2026-01-31 (midnight UTC)'],
    [{ since: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' }, 'until: must not be before since'],
    [{ order: 'random' }, 'order: must be one of default, topo'],
  ])('refuses %p before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('list_commits', { project_id: P, ...args }))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });

  test('an unknown ref → not_found', async () => {
    expect(toolError(await (await h.as()).call('list_commits', { project_id: P, ref_name: 'nope' })).kind).toBe('not_found');
  });
});

describe('get_commit', () => {
  test('by SHA, with stats by default', async () => {
    const c = await h.as();
    const commit = structured<Commit>(await c.call('get_commit', { project_id: P, sha: SEED.headSha }));
    expect(commit.id).toBe(SEED.headSha);
    expect(commit.stats).toBeDefined();
  });

  test('by branch name with a slash; stats:false is passed on', async () => {
    const c = await h.as();
    const commit = structured<Commit>(await c.call('get_commit', { project_id: P, sha: SEED.featureBranch, stats: false }));
    expect(commit.id).toBe(SEED.featureShas.at(-1)!);
    expect(h.forge.requests[0].path).toEndWith('/repository/commits/feature%2Flogin');
    expect(h.forge.requests[0].query.get('stats')).toBe('false');
  });

  test("an unknown commit → not_found with GitLab's message", async () => {
    expect(toolError(await (await h.as()).call('get_commit', { project_id: P, sha: 'deadbeef' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Commit Not Found',
    });
  });
});

describe('get_commit_diff', () => {
  test('returns only the first page by default', async () => {
    const c = await h.as();
    const diff = structured<Page<{ new_path: string }>>(await c.call('get_commit_diff', { project_id: P, sha: SEED.diffSha }));
    expect(diff.items).toHaveLength(20);
    expect(diff.pagination.total).toBe(SEED.diffFileCount);
    expect(diff.pagination.next_page).toBe(2);
  });

  test('full_diff walks every page', async () => {
    const c = await h.as();
    const diff = structured<Page<{ new_path: string }>>(await c.call('get_commit_diff', { project_id: P, sha: SEED.diffSha, full_diff: true }));
    expect(diff.items).toHaveLength(SEED.diffFileCount);
    expect(new Set(diff.items.map((f) => f.new_path)).size).toBe(SEED.diffFileCount);
    expect(diff.pagination.next_page).toBeNull();
  });

  test('a file GitLab left without its diff says why: too_large or collapsed', async () => {
    const commit = h.forge.model.projects.get(SEED.project)!.commits.get(SEED.headSha)!;
    const saved = commit.diffs;
    commit.diffs = [
      { ...saved[0], new_path: 'big.sql', old_path: 'big.sql', diff: '', too_large: true },
      { ...saved[0], new_path: 'folded.txt', old_path: 'folded.txt', diff: '', collapsed: true },
    ];
    try {
      const diff = structured<Page<Record<string, unknown>>>(await (await h.as()).call('get_commit_diff', { project_id: P, sha: SEED.headSha }));
      expect(diff.items.map((f) => [f.new_path, f.too_large, f.collapsed])).toEqual([
        ['big.sql', true, undefined],
        ['folded.txt', undefined, true],
      ]);
    } finally {
      commit.diffs = saved;
    }
  });

  test('an unknown commit → not_found', async () => {
    expect(toolError(await (await h.as()).call('get_commit_diff', { project_id: P, sha: 'f'.repeat(40) })).kind).toBe('not_found');
  });
});

describe('get_file_blame', () => {
  type Blame = { commit: { id: string }; lines: string[] };

  test('blames a whole file (path encoded as one segment)', async () => {
    const c = await h.as();
    const blame = structured<Page<Blame>>(await c.call('get_file_blame', { project_id: P, file_path: SEED.blameFile, ref: 'main' }));
    expect(blame.items.map((b) => b.commit.id)).toEqual([...SEED.blameShas]);
    expect(h.forge.requests[0].path).toEndWith('/repository/files/src%2Fapp.ts/blame');
  });

  test('a 1-based inclusive range reaches the forge as range[start]/range[end]', async () => {
    const c = await h.as();
    const blame = structured<Page<Blame>>(
      await c.call('get_file_blame', { project_id: P, file_path: SEED.blameFile, ref: 'main', range_start: 4, range_end: 5 }),
    );
    expect(blame.items.map((b) => b.lines.length)).toEqual([1, 1]);
    expect(h.forge.requests[0].query.get('range[start]')).toBe('4');
    expect(h.forge.requests[0].query.get('range[end]')).toBe('5');
  });

  test.each([
    [{ range_start: 2 }, 'range_end: is required when range_start is given'],
    [{ range_end: 2 }, 'range_start: is required when range_end is given'],
    [{ range_start: 5, range_end: 2 }, 'range_end: must not be before range_start'],
    [{ range_start: 0, range_end: 2 }, 'range_start: must be a line number, 1 or more'],
  ])('refuses %p before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('get_file_blame', { project_id: P, file_path: SEED.blameFile, ref: 'main', ...args }))).toEqual({
      kind: 'validation',
      status: null,
      message,
    });
    expect(h.upstream()).toEqual([]);
  });

  test("a range past the end of the file → the forge's validation error", async () => {
    const error = toolError(
      await (await h.as()).call('get_file_blame', { project_id: P, file_path: SEED.blameFile, ref: 'main', range_start: 1, range_end: 500 }),
    );
    expect(error.kind).toBe('validation');
    expect(error.status).toBe(400);
  });

  test('a missing file → not_found; a missing ref parameter → validation', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_file_blame', { project_id: P, file_path: 'nope.txt', ref: 'main' })).kind).toBe('not_found');
    expect(toolError(await c.call('get_file_blame', { project_id: P, file_path: SEED.blameFile })).message).toBe('ref: is required');
  });

  test('a guest can read', async () => {
    const c = await h.as(TOKENS.guest);
    expect(structured<Page<Blame>>(await c.call('get_file_blame', { project_id: P, file_path: SEED.nestedFile, ref: 'main' })).items.length).toBeGreaterThan(0);
  });
});

// GitLab does not count commits (lib/api/commits.rb: exclude_total_headers, without_count): no totals,
// and a full page promises a next one that may be empty.
describe('list_commits pagination says only what GitLab said', () => {
  test('no total, no total_pages; a full last page points at an empty one, which ends the walk', async () => {
    const c = await h.as();
    const first = structured<Page<Commit>>(await c.call('list_commits', { project_id: P, per_page: 31 }));
    expect(first.pagination).toEqual({ page: 1, per_page: 31, next_page: 2, total: null, total_pages: null });
    const second = structured<Page<Commit>>(await c.call('list_commits', { project_id: P, per_page: 31, page: 2 }));
    expect([second.items, second.pagination.next_page, second.pagination.total]).toEqual([[], null, null]);
  });
});
