// get_branch_diffs: two refs compared, files paged, diffs budgeted per file and per page, one
// file's whole diff on request.
import { describe, expect, test } from 'bun:test';
import { SEED } from '../support/fake-forge';
import { REPOSITORY_SEED } from '../support/fake-forge/seed-repository';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';
import { budgetDiffs, COMMITS_SHOWN, DIFF_FILE_BUDGET, DIFF_RESULT_BUDGET } from '../../src/tools/repository/compare';

type Diff = {
  new_path: string;
  old_path?: string;
  lines?: [number | null, number | null, string][];
  new_file?: true;
  deleted_file?: true;
  diff_truncated?: true;
  diff_omitted?: true;
  diff_bytes?: number;
};
/** The diff text of numbered rows (D43): the rows' texts joined by newlines. */
const textOf = (d: Diff) => (d.lines ?? []).map((row) => row[2]).join('\n');
type Compared = {
  commit?: { id: string };
  commits: { id: string; title: string }[];
  commits_total?: number;
  commits_note?: string;
  diffs: Diff[];
  note?: string;
  compare_same_ref?: true;
  web_url: string;
  pagination: { page: number; per_page: number; next_page: number | null; total: number; total_pages: number };
};

const P = SEED.project;
const h = useHarness({ FORGE_TOOLSETS: 'repository' });

/** A branch `big` off main whose commit rewrites `count` files of `lines` lines each. */
async function bigBranch(count: number, lines: number): Promise<void> {
  const c = await h.as();
  const files = Array.from({ length: count }, (_, i) => ({
    file_path: `gen/file-${String(i).padStart(2, '0')}.txt`,
    content: `${Array.from({ length: lines }, (_, n) => `file ${i} line ${n} ${'y'.repeat(40)}`).join('\n')}\n`,
  }));
  structured(await c.call('push_files', { project_id: P, branch: 'big', start_branch: 'main', commit_message: 'Generate files', files }));
  h.forge.requests.length = 0;
}

describe('get_branch_diffs', () => {
  test("main...feature/login: the branch's commits (lean) and its changed file, with one compare request", async () => {
    const r = structured<Compared>(await (await h.as()).call('get_branch_diffs', { project_id: SEED.projectPath, from: 'main', to: 'feature/login' }));
    expect(r.commits.map((c) => c.id)).toEqual([...SEED.featureShas]);
    expect(r.commit).toBeUndefined(); // GitLab's `commit` repeats the last of `commits`: not sent twice
    expect(r.diffs).toHaveLength(1);
    expect(r.diffs[0]).toMatchObject({ new_path: REPOSITORY_SEED.featureFile, new_file: true });
    expect(textOf(r.diffs[0])).toContain('+export function login(user: string) {');
    expect(r.pagination).toEqual({ page: 1, per_page: 20, next_page: null, total: 1, total_pages: 1 });
    expect(r.note).toBeUndefined();
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/repository/compare`]);
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({ from: 'main', to: 'feature/login' });
  });

  test('straight compares the two trees directly', async () => {
    const r = structured<Compared>(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'feature/login', to: 'develop', straight: true }));
    const paths = r.diffs.map((d) => d.new_path).sort();
    // develop lacks the feature's file and has its own.
    expect(paths).toEqual([REPOSITORY_SEED.featureFile, REPOSITORY_SEED.developFile].sort());
    expect(h.forge.requests[0].query.get('straight')).toBe('true');
  });

  test('an unknown ref is not_found (GitLab: 404 Ref Not Found)', async () => {
    expect(toolError(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'main', to: 'nope' }))).toMatchObject({
      kind: 'not_found',
      status: 404,
      message: '404 Ref Not Found',
    });
  });

  test('large diffs: each over the per-file budget is cut at a line, past the page budget left out, all with their size', async () => {
    await bigBranch(5, 600); // ~37 KB of diff per file
    const r = structured<Compared>(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'main', to: 'big' }));
    expect(r.diffs).toHaveLength(5);
    const [first, second, third] = r.diffs;
    expect(first.diff_truncated).toBe(true);
    expect(first.diff_bytes).toBeGreaterThan(DIFF_FILE_BUDGET);
    expect(textOf(first).length).toBeLessThanOrEqual(DIFF_FILE_BUDGET);
    // Cut after a whole line.
    expect(first.lines!.at(-1)![2]).toMatch(/^\+file 0 line \d+ y{40}$/);
    expect(second.diff_truncated).toBe(true);
    expect(third.diff_truncated).toBe(true);
    const shown = r.diffs.reduce((n, d) => n + textOf(d).length, 0);
    expect(shown).toBeLessThanOrEqual(DIFF_RESULT_BUDGET);
    expect(r.diffs.at(-1)).toMatchObject({ diff_omitted: true });
    expect(r.diffs.at(-1)!.lines).toBeUndefined();
    expect(r.note).toContain('file_path');
  });

  test("file_path returns that file's whole diff", async () => {
    await bigBranch(2, 600);
    const r = structured<Compared>(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'main', to: 'big', file_path: 'gen/file-01.txt' }));
    expect(r.diffs).toHaveLength(1);
    expect(r.diffs[0].diff_truncated).toBeUndefined();
    expect(r.diffs[0].lines!.filter((row) => row[2].startsWith('+'))).toHaveLength(600);
    expect(toolError(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'main', to: 'big', file_path: 'README.md' }))).toMatchObject({
      kind: 'not_found',
      message: 'file_path: README.md did not change between main and big',
    });
  });

  test('files are paged', async () => {
    await bigBranch(3, 2);
    const c = await h.as();
    const one = structured<Compared>(await c.call('get_branch_diffs', { project_id: P, from: 'main', to: 'big', per_page: 2 }));
    expect(one.diffs.map((d) => d.new_path)).toEqual(['gen/file-00.txt', 'gen/file-01.txt']);
    expect(one.pagination).toEqual({ page: 1, per_page: 2, next_page: 2, total: 3, total_pages: 2 });
    const two = structured<Compared>(await c.call('get_branch_diffs', { project_id: P, from: 'main', to: 'big', per_page: 2, page: 2 }));
    expect(two.diffs.map((d) => d.new_path)).toEqual(['gen/file-02.txt']);
    expect(two.pagination.next_page).toBeNull();
  });

  test(`at most ${COMMITS_SHOWN} commits are listed, with the total and where to find the rest`, async () => {
    const r = structured<Compared>(
      await (await h.as()).call('get_branch_diffs', { project_id: P, from: SEED.rootSha, to: 'main', straight: true, per_page: 1 }),
    );
    expect(r.commits).toHaveLength(30);
    const many = Array.from({ length: 60 }, (_, i) => ({ id: String(i) }));
    // The fake's history is shorter than the cap: check the cap on the forge's answer shape directly.
    h.forge.failNext({
      pathIncludes: '/repository/compare',
      status: 200,
      body: { commit: null, commits: many, diffs: [], compare_timeout: false, compare_same_ref: false, web_url: 'x' },
    });
    const capped = structured<Compared>(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'a', to: 'b' }));
    expect(capped.commits).toHaveLength(COMMITS_SHOWN);
    expect(capped.commits_total).toBe(60);
    expect(capped.commits_note).toContain('list_commits with ref_name a..b');
    expect(capped.commit).toEqual({ id: '59' });
  });

  test(`over ${COMMITS_SHOWN} commits: the first ones, how many there were, and the head of \`to\` as commit, within the result bound`, async () => {
    const c = await h.as();
    // One commit a minute, so the fake's history orders them as they were pushed.
    let now = Date.UTC(2024, 5, 1);
    h.forge.model.clock = () => new Date((now += 60_000));
    const steps = COMMITS_SHOWN + 5;
    for (let i = 0; i < steps; i++) {
      // ~37 KB of diff per commit, so the diff budgets are full too.
      const content = `${Array.from({ length: 600 }, (_, n) => `step ${i} line ${n} ${'z'.repeat(40)}`).join('\n')}\n`;
      structured(
        await c.call('push_files', {
          project_id: P,
          branch: 'long',
          ...(i === 0 ? { start_branch: 'main' } : {}),
          commit_message: `Step ${i}`,
          files: [{ file_path: `steps/${i}.txt`, content }],
        }),
      );
    }
    const head = h.forge.model.projects.get(P)!.branches.get('long')!;
    const result = await c.call('get_branch_diffs', { project_id: P, from: 'main', to: 'long' });
    const r = structured<Compared & { truncated?: true }>(result);
    expect(r.commits.map((x) => x.title)).toEqual(Array.from({ length: COMMITS_SHOWN }, (_, i) => `Step ${i}`));
    expect(r.commits.some((x) => x.id === head)).toBe(false);
    expect(r.commit).toMatchObject({ id: head, title: `Step ${steps - 1}` });
    expect(r.commits_total).toBe(steps);
    expect(r.commits_note).toBe(
      `first ${COMMITS_SHOWN} of ${steps} commits shown, oldest first; commit is the last, the head of long; list_commits with ref_name main..long lists them all`,
    );
    expect(r.note).toContain('file_path');
    expect(r.truncated).toBeUndefined();
    expect(Buffer.byteLength((result.content as { text: string }[])[0].text)).toBeLessThan(100_000);
  });

  test.each([
    [{ from: '..' }, 'from: '],
    [{ to: 'a/../b' }, 'to: '],
    [{ file_path: '../x' }, 'file_path: '],
    [{ file_path: '%2e%2e/x' }, 'file_path: '],
    [{ per_page: 101 }, 'per_page: '],
  ])('%p is refused before any request', async (args, message) => {
    const error = toolError(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'main', to: 'develop', ...args }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });

  test('a forge answer that is not a comparison is upstream', async () => {
    h.forge.failNext({ pathIncludes: '/repository/compare', status: 200, body: [1, 2] });
    expect(toolError(await (await h.as()).call('get_branch_diffs', { project_id: P, from: 'main', to: 'develop' })).kind).toBe('upstream');
  });
});

describe('budgetDiffs', () => {
  test('small diffs pass untouched; the budgets are counted as JSON bytes', () => {
    const small = [{ new_path: 'a', diff: '+x\n' }];
    expect(budgetDiffs(small)).toEqual({ diffs: small, cut: false });
    const quoted = '"'.repeat(600);
    const { diffs } = budgetDiffs([{ new_path: 'q', diff: quoted }], 1000, 10_000);
    expect(diffs[0]).toMatchObject({ diff_truncated: true, diff_bytes: 1200 });
    expect(JSON.stringify(diffs[0].diff).length - 2).toBeLessThanOrEqual(1000);
  });
});
