// The repository group's writes: create_or_update_file (create, else update; the last_commit_id
// guard) and push_files (one commit of several actions, each checked before anything is sent).
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { snapshotAt, blobBytes } from '../support/fake-forge/model-repository';
import { useHarness } from '../support/harness';
import { connect, structured, toolError } from '../support/mcp-client';
import { forgeApi } from '../support/forge-api';
import { checkActions, MAX_ACTIONS } from '../../src/tools/repository/push-files';
import { COMMIT_CONTENT_LIMIT, CONTENT_LIMIT } from '../../src/tools/repository/write-file';

const P = SEED.project;
const h = useHarness({ FORGE_TOOLSETS: 'repository' });

/** The file's bytes on a branch as the fake forge holds them now (undefined: no such file). */
function fileOn(branch: string, path: string): string | undefined {
  const project = h.forge.model.projects.get(P)!;
  const blob = snapshotAt(h.forge.model, project, project.branches.get(branch)!).get(path);
  return blob && Buffer.from(blobBytes(blob)).toString();
}
const headOf = (branch: string) => h.forge.model.projects.get(P)!.branches.get(branch);

const write = (args: Record<string, unknown>) => ({ project_id: P, branch: 'main', commit_message: 'Edit', content: 'hello\n', ...args });

describe('create_or_update_file', () => {
  test('a new file is created with one POST', async () => {
    const r = structured(await (await h.as()).call('create_or_update_file', write({ file_path: 'docs/new.md' })));
    expect(r).toEqual({ file_path: 'docs/new.md', branch: 'main', action: 'created' });
    expect(fileOn('main', 'docs/new.md')).toBe('hello\n');
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${P}/repository/files/docs%2Fnew.md`]);
    expect(h.forge.requests[0].body).toEqual({ branch: 'main', content: 'hello\n', commit_message: 'Edit' });
  });

  test('an existing file is replaced: GitLab refuses the create, the tool updates', async () => {
    const r = structured(await (await h.as()).call('create_or_update_file', write({ file_path: 'README.md', content: '# API\n' })));
    expect(r).toEqual({ file_path: 'README.md', branch: 'main', action: 'updated' });
    expect(fileOn('main', 'README.md')).toBe('# API\n');
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${P}/repository/files/README.md`, `PUT /api/v4/projects/${P}/repository/files/README.md`]);
  });

  test('last_commit_id from get_file_contents guards the update: current → updated; stale → conflict and nothing written', async () => {
    const c = await h.as();
    const read = structured<{ last_commit_id: string }>(await c.call('get_file_contents', { project_id: P, file_path: 'README.md' }));
    h.forge.requests.length = 0;
    const ok = structured(await c.call('create_or_update_file', write({ file_path: 'README.md', content: 'v2\n', last_commit_id: read.last_commit_id })));
    expect(ok).toMatchObject({ action: 'updated' });
    expect(h.upstream()).toEqual([`PUT /api/v4/projects/${P}/repository/files/README.md`]);
    expect((h.forge.requests[0].body as Record<string, unknown>).last_commit_id).toBe(read.last_commit_id);
    // The same id again: the file has changed since (our own write).
    const head = headOf('main');
    const stale = toolError(await c.call('create_or_update_file', write({ file_path: 'README.md', content: 'v3\n', last_commit_id: read.last_commit_id })));
    expect(stale.kind).toBe('conflict');
    expect(stale.status).toBe(400);
    expect(stale.message).toContain('You are attempting to update a file that has changed since you started editing it.');
    expect(stale.message).toContain('read it again');
    expect(fileOn('main', 'README.md')).toBe('v2\n');
    expect(headOf('main')).toBe(head);
  });

  test('last_commit_id on a file that is gone: conflict too (GitLab finds no last commit for it)', async () => {
    const error = toolError(await (await h.as()).call('create_or_update_file', write({ file_path: 'gone.md', last_commit_id: SEED.headSha })));
    expect(error).toMatchObject({ kind: 'conflict', status: 400 });
  });

  test('a missing branch is not_found, saying start_branch creates it; with start_branch the branch is made', async () => {
    const c = await h.as();
    const error = toolError(await c.call('create_or_update_file', write({ file_path: 'x.md', branch: 'topic/new' })));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('give start_branch');
    structured(await c.call('create_or_update_file', write({ file_path: 'x.md', branch: 'topic/new', start_branch: 'main' })));
    expect(fileOn('topic/new', 'x.md')).toBe('hello\n');
    expect(fileOn('main', 'x.md')).toBeUndefined();
  });

  test('base64 content is written as bytes; content that is not base64 is refused before any request', async () => {
    const c = await h.as();
    structured(
      await c.call('create_or_update_file', write({ file_path: 'bin.dat', content: Buffer.from('\u0000\u0001bytes').toString('base64'), encoding: 'base64' })),
    );
    expect(fileOn('main', 'bin.dat')).toBe('\u0000\u0001bytes');
    h.forge.requests.length = 0;
    expect(toolError(await c.call('create_or_update_file', write({ file_path: 'b.dat', content: 'not base64!', encoding: 'base64' })))).toEqual({
      kind: 'validation',
      status: null,
      message: 'content: is not valid base64 (encoding is base64)',
    });
    expect(h.upstream()).toEqual([]);
  });

  test('a guest is refused by the forge (permission), on the modern lane too', async () => {
    const modern = await connect(h.app, { 'Private-Token': TOKENS.guest }, undefined, { lane: 'modern' });
    try {
      expect(toolError(await modern.call('create_or_update_file', write({ file_path: 'g.md' })))).toMatchObject({ kind: 'permission', status: 403 });
    } finally {
      await modern.close();
    }
  });

  test.each([
    [{ file_path: '../x' }, 'file_path: '],
    [{ file_path: 'a/%2e%2e/%2e%2e/x' }, 'file_path: '],
    [{ file_path: 'a%2F..%2F..%2Fx' }, 'file_path: '],
    [{ branch: '..' }, 'branch: '],
    [{ commit_message: '' }, 'commit_message: must not be empty'],
    [{ last_commit_id: 'main' }, 'last_commit_id: must be a commit SHA'],
    [{ last_commit_id: 'abc1234' }, "last_commit_id: must be a commit SHA: the file's full last_commit_id"],
    [{ last_commit_id: 'A'.repeat(40) }, 'last_commit_id: must be a commit SHA'],
    [{ encoding: 'utf8' }, 'encoding: must be one of text, base64'],
    [{ content: undefined }, 'content: is required'],
  ])('%p is refused before any request', async (args, message) => {
    const error = toolError(await (await h.as()).call('create_or_update_file', write({ file_path: 'ok.md', ...args })));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });
});

type Commit = { id: string; title: string; stats?: { additions: number; deletions: number }; web_url: string };
const push = (files: unknown[], extra: Record<string, unknown> = {}) => ({ project_id: P, branch: 'main', commit_message: 'Reorganise', files, ...extra });

describe('push_files', () => {
  test('one commit creates, updates, moves, deletes and chmods; the lean commit comes back', async () => {
    const before = headOf('main');
    const c = await h.as();
    const commit = structured<Commit>(
      await c.call(
        'push_files',
        push([
          { file_path: 'CHANGELOG.md', content: '# Changes\n' },
          { action: 'update', file_path: 'README.md', content: '# api v2\n' },
          { action: 'move', previous_path: 'docs/guide/intro.md', file_path: 'docs/intro.md' },
          { action: 'delete', file_path: 'package.json' },
          { action: 'chmod', file_path: 'src/app.ts', execute_filemode: true },
        ]),
      ),
    );
    expect(commit.title).toBe('Reorganise');
    expect(commit.stats).toBeDefined();
    expect(headOf('main')).toBe(commit.id);
    expect(h.forge.model.projects.get(P)!.commits.get(commit.id)!.parent_ids).toEqual([before!]);
    expect(fileOn('main', 'CHANGELOG.md')).toBe('# Changes\n');
    expect(fileOn('main', 'README.md')).toBe('# api v2\n');
    expect(fileOn('main', 'docs/intro.md')).toStartWith('# Introduction');
    expect(fileOn('main', 'docs/guide/intro.md')).toBeUndefined();
    expect(fileOn('main', 'package.json')).toBeUndefined();
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${P}/repository/commits`]);
    const sent = h.forge.requests[0].body as { actions: { action: string }[] };
    expect(sent.actions.map((a) => a.action)).toEqual(['create', 'update', 'move', 'delete', 'chmod']);
  });

  test("the forge's refusals: an existing file to create is a conflict; a stale last_commit_id too; nothing is committed", async () => {
    const c = await h.as();
    const head = headOf('main');
    const exists = toolError(
      await c.call(
        'push_files',
        push([
          { file_path: 'new.md', content: '' },
          { file_path: 'README.md', content: 'x' },
        ]),
      ),
    );
    expect(exists).toMatchObject({ kind: 'conflict', status: 400 });
    expect(exists.message).toStartWith('A file with this name already exists');
    const stale = toolError(await c.call('push_files', push([{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: '0'.repeat(40) }])));
    expect(stale).toMatchObject({ kind: 'conflict', status: 400 });
    expect(stale.message).toStartWith('The file has changed since you started editing it: README.md');
    expect(headOf('main')).toBe(head);
    expect(fileOn('main', 'new.md')).toBeUndefined();
  });

  test('last_commit_id on a chmod is refused: GitLab checks it on update, move and delete only, and would commit a stale chmod', async () => {
    // GitLab itself: a stale last_commit_id on a chmod commits (app/services/files/multi_service.rb).
    const head = headOf('main');
    const raw = await forgeApi(h.forge, `/projects/${P}/repository/commits`, {
      json: {
        branch: 'main',
        commit_message: 'Stale chmod',
        actions: [{ action: 'chmod', file_path: 'README.md', execute_filemode: true, last_commit_id: '0'.repeat(40) }],
      },
    });
    expect(raw.status).toBe(201);
    expect(headOf('main')).not.toBe(head);
    h.forge.requests.length = 0;
    const error = toolError(
      await (await h.as()).call('push_files', push([{ action: 'chmod', file_path: 'README.md', execute_filemode: false, last_commit_id: '0'.repeat(40) }])),
    );
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith('files[0].last_commit_id: GitLab ignores it on a chmod');
    expect(h.upstream()).toEqual([]);
  });

  test("deleting a file that is not there is not_found, with GitLab's words", async () => {
    const error = toolError(await (await h.as()).call('push_files', push([{ action: 'delete', file_path: 'gone.md' }])));
    expect(error).toMatchObject({ kind: 'not_found', status: 400 });
    expect(error.message).toStartWith("A file with this name doesn't exist");
  });

  test('a protected branch the caller may not push to is permission (403)', async () => {
    const error = toolError(await (await h.as(TOKENS.developer)).call('push_files', push([{ file_path: 'd.md', content: 'd' }])));
    expect(error).toMatchObject({ kind: 'permission', status: 403 });
  });

  test.each([
    [[{ action: 'move', file_path: 'b.md' }], 'files[0].previous_path: is required when action is move'],
    [[{ action: 'move', file_path: 'b.md', previous_path: 'b.md' }], 'files[0].previous_path: must differ from file_path'],
    [[{ action: 'update', file_path: 'README.md', previous_path: 'x.md', content: '' }], 'files[0].previous_path: is only for action move'],
    [[{ file_path: 'a.md' }], 'files[0].content: is required when action is create'],
    [
      [
        { file_path: 'a.md', content: '' },
        { action: 'update', file_path: 'README.md' },
      ],
      'files[1].content: is required when action is update',
    ],
    [[{ action: 'delete', file_path: 'README.md', content: 'x' }], 'files[0].content: is not used by action delete'],
    [[{ action: 'chmod', file_path: 'README.md' }], 'files[0].execute_filemode: is required when action is chmod'],
    [[{ file_path: 'a.md', content: '', last_commit_id: SEED.headSha }], 'files[0].last_commit_id: guards changes to an existing file'],
    [
      [
        { file_path: 'a.md', content: 'x' },
        { action: 'update', file_path: 'a.md', content: 'y' },
      ],
      'files[1].file_path: a.md is already changed by files[0]',
    ],
    [
      [
        { file_path: 'a.md', content: '' },
        { action: 'move', file_path: 'c.md', previous_path: 'a.md' },
      ],
      'files[1].previous_path: a.md is already changed by files[0]',
    ],
    [
      [
        { file_path: 'a.md', content: '' },
        { file_path: 'src/../../etc/passwd', content: '' },
      ],
      'files[1].file_path: must not be',
    ],
    [[{ action: 'move', file_path: 'a.md', previous_path: '%2e%2e/secret' }], 'files[0].previous_path: must not be'],
    [[{ file_path: 'a%2F..%2F..%2Fb', content: '' }], 'files[0].file_path: must not be'],
    [[{ file_path: 'a.bin', content: '***', encoding: 'base64' }], 'files[0].content: is not valid base64'],
    [[{ action: 'rename', file_path: 'a.md' }], 'files.0.action: must be one of create, update, delete, move, chmod'],
    [[{ file_path: 'a.md', content: '', mode: '755' }], 'files.0.mode: is not a parameter of this tool'],
    [[], 'files: '],
    [Array.from({ length: MAX_ACTIONS + 1 }, (_, i) => ({ file_path: `f${i}`, content: '' })), `files: must have at most ${MAX_ACTIONS} items`],
  ])('files %# is refused before any request', async (files, message) => {
    const error = toolError(await (await h.as()).call('push_files', push(files)));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });
});

describe('checkActions', () => {
  test('the content of all actions together is bounded', () => {
    const file = 'x'.repeat(CONTENT_LIMIT);
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ file_path: `f${i}`, content: file }));
    const fit = Math.floor(COMMIT_CONTENT_LIMIT / CONTENT_LIMIT);
    expect(() => checkActions(files(fit))).not.toThrow();
    expect(() => checkActions(files(fit + 1))).toThrow(`files[${fit}].content: brings the commit's content past ${COMMIT_CONTENT_LIMIT} characters`);
  });
});
