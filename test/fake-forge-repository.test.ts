// The fake forge's repository endpoints answer as GitLab does: files (JSON, HEAD, raw), tree,
// compare, and commits written through the files API and the commits API with actions.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { REPOSITORY_SEED } from './support/fake-forge/seed-repository';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => forge.reset());
afterAll(() => forge.stop());

const P = `/projects/${SEED.project}`;
const enc = encodeURIComponent;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function call(method: string, path: string, body?: unknown, token: string = TOKENS.maintainer): Promise<Response & { json(): Promise<Json> }> {
  return fetch(`${forge.apiUrl}${path}`, {
    method,
    headers: { 'private-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('files', () => {
  test('GET returns blob_data with base64 content; HEAD the same as X-Gitlab-* headers', async () => {
    const res = await call('GET', `${P}/repository/files/${enc('src/app.ts')}?ref=main`);
    expect(res.status).toBe(200);
    const body: Json = await res.json();
    expect(Object.keys(body)).toEqual([
      'file_name',
      'file_path',
      'size',
      'encoding',
      'content_sha256',
      'ref',
      'blob_id',
      'commit_id',
      'last_commit_id',
      'execute_filemode',
      'content',
    ]);
    expect(Buffer.from(body.content, 'base64').toString()).toStartWith("import { serve } from './server';\n");
    expect(body.commit_id).toBe(SEED.headSha);
    const head = await call('HEAD', `${P}/repository/files/${enc('src/app.ts')}?ref=main`);
    expect(head.headers.get('x-gitlab-blob-id')).toBe(body.blob_id);
    expect(head.headers.get('x-gitlab-size')).toBe(String(body.size));
  });

  test('404 File / 404 Commit, ref required, traversal refused', async () => {
    expect(await (await call('GET', `${P}/repository/files/nope.txt?ref=main`)).json()).toEqual({ message: '404 File Not Found' });
    expect(await (await call('GET', `${P}/repository/files/README.md?ref=nope`)).json()).toEqual({ message: '404 Commit Not Found' });
    expect(await (await call('GET', `${P}/repository/files/README.md`)).json()).toEqual({ error: 'ref is missing' });
    const traversal = await call('GET', `${P}/repository/files/${enc('src/../README.md')}?ref=main`);
    expect(traversal.status).toBe(400);
  });

  test('raw streams the bytes with the blob headers; ref defaults to HEAD', async () => {
    const res = await call('GET', `${P}/repository/files/${enc(REPOSITORY_SEED.image)}/raw`);
    expect(res.headers.get('x-gitlab-size')).toBe(String(REPOSITORY_SEED.imageBytes.byteLength));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(REPOSITORY_SEED.imageBytes);
  });

  test('POST creates (400 when it exists), PUT updates with the last_commit_id guard', async () => {
    const create = { branch: 'main', content: 'hello\n', commit_message: 'Add hello' };
    const created = await call('POST', `${P}/repository/files/hello.txt`, create);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ file_path: 'hello.txt', branch: 'main' });
    const again = await call('POST', `${P}/repository/files/hello.txt`, create);
    expect(await again.json()).toEqual({ message: 'A file with this name already exists' });
    const stale = await call('PUT', `${P}/repository/files/hello.txt`, { ...create, last_commit_id: SEED.rootSha });
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({ message: 'You are attempting to update a file that has changed since you started editing it.' });
    const head = forge.model.projects.get(SEED.project)!.branches.get('main');
    const ok = await call('PUT', `${P}/repository/files/hello.txt`, { ...create, content: 'bye\n', last_commit_id: head });
    expect(ok.status).toBe(200);
    const missing = await call('PUT', `${P}/repository/files/absent.txt`, create);
    expect(await missing.json()).toEqual({ message: "A file with this name doesn't exist" });
    const noBranch = await call('POST', `${P}/repository/files/x.txt`, { ...create, branch: 'nope' });
    expect(await noBranch.json()).toEqual({ message: 'You can only create or edit files when you are on a branch' });
    expect((await call('POST', `${P}/repository/files/x.txt`, create, TOKENS.guest)).status).toBe(403);
  });
});

describe('tree', () => {
  test('root lists trees first, then blobs; recursive lists every file; unknown path 404', async () => {
    const root: Json = await (await call('GET', `${P}/repository/tree?per_page=100`)).json();
    const types = root.map((e: { type: string }) => e.type);
    expect(types.indexOf('blob')).toBeGreaterThan(types.lastIndexOf('tree'));
    expect(root.map((e: { path: string }) => e.path)).toContain('README.md');
    const all: Json = await (await call('GET', `${P}/repository/tree?recursive=true&per_page=100`)).json();
    expect(all.map((e: { path: string }) => e.path)).toContain('docs/guide/intro.md');
    expect((await call('GET', `${P}/repository/tree?path=nowhere`)).status).toBe(404);
  });
});

describe('compare and commits', () => {
  test('compare main...feature/login: the branch commits and its file', async () => {
    const body: Json = await (await call('GET', `${P}/repository/compare?from=main&to=${enc('feature/login')}`)).json();
    expect(body.commits.map((c: { id: string }) => c.id)).toEqual([...SEED.featureShas]);
    expect(body.diffs.map((d: { new_path: string }) => d.new_path)).toEqual([REPOSITORY_SEED.featureFile]);
    expect(body.diffs[0].new_file).toBe(true);
    expect((await call('GET', `${P}/repository/compare?from=main&to=nope`)).status).toBe(404);
  });

  test('POST commits applies every action in one commit; checks each like GitLab', async () => {
    const res = await call('POST', `${P}/repository/commits`, {
      branch: 'main',
      commit_message: 'Several',
      actions: [
        { action: 'create', file_path: 'new.txt', content: 'n\n' },
        { action: 'update', file_path: 'README.md', content: '# api\n' },
        { action: 'move', file_path: 'docs/moved.md', previous_path: 'docs/guide/intro.md' },
        { action: 'delete', file_path: 'package.json' },
      ],
    });
    expect(res.status).toBe(201);
    const commit: Json = await res.json();
    const files: Json = await (await call('GET', `${P}/repository/tree?recursive=true&per_page=100&ref=${commit.id}`)).json();
    const paths = files.map((e: { path: string }) => e.path);
    expect(paths).toContain('new.txt');
    expect(paths).toContain('docs/moved.md');
    expect(paths).not.toContain('package.json');
    const bad = (actions: unknown) => call('POST', `${P}/repository/commits`, { branch: 'main', commit_message: 'x', actions });
    expect(await (await bad([{ action: 'create', file_path: 'new.txt', content: '' }])).json()).toEqual({ message: 'A file with this name already exists' });
    expect(await (await bad([{ action: 'update', file_path: 'README.md' }])).json()).toEqual({ error: 'actions[0][content] is missing' });
    expect(await (await bad([{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: SEED.rootSha }])).json()).toEqual({
      message: 'The file has changed since you started editing it: README.md',
    });
    expect(await (await bad([])).json()).toEqual({ error: 'actions is empty' });
  });
});
