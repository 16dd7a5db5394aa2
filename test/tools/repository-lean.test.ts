// Lean records of the repository group (D33) and untrusted text in files and diffs (D36).
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { connect, MCP_URL, structured } from '../support/mcp-client';
import { RECORD_KINDS } from '../../src/tools/lean';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
const P = SEED.project;

describe('lean projections', () => {
  test('file: the ids that guard a write and the text; the ref head, hash and encoding dropped', () => {
    const lean = RECORD_KINDS.file.lean({
      file_path: 'a.ts',
      ref: 'main',
      size: 3,
      blob_id: 'b'.repeat(40),
      commit_id: 'c'.repeat(40),
      last_commit_id: 'd'.repeat(40),
      content_sha256: 'e'.repeat(64),
      execute_filemode: false,
      encoding: 'text',
      start_line: 1,
      end_line: 1,
      total_lines: 1,
      content: 'x\n',
    });
    expect(lean).toEqual({
      file_path: 'a.ts',
      ref: 'main',
      size: 3,
      blob_id: 'b'.repeat(40),
      last_commit_id: 'd'.repeat(40),
      start_line: 1,
      end_line: 1,
      total_lines: 1,
      content: 'x\n',
    });
  });

  test('tree_entry: path and type; the mode only when it says more than file or directory', () => {
    expect(RECORD_KINDS.tree_entry.lean({ id: 'a'.repeat(40), name: 'x.ts', type: 'blob', path: 'src/x.ts', mode: '100644' })).toEqual({
      path: 'src/x.ts',
      type: 'blob',
    });
    expect(RECORD_KINDS.tree_entry.lean({ id: 'a'.repeat(40), name: 'run', type: 'blob', path: 'bin/run', mode: '100755' })).toEqual({
      path: 'bin/run',
      type: 'blob',
      mode: '100755',
    });
  });

  test("compare: lean commits and diffs, the budget markers kept; GitLab's repeated last commit dropped", () => {
    const lean = RECORD_KINDS.compare.lean({
      commit: { id: '1', title: 't', message: 't\n', author_email: 'a@b', web_url: 'u' },
      commits: [{ id: '1', title: 't', message: 't\n', author_email: 'a@b' }],
      diffs: [
        {
          old_path: 'a',
          new_path: 'a',
          a_mode: '100644',
          b_mode: '100644',
          new_file: false,
          renamed_file: false,
          deleted_file: false,
          diff_omitted: true,
          diff_bytes: 9,
        },
      ],
      compare_timeout: false,
      compare_same_ref: false,
      web_url: 'w',
      pagination: { page: 1 },
    });
    expect(lean).toEqual({
      commits: [{ id: '1', title: 't' }],
      diffs: [{ new_path: 'a', diff_omitted: true, diff_bytes: 9 }],
      web_url: 'w',
      pagination: { page: 1 },
    });
  });

  test('compare: the head commit kept where the list does not end with it (a cut list)', () => {
    const lean = RECORD_KINDS.compare.lean({
      commit: { id: '3', title: 'head', message: 'head\n' },
      commits: [
        { id: '1', title: 'one', message: 'one\n' },
        { id: '2', title: 'two', message: 'two\n' },
      ],
      commits_total: 3,
    });
    expect(lean).toEqual({
      commit: { id: '3', title: 'head' },
      commits: [
        { id: '1', title: 'one' },
        { id: '2', title: 'two' },
      ],
      commits_total: 3,
    });
  });
});

describe('untrusted text in files (D36), on the modern lane', () => {
  // A read-edit-write round trip must not change a file: code comes back exact, and where it holds
  // invisible or bidirectional characters the record says so (count, lines, code points).
  test('file content, diffs and blame come back exact, with the invisible characters reported; HTML comments in code stay', async () => {
    const text = 'const ok\u200B = true; // \u202Eevil\n<!-- kept: code, not prose -->\nconst isAdmin = false;\u2066 // \u2069\n';
    const pushed = structured<{ id: string }>(
      await (await h.as()).call('push_files', {
        project_id: P,
        branch: 'hidden',
        start_branch: 'main',
        commit_message: 'Add',
        files: [{ file_path: 'h.ts', content: text }],
      }),
    );
    const c = await connect(h.app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane: 'modern' });
    try {
      const lean = structured<{ content: string; invisible_characters: unknown }>(
        await c.call('get_file_contents', { project_id: P, file_path: 'h.ts', ref: 'hidden' }),
      );
      expect(lean.content).toBe(text);
      expect(lean.invisible_characters).toEqual({ count: 4, lines: [1, 3], characters: ['U+200B', 'U+202E', 'U+2066', 'U+2069'] });
      const window = structured<Record<string, unknown>>(await c.call('get_file_contents', { project_id: P, file_path: 'h.ts', ref: 'hidden', start_line: 2 }));
      expect(window.invisible_characters).toEqual({ count: 2, lines: [3], characters: ['U+2066', 'U+2069'] });
      const full = structured<Record<string, unknown>>(
        await c.call('get_file_contents', { project_id: P, file_path: 'h.ts', ref: 'hidden', full_response: true }),
      );
      expect(full.content).toBe(text);
      const diff = structured<{ diffs: { lines: [number | null, number | null, string][]; invisible_characters: { count: number; characters: string[] } }[] }>(
        await c.call('get_branch_diffs', { project_id: P, from: 'main', to: 'hidden' }),
      );
      expect(diff.diffs[0].lines.map((row) => row[2])).toContain('+const ok\u200B = true; // \u202Eevil');
      expect(diff.diffs[0].invisible_characters).toMatchObject({ count: 4, characters: ['U+200B', 'U+202E', 'U+2066', 'U+2069'] });
      const commitDiff = structured<{ items: { lines: [number | null, number | null, string][]; invisible_characters: unknown }[] }>(
        await c.call('get_commit_diff', { project_id: P, sha: pushed.id }),
      );
      expect(commitDiff.items[0].lines.some((row) => row[2].includes('\u202Eevil'))).toBe(true);
      expect(commitDiff.items[0].invisible_characters).toMatchObject({ count: 4 });
      // The fake forge blames its seeded files: one of their lines gets the override.
      const blamed = h.forge.model.projects.get(P)!.files.get(SEED.blameFile)!.blame[0];
      blamed.lines[0] = `${blamed.lines[0]} // \u202Eevil`;
      const blame = structured<{ items: { lines: string[]; invisible_characters?: unknown }[] }>(
        await c.call('get_file_blame', { project_id: P, file_path: SEED.blameFile, ref: 'main' }),
      );
      expect(blame.items[0].lines[0]).toEndWith('// \u202Eevil');
      expect(blame.items[0].invisible_characters).toEqual({ count: 1, lines: [1], characters: ['U+202E'] });
      expect(blame.items.slice(1).some((r) => 'invisible_characters' in r)).toBe(false);
    } finally {
      await c.close();
    }
  });

  test('a read-edit-write round trip keeps zero-width joiners and non-joiners (Persian spelling, emoji sequences)', async () => {
    const text = 'می\u200Cخواهم\nfamily: 👨\u200D👩\u200D👧\n';
    const c = await h.as();
    structured(await c.call('create_or_update_file', { project_id: P, branch: 'main', file_path: 'fa.md', content: text, commit_message: 'Add' }));
    const read = structured<{ content: string; last_commit_id: string; invisible_characters: unknown }>(
      await c.call('get_file_contents', { project_id: P, file_path: 'fa.md' }),
    );
    expect(read.content).toBe(text);
    expect(read.invisible_characters).toEqual({ count: 3, lines: [1, 2], characters: ['U+200C', 'U+200D'] });
    structured(
      await c.call('create_or_update_file', {
        project_id: P,
        branch: 'main',
        file_path: 'fa.md',
        content: read.content.replace('family', 'Family'),
        commit_message: 'Edit',
        last_commit_id: read.last_commit_id,
      }),
    );
    expect(structured<{ content: string }>(await c.call('get_file_contents', { project_id: P, file_path: 'fa.md' })).content).toBe(
      text.replace('family', 'Family'),
    );
  });
});
