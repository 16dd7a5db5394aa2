// The repository group's reads: a file at a ref (line ranges, the size budget, binary files, a file
// far larger than the budget read only as far as needed), the tree, and the group's tools/list size.
import { bytesPerToolBudget, groupBytesPerTool } from '../../src/tools/listing-size';
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { APP_TS } from '../support/fake-forge/seed';
import { repoStore } from '../support/fake-forge/model-repository';
import { hugeLine, REPOSITORY_SEED } from '../support/fake-forge/seed-repository';
import { useHarness } from '../support/harness';
import { connect, structured, toolError, type Connected } from '../support/mcp-client';
import { toolListing } from '../../src/tools/catalog';
import { repositoryTools } from '../../src/tools/repository';
import { CONTENT_BUDGET } from '../../src/tools/repository/file-contents';

type File = {
  file_path: string;
  ref?: string;
  size: number;
  blob_id: string;
  last_commit_id: string;
  commit_id?: string;
  content_sha256?: string;
  start_line: number;
  end_line: number | null;
  total_lines?: number;
  content?: string;
  truncated?: boolean;
  next_start_line?: number;
  binary?: boolean;
  mime_type?: string;
  execute_filemode?: boolean;
  note?: string;
};
type Page<T> = { items: T[]; pagination: { page: number; per_page: number; next_page: number | null; total: number; total_pages: number } };

const P = SEED.project;
const served = (h: { forge: { model: { projects: Map<number, unknown> } } }) =>
  repoStore(h.forge.model.projects.get(P) as Parameters<typeof repoStore>[0]).rawBytesServed;

describe('get_file_contents', () => {
  const h = useHarness({ FORGE_TOOLSETS: 'repository' });

  test('a text file at a ref: its text exactly, line numbers, and the ids that guard a write; one raw request', async () => {
    const c = await h.as();
    const file = structured<File>(await c.call('get_file_contents', { project_id: SEED.projectPath, file_path: 'src/app.ts', ref: 'main' }));
    expect(file.content).toBe(`${APP_TS.join('\n')}\n`);
    expect(file).toMatchObject({ file_path: 'src/app.ts', ref: 'main', start_line: 1, end_line: 12, total_lines: 12, size: file.content!.length });
    expect(file.last_commit_id).toMatch(/^[0-9a-f]{40}$/);
    expect(file.truncated).toBeUndefined();
    // Lean (D33): the ref's head and the content hash say nothing an agent acts on.
    expect(file.commit_id).toBeUndefined();
    expect(file.content_sha256).toBeUndefined();
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/repository/files/src%2Fapp.ts/raw`]);
    expect(h.forge.requests[0].query.get('ref')).toBe('main');
  });

  test('full_response keeps every field GitLab gave', async () => {
    const file = structured<File>(await (await h.as()).call('get_file_contents', { project_id: P, file_path: 'README.md', full_response: true }));
    expect(file.commit_id).toBe(SEED.headSha);
    expect(file.content_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test('start_line..end_line returns exactly those lines', async () => {
    const file = structured<File>(await (await h.as()).call('get_file_contents', { project_id: P, file_path: 'src/app.ts', start_line: 5, end_line: 9 }));
    expect(file.content).toBe(`${APP_TS.slice(4, 9).join('\n')}\n`);
    expect(file).toMatchObject({ start_line: 5, end_line: 9 });
    expect(file.truncated).toBeUndefined();
  });

  test("start_line past the end is refused with the file's length", async () => {
    const error = toolError(await (await h.as()).call('get_file_contents', { project_id: P, file_path: 'src/app.ts', start_line: 40 }));
    expect(error).toMatchObject({ kind: 'validation', message: 'start_line: the file has 12 lines' });
  });

  test('a 256 MiB file: the first lines within the budget, the way on, and only a small part of it read from the forge', async () => {
    const file = structured<File>(await (await h.as()).call('get_file_contents', { project_id: P, file_path: REPOSITORY_SEED.hugeFile }));
    const lines = Math.floor(CONTENT_BUDGET / (REPOSITORY_SEED.hugeLineBytes + 1)); // each newline is two bytes in JSON
    expect(file.size).toBe(REPOSITORY_SEED.hugeLines * REPOSITORY_SEED.hugeLineBytes);
    expect(file).toMatchObject({ start_line: 1, end_line: lines, truncated: true, next_start_line: lines + 1 });
    expect(file.content!.startsWith(hugeLine(1))).toBe(true);
    expect(file.content!.endsWith(hugeLine(lines))).toBe(true);
    expect(file.total_lines).toBeUndefined();
    // The rest was never fetched: far less than the file went through the forge's socket.
    // (Sockets and stream queues let the forge run some MB ahead of the reader; never the whole file.)
    expect(served(h)).toBeLessThan(32 * 1024 * 1024);
  });

  test('a line range deep in a large file: those lines, reading stopped right after them', async () => {
    const start = 200_000;
    const file = structured<File>(
      await (await h.as()).call('get_file_contents', { project_id: P, file_path: REPOSITORY_SEED.hugeFile, start_line: start, end_line: start + 2 }),
    );
    expect(file.content).toBe(hugeLine(start) + hugeLine(start + 1) + hugeLine(start + 2));
    expect(file).toMatchObject({ start_line: start, end_line: start + 2 });
    expect(file.truncated).toBeUndefined();
    // 12.8 MB had to be read to reach them; of the other 243 MB only what sockets hold went out.
    expect(served(h)).toBeLessThan(96 * 1024 * 1024);
  });

  test('a binary file is described, not dumped', async () => {
    const file = structured<File>(await (await h.as()).call('get_file_contents', { project_id: P, file_path: REPOSITORY_SEED.image }));
    expect(file).toMatchObject({ file_path: REPOSITORY_SEED.image, binary: true, mime_type: 'image/png', size: REPOSITORY_SEED.imageBytes.byteLength });
    expect(file.content).toBeUndefined();
    expect(file.blob_id).toMatch(/^[0-9a-f]{40}$/);
  });

  test("a file stored in Git LFS: its pointer is said for what it is, oid and size, not shown as the file's text", async () => {
    const c = await h.as();
    const oid = 'd49b4164afc9a69cd2db26c64748a3b5dff5de9da96d92a9479a94ffa5f38688';
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 33296\n`;
    structured(
      await c.call('create_or_update_file', { project_id: P, branch: 'main', file_path: 'assets/model.bin', content: pointer, commit_message: 'Track in LFS' }),
    );
    const file = structured<File & { lfs?: { oid: string; size: number } }>(
      await c.call('get_file_contents', { project_id: P, file_path: 'assets/model.bin' }),
    );
    expect(file.lfs).toEqual({ oid: `sha256:${oid}`, size: 33296 });
    expect(file.content).toBeUndefined();
    expect(file.note).toContain('Git LFS');
    expect(file).toMatchObject({ file_path: 'assets/model.bin', size: pointer.length });
    expect(file.last_commit_id).toMatch(/^[0-9a-f]{40}$/);
    // Text that only looks like the start of one is text.
    const lookalike = `${pointer}\nSee how LFS pointers look.\n`;
    structured(await c.call('create_or_update_file', { project_id: P, branch: 'main', file_path: 'docs/lfs.md', content: lookalike, commit_message: 'Docs' }));
    const doc = structured<File & { lfs?: unknown }>(await c.call('get_file_contents', { project_id: P, file_path: 'docs/lfs.md' }));
    expect(doc.lfs).toBeUndefined();
    expect(doc.content).toBe(lookalike);
    // A pointer that is malformed (no valid oid, a size past 16 digits, over 1 KB) is text as well.
    for (const [path, text] of [
      ['a/bad-oid.bin', 'version https://git-lfs.github.com/spec/v1\noid sha256:xyz\nsize 10\n'],
      ['a/huge-size.bin', `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${'9'.repeat(20)}\n`],
      ['a/long.bin', `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 10\nx-pad ${'p'.repeat(1100)}\n`],
    ]) {
      structured(await c.call('create_or_update_file', { project_id: P, branch: 'main', file_path: path, content: text, commit_message: 'Odd' }));
      const read = structured<File & { lfs?: unknown }>(await c.call('get_file_contents', { project_id: P, file_path: path }));
      expect([path, read.lfs, read.content]).toEqual([path, undefined, text]);
    }
  });

  test("a missing file is not_found with the forge's words; so is an unknown ref", async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_file_contents', { project_id: P, file_path: 'nope.md' }))).toMatchObject({
      kind: 'not_found',
      status: 404,
      message: '404 File Not Found',
    });
    expect(toolError(await c.call('get_file_contents', { project_id: P, file_path: 'README.md', ref: 'nope' }))).toMatchObject({
      kind: 'not_found',
      message: '404 Commit Not Found',
    });
  });

  test("a private project's file is hidden from a stranger (GitLab answers 404)", async () => {
    h.forge.model.projects.get(SEED.privateProject)!.members.delete(SEED.users.developer);
    const error = toolError(await (await h.as(TOKENS.developer)).call('get_file_contents', { project_id: SEED.privateProject, file_path: 'README.md' }));
    expect(error.kind).toBe('not_found');
  });

  test.each([
    ['../secret'],
    ['src/../../etc/passwd'],
    ['%2e%2e/secret'],
    ['src%2F..%2F..%2Fsecret'],
    ['src/%2E%2E/x'],
    ['..%2Fx'],
    ['%252e%252e/x'],
    ['src/./app.ts'],
    ['src//app.ts'],
    ['/etc/passwd'],
    ['src\\..\\x'],
    ['．．/x'],
  ])('file_path %p is refused before any request', async (file_path) => {
    const error = toolError(await (await h.as()).call('get_file_contents', { project_id: P, file_path }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith('file_path: ');
    expect(h.upstream()).toEqual([]);
  });

  test.each([
    [{ ref: '..' }, 'ref: '],
    [{ project_id: '../42' }, 'project_id: '],
    [{ start_line: 0 }, 'start_line: must be a line number, 1 or more'],
    [{ start_line: 5, end_line: 4 }, 'end_line: must not be before start_line'],
  ])('%p is refused before any request', async (args, message) => {
    const error = toolError(await (await h.as()).call('get_file_contents', { project_id: P, file_path: 'README.md', ...args }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });

  test('an already-encoded path reaches the forge encoded once', async () => {
    const file = structured<File>(await (await h.as()).call('get_file_contents', { project_id: P, file_path: 'docs%2Fguide%2Fintro.md' }));
    expect(file.file_path).toBe('docs/guide/intro.md');
    expect(h.upstream()).toEqual([`GET /api/v4/projects/${P}/repository/files/docs%2Fguide%2Fintro.md/raw`]);
  });
});

describe('get_file_contents within FORGE_MAX_RESPONSE_BYTES', () => {
  const h = useHarness({ FORGE_TOOLSETS: 'repository', FORGE_MAX_RESPONSE_BYTES: String(1024 * 1024) });

  test('lines within the first FORGE_MAX_RESPONSE_BYTES are read; lines beyond them fail naming the setting', async () => {
    const c = await h.as();
    const near = structured<File>(await c.call('get_file_contents', { project_id: P, file_path: REPOSITORY_SEED.hugeFile, start_line: 100, end_line: 100 }));
    expect(near.content).toBe(hugeLine(100));
    const far = toolError(await c.call('get_file_contents', { project_id: P, file_path: REPOSITORY_SEED.hugeFile, start_line: 100_000, end_line: 100_001 }));
    expect(far.kind).toBe('upstream');
    expect(far.message).toContain('FORGE_MAX_RESPONSE_BYTES (1048576 bytes)');
  });
});

describe('get_repository_tree', () => {
  const h = useHarness({ FORGE_TOOLSETS: 'repository' });
  type Entry = { path: string; type: string; mode?: string; id?: string; name?: string };

  test("the root: directories first, then files, lean entries, with GitLab's pagination", async () => {
    const page = structured<Page<Entry>>(await (await h.as()).call('get_repository_tree', { project_id: P, per_page: 100 }));
    expect(page.items.map((e) => e.path)).toEqual(['assets', 'bin', 'data', 'docs', 'src', 'README.md', 'package.json']);
    expect(page.items[0]).toEqual({ path: 'assets', type: 'tree' });
    expect(page.pagination).toEqual({ page: 1, per_page: 100, next_page: null, total: 7, total_pages: 1 });
  });

  test('recursive, a sub-path and a ref; an executable keeps its mode; pages', async () => {
    const c = await h.as();
    const page = structured<Page<Entry>>(await c.call('get_repository_tree', { project_id: P, path: 'bin', recursive: true, ref: 'develop' }));
    expect(page.items).toEqual([{ path: 'bin/run.sh', type: 'blob', mode: '100755' }]);
    const first = structured<Page<Entry>>(await c.call('get_repository_tree', { project_id: P, recursive: true, per_page: 3 }));
    expect(first.pagination.next_page).toBe(2);
    expect(first.pagination.total).toBeGreaterThan(3);
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toEqual({ recursive: 'true', per_page: '3' });
  });

  test("full_response: GitLab's entries with id, name and mode", async () => {
    const page = structured<Page<Entry>>(await (await h.as()).call('get_repository_tree', { project_id: P, path: 'docs', full_response: true }));
    expect(page.items[0]).toMatchObject({ name: 'guide', path: 'docs/guide', type: 'tree', mode: '040000' });
    expect(page.items[0].id).toMatch(/^[0-9a-f]{40}$/);
  });

  test('an unknown path or ref is not_found (the forge answers 404), on the modern lane too', async () => {
    const modern: Connected = await connect(h.app, { 'Private-Token': TOKENS.maintainer }, undefined, { lane: 'modern' });
    try {
      expect(toolError(await modern.call('get_repository_tree', { project_id: P, path: 'nowhere' }))).toMatchObject({ kind: 'not_found', status: 404 });
      expect(toolError(await modern.call('get_repository_tree', { project_id: P, ref: 'nope' })).kind).toBe('not_found');
    } finally {
      await modern.close();
    }
  });

  test.each([['..'], ['docs/../..'], ['%2e%2e'], ['docs%2F..%2F..'], ['docs/']])('path %p is refused before any request', async (path) => {
    const error = toolError(await (await h.as()).call('get_repository_tree', { project_id: P, path }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith('path: ');
    expect(h.upstream()).toEqual([]);
  });
});

describe('the repository group in tools/list', () => {
  // D40 replaced the 12 KB per group with 1.3 times the group's bytes per tool at 868e772.
  test('its five tools stay within their tools/list budget per tool (D40)', () => {
    expect(repositoryTools.map((t) => t.name)).toEqual(['get_file_contents', 'get_repository_tree', 'get_branch_diffs', 'create_or_update_file', 'push_files']);
    expect(groupBytesPerTool('repository')).toBeLessThanOrEqual(bytesPerToolBudget('repository'));
  });

  test('annotations: reads read-only; push_files destructive (it deletes files)', () => {
    const hints = Object.fromEntries(repositoryTools.map((t) => [t.name, toolListing(t).annotations]));
    expect(hints.get_file_contents).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(hints.create_or_update_file).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints.push_files).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  });
});
