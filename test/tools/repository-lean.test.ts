// Lean records of the repository group (D33) and untrusted text in files and diffs (D36).
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { connect, MCP_URL, structured } from '../support/mcp-client';
import { RECORD_KINDS } from '../../src/tools/lean';

const h = useHarness({ FORGE_TOOLSETS: 'repository' });
const P = SEED.project;

describe('lean projections', () => {
  test('file: the ids that guard a write and the text; the ref head, hash and encoding dropped', () => {
    const lean = RECORD_KINDS.file.lean({
      file_path: 'a.ts', ref: 'main', size: 3, blob_id: 'b'.repeat(40), commit_id: 'c'.repeat(40), last_commit_id: 'd'.repeat(40),
      content_sha256: 'e'.repeat(64), execute_filemode: false, encoding: 'text', start_line: 1, end_line: 1, total_lines: 1, content: 'x\n',
    });
    expect(lean).toEqual({ file_path: 'a.ts', ref: 'main', size: 3, blob_id: 'b'.repeat(40), last_commit_id: 'd'.repeat(40), start_line: 1, end_line: 1, total_lines: 1, content: 'x\n' });
  });

  test('tree_entry: path and type; the mode only when it says more than file or directory', () => {
    expect(RECORD_KINDS.tree_entry.lean({ id: 'a'.repeat(40), name: 'x.ts', type: 'blob', path: 'src/x.ts', mode: '100644' })).toEqual({ path: 'src/x.ts', type: 'blob' });
    expect(RECORD_KINDS.tree_entry.lean({ id: 'a'.repeat(40), name: 'run', type: 'blob', path: 'bin/run', mode: '100755' })).toEqual({ path: 'bin/run', type: 'blob', mode: '100755' });
  });

  test('compare: lean commits and diffs, the budget markers kept; GitLab\'s repeated last commit dropped', () => {
    const lean = RECORD_KINDS.compare.lean({
      commit: { id: '1', title: 't', message: 't\n', author_email: 'a@b', web_url: 'u' },
      commits: [{ id: '1', title: 't', message: 't\n', author_email: 'a@b' }],
      diffs: [{ old_path: 'a', new_path: 'a', a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: false, deleted_file: false, diff_omitted: true, diff_bytes: 9 }],
      compare_timeout: false, compare_same_ref: false, web_url: 'w', pagination: { page: 1 },
    });
    expect(lean).toEqual({
      commits: [{ id: '1', title: 't' }], diffs: [{ new_path: 'a', diff_omitted: true, diff_bytes: 9 }],
      web_url: 'w', pagination: { page: 1 },
    });
  });

  test('compare: the head commit kept where the list does not end with it (a cut list)', () => {
    const lean = RECORD_KINDS.compare.lean({
      commit: { id: '3', title: 'head', message: 'head\n' },
      commits: [{ id: '1', title: 'one', message: 'one\n' }, { id: '2', title: 'two', message: 'two\n' }],
      commits_total: 3,
    });
    expect(lean).toEqual({ commit: { id: '3', title: 'head' }, commits: [{ id: '1', title: 'one' }, { id: '2', title: 'two' }], commits_total: 3 });
  });
});

describe('untrusted text in files (D36), on the modern lane', () => {
  test('invisible characters are removed from file content and diffs; HTML comments in code stay; full_response keeps the bytes', async () => {
    const text = 'const ok\u200B = true; // \u202Eevil\n<!-- kept: code, not prose -->\n';
    structured(await (await h.as()).call('push_files', { project_id: P, branch: 'hidden', start_branch: 'main', commit_message: 'Add', files: [{ file_path: 'h.ts', content: text }] }));
    const c = await connect(h.app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane: 'modern' });
    try {
      const lean = structured<{ content: string }>(await c.call('get_file_contents', { project_id: P, file_path: 'h.ts', ref: 'hidden' }));
      expect(lean.content).toBe('const ok = true; // evil\n<!-- kept: code, not prose -->\n');
      const full = structured<{ content: string }>(await c.call('get_file_contents', { project_id: P, file_path: 'h.ts', ref: 'hidden', full_response: true }));
      expect(full.content).toBe(text);
      const diff = structured<{ diffs: { diff: string }[] }>(await c.call('get_branch_diffs', { project_id: P, from: 'main', to: 'hidden' }));
      expect(diff.diffs[0].diff).toContain('+const ok = true; // evil');
    } finally {
      await c.close();
    }
  });
});
