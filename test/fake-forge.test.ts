// Tests of the fake GitLab forge itself, through plain fetch against a served instance.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { setupServer } from 'msw/node';
import { ForgeControl, SEED, TOKENS, fakeForgeHandlers, seedModel, startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});
beforeEach(() => forge.reset());

type Opts = { token?: string | null; method?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> };
async function api(path: string, o: Opts = {}) {
  const headers = new Headers(o.headers);
  if (o.token !== null && !headers.has('job-token') && !headers.has('authorization')) headers.set('PRIVATE-TOKEN', o.token ?? TOKENS.maintainer);
  let body: string | undefined;
  if (o.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(o.json);
  }
  if (o.form) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(o.form).toString();
  }
  const res = await fetch(forge.apiUrl + path, { method: o.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
const P = `/projects/${SEED.projectPathEncoded}`;

describe('auth and routing', () => {
  test('accepts PRIVATE-TOKEN, Bearer and JOB-TOKEN', async () => {
    expect((await api('/user')).body).toMatchObject({ id: 1, username: 'maria', state: 'active', web_url: 'http://forge.test/maria' });
    expect((await api('/user', { headers: { authorization: `Bearer ${TOKENS.developer}` } })).body.username).toBe('dev');
    // A job token is read only where GitLab reads one (doc/ci/jobs/ci_job_token.md): GET /job names its user.
    expect((await api('/job', { headers: { 'job-token': TOKENS.job } })).body.user.username).toBe('dev');
  });
  test('401 for missing, unknown or misplaced tokens', async () => {
    for (const o of [{ token: null }, { token: 'nope' }, { token: TOKENS.job }, { headers: { 'job-token': TOKENS.maintainer } }]) {
      const r = await api('/user', o);
      expect([r.status, r.body]).toEqual([401, { message: '401 Unauthorized' }]);
    }
  });
  test('unknown route is 404 {"error"} even without a token', async () => {
    expect(await api('/nope', { token: null })).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
  });
});

describe('projects', () => {
  test('by id or %2F path; a raw slash does not match', async () => {
    const a = await api('/projects/42');
    expect(a.body).toMatchObject({ id: 42, path_with_namespace: 'acme/platform/api', default_branch: 'main', namespace: { full_path: 'acme/platform' } });
    expect((await api(P)).body).toEqual(a.body);
    expect((await api('/projects/acme/platform/api')).status).toBe(404);
  });
  test('private project is invisible to the guest', async () => {
    expect(await api('/projects/43', { token: TOKENS.guest })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await api('/projects/acme%2Fsecret', { token: TOKENS.developer })).status).toBe(200);
  });
  test('PUT default_branch', async () => {
    expect((await api(P, { method: 'PUT', json: { default_branch: 'develop' } })).body.default_branch).toBe('develop');
    expect(forge.model.projects.get(42)!.default_branch).toBe('develop');
    expect(await api(P, { method: 'PUT', form: { default_branch: 'ghost' } })).toMatchObject({
      status: 400,
      body: { message: 'Could not set the default branch' },
    });
    expect((await api(P, { method: 'PUT', json: { default_branch: 'main' }, token: TOKENS.developer })).status).toBe(403);
    expect((await api(P, { method: 'PUT', json: {} })).status).toBe(400);
  });
});

describe('branches', () => {
  test('list is sorted, paginated with headers and links', async () => {
    const r = await api(`${P}/repository/branches`);
    expect(r.body).toHaveLength(20);
    expect(r.body.slice(0, 3).map((b: { name: string }) => b.name)).toEqual(['develop', 'feature/login', 'main']);
    const h = Object.fromEntries(['x-page', 'x-per-page', 'x-total', 'x-total-pages', 'x-next-page', 'x-prev-page'].map((k) => [k, r.headers.get(k)]));
    expect(h).toEqual({ 'x-page': '1', 'x-per-page': '20', 'x-total': '28', 'x-total-pages': '2', 'x-next-page': '2', 'x-prev-page': '' });
    expect(r.headers.get('link')).toContain(`${P}/repository/branches?page=2&per_page=20>; rel="next"`);
    const big = await api(`${P}/repository/branches?per_page=500&search=topic`);
    expect([big.body.length, big.headers.get('x-per-page')]).toEqual([25, '100']);
    expect(big.headers.get('link')).toContain('search=topic');
  });
  test('search anchors', async () => {
    const names = async (s: string) => (await api(`${P}/repository/branches?search=${encodeURIComponent(s)}`)).body.map((b: { name: string }) => b.name);
    expect(await names('^topic-0')).toHaveLength(9);
    expect(await names('login$')).toEqual(['feature/login']);
    expect(await names('^main$')).toEqual(['main']);
  });
  test('get: %2F name, protection flags, 404s', async () => {
    const main = (await api(`${P}/repository/branches/main`)).body;
    expect(main).toMatchObject({ name: 'main', protected: true, default: true, merged: false, can_push: true, commit: { id: SEED.headSha } });
    expect((await api(`${P}/repository/branches/main`, { token: TOKENS.developer })).body.can_push).toBe(false);
    expect((await api(`${P}/repository/branches/feature%2Flogin`)).body).toMatchObject({ name: 'feature/login', protected: false, merged: false });
    expect((await api(`${P}/repository/branches/topic-03`)).body.merged).toBe(true);
    expect((await api(`${P}/repository/branches/feature/login`)).body).toEqual({ error: '404 Not Found' });
    expect(await api(`${P}/repository/branches/ghost`)).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
    expect((await fetch(`${forge.apiUrl}${P}/repository/branches/main`, { method: 'HEAD', headers: { 'private-token': TOKENS.guest } })).status).toBe(204);
  });
  test('create', async () => {
    const r = await api(`${P}/repository/branches`, { json: { branch: 'feature/new', ref: 'main' }, token: TOKENS.developer });
    expect(r).toMatchObject({ status: 201, body: { name: 'feature/new', commit: { id: SEED.headSha }, protected: false } });
    expect((await api(`${P}/repository/branches`, { form: { branch: 'from-sha', ref: SEED.rootSha.slice(0, 8) } })).body.commit.id).toBe(SEED.rootSha);
    expect((await api(`${P}/repository/branches?branch=from-tag&ref=v1.0.0`, { method: 'POST' })).body.commit.id).toBe(SEED.tagSha);
    const release = await api(`${P}/repository/branches`, { json: { branch: 'release/2.0', ref: 'main' } });
    expect(release.body.protected).toBe(true);
    const cases: [unknown, number, unknown][] = [
      [{ ref: 'main' }, 400, { error: 'branch is missing' }],
      [{ branch: 'x' }, 400, { error: 'ref is missing' }],
      [{ branch: 'main', ref: 'main' }, 400, { message: 'Branch already exists' }],
      [{ branch: 'x', ref: 'ghost' }, 400, { message: 'Invalid reference name: ghost' }],
      [{ branch: 'has space', ref: 'main' }, 400, { message: 'Branch name is invalid' }],
    ];
    for (const [json, status, body] of cases) expect(await api(`${P}/repository/branches`, { json })).toMatchObject({ status, body });
    expect((await api(`${P}/repository/branches`, { json: { branch: 'x', ref: 'main' }, token: TOKENS.guest })).body).toEqual({ message: '403 Forbidden' });
  });
  test('delete', async () => {
    const del = (b: string, token?: string) => api(`${P}/repository/branches/${b}`, { method: 'DELETE', token });
    expect((await del('topic-01', TOKENS.developer)).status).toBe(204);
    expect((await del('topic-01')).body).toEqual({ message: '404 Branch Not Found' });
    expect((await del('main')).status).toBe(400);
    await api(`${P}/repository/branches`, { json: { branch: 'release/1.0', ref: 'main' } });
    expect((await del('release%2F1.0')).body.message).toContain('protected branches');
    expect((await del('feature%2Flogin', TOKENS.guest)).status).toBe(403);
    expect(forge.model.projects.get(42)!.branches.has('feature/login')).toBe(true);
  });
});

describe('protected branches', () => {
  const PB = `${P}/protected_branches`;
  test('list, search and get (wildcard raw or %2A)', async () => {
    expect((await api(PB)).body.map((r: { name: string }) => r.name)).toEqual(['main', 'release/*']);
    expect((await api(`${PB}?search=rel`)).body).toHaveLength(1);
    const w = (await api(`${PB}/release%2F%2A`)).body;
    expect(w).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 0, access_level_description: 'No one', user_id: null, group_id: null }],
      merge_access_levels: [{ access_level: 40 }],
      allow_force_push: false,
    });
    expect((await api(`${PB}/release%2F*`)).body).toEqual(w);
    expect(await api(`${PB}/develop`)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });
  test('protect', async () => {
    const r = await api(PB, { json: { name: 'develop', merge_access_level: 30, allow_force_push: true } });
    expect(r).toMatchObject({
      status: 201,
      body: {
        name: 'develop',
        push_access_levels: [{ access_level: 40 }],
        merge_access_levels: [{ access_level: 30 }],
        unprotect_access_levels: [{ access_level: 40 }],
        allow_force_push: true,
      },
    });
    expect((await api(`${P}/repository/branches/develop`)).body).toMatchObject({ protected: true, developers_can_merge: true, developers_can_push: false });
    expect(await api(PB, { form: { name: 'develop' } })).toMatchObject({ status: 409, body: { message: "Protected branch 'develop' already exists" } });
    expect(await api(PB, { json: { name: 'x', push_access_level: 20 } })).toMatchObject({
      status: 400,
      body: { error: 'push_access_level does not have a valid value' },
    });
    // NO_ACCESS is not among UnprotectAccessLevel's allowed levels (EE): nobody could unprotect the rule.
    expect(await api(PB, { json: { name: 'x', unprotect_access_level: 0 } })).toMatchObject({
      status: 400,
      body: { error: 'unprotect_access_level does not have a valid value' },
    });
    expect((await api(PB, { json: {} })).body).toEqual({ error: 'name is missing' });
    expect((await api(PB, { json: { name: 'y' }, token: TOKENS.developer })).status).toBe(403);
  });
  test('patch: flags only on CE (allowed_to_* ignored unread), allowed_to_* with premium', async () => {
    forge.model.edition = 'ce';
    expect((await api(`${PB}/main`, { method: 'PATCH', json: { allow_force_push: true } })).body.allow_force_push).toBe(true);
    const arr = { allowed_to_push: [{ access_level: 30 }] };
    const ignored = await api(`${PB}/main`, { method: 'PATCH', json: arr });
    expect([ignored.status, ignored.body.push_access_levels.map((e: { access_level: number }) => e.access_level)]).toEqual([200, [40]]);
    forge.model.premium = true;
    const r = await api(`${PB}/main`, { method: 'PATCH', json: arr });
    expect(r.body.push_access_levels.map((e: { access_level: number }) => e.access_level)).toEqual([40, 30]);
    const id = r.body.push_access_levels[0].id;
    const f = new URLSearchParams([
      ['allowed_to_push[][id]', String(id)],
      ['allowed_to_push[][_destroy]', 'true'],
    ]);
    const r2 = await fetch(`${forge.apiUrl}${PB}/main`, { method: 'PATCH', body: f, headers: { 'private-token': TOKENS.maintainer } });
    expect(((await r2.json()) as { push_access_levels: unknown[] }).push_access_levels).toEqual([expect.objectContaining({ access_level: 30 })]);
  });
  test('unprotect', async () => {
    expect((await api(`${PB}/release%2F%2A`, { method: 'DELETE', token: TOKENS.developer })).status).toBe(403);
    expect((await api(`${PB}/release%2F%2A`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`${PB}/release%2F%2A`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('commits', () => {
  const C = `${P}/repository/commits`;
  const ids = (r: { body: { id: string }[] }) => r.body.map((c) => c.id);
  test('log from the default branch, first_parent, ranges and refs', async () => {
    const all = await api(`${C}?per_page=100`);
    // GitLab does not count commits (lib/api/commits.rb: exclude_total_headers, without_count).
    expect([all.headers.get('x-total'), all.headers.get('x-total-pages'), all.body.length, all.body[0].id]).toEqual([null, null, 31, SEED.headSha]);
    expect(ids(all)).toContain(SEED.hotfixSha);
    expect(ids(await api(`${C}?per_page=100&first_parent=true`))).toEqual([...SEED.mainShas].reverse());
    expect(ids(await api(`${C}?ref_name=feature/login&per_page=2`))).toEqual([...SEED.featureShas].reverse());
    expect(ids(await api(`${C}?ref_name=main..develop`))).toEqual([...SEED.developShas].reverse());
    const one = await api(`${C}?all=true&per_page=1`);
    expect([one.headers.get('x-total'), one.headers.get('x-next-page')]).toEqual([null, '2']);
    // A full last page still promises a next one, which is empty.
    const last = await api(`${C}?per_page=31`);
    expect([last.body.length, last.headers.get('x-next-page')]).toEqual([31, '2']);
    const after = await api(`${C}?per_page=31&page=2`);
    expect([after.body.length, after.headers.get('x-next-page')]).toEqual([0, '']);
    expect(await api(`${C}?ref_name=ghost`)).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
  });
  test('filters: since/until inclusive, path, author; stats and trailers', async () => {
    const m = SEED.mainShas;
    expect(ids(await api(`${C}?since=2024-01-11T09:00:00Z&until=2024-01-13T09:00:00Z`))).toEqual([m[11], m[10], m[9]]);
    expect(ids(await api(`${C}?path=src/app.ts`))).toEqual([...SEED.blameShas].reverse());
    expect(ids(await api(`${C}?path=docs`))).toEqual([m[14], m[2]]);
    const byDev = (await api(`${C}?author=dev@forge.test&per_page=100`)).body;
    expect(byDev.length).toBe(8);
    expect((await api(`${C}?since=yesterday-ish`)).body).toEqual({ error: 'since is invalid' });
    const [c] = (await api(`${C}?with_stats=true&per_page=1`)).body;
    expect(c.stats).toEqual({ additions: 1, deletions: 1, total: 2 });
    const t = (await api(`${C}?trailers=true&since=2024-01-23T09:00:00Z&until=2024-01-23T09:00:00Z`)).body[0];
    expect(t).toMatchObject({ id: SEED.trailerSha, trailers: { 'Signed-off-by': 'Devon Park <dev@forge.test>' } });
    expect((await api(`${C}?since=2024-01-23T09:00:00Z&until=2024-01-23T09:00:00Z`)).body[0].trailers).toEqual({});
  });
  test('get by sha, short sha, encoded branch and tag', async () => {
    const head = (await api(`${C}/${SEED.headSha}`)).body;
    expect(head).toMatchObject({
      id: SEED.headSha,
      short_id: SEED.headSha.slice(0, 8),
      stats: { total: 2 },
      status: 'running',
      last_pipeline: { id: 2002, status: 'running', ref: 'main' },
    });
    expect((await api(`${C}/${SEED.headSha.slice(0, 7)}?stats=false`)).body.stats).toBeUndefined();
    expect((await api(`${C}/feature%2Flogin`)).body.id).toBe(SEED.featureShas[1]);
    expect((await api(`${C}/v1.0.0`)).body).toMatchObject({ id: SEED.tagSha, status: null, last_pipeline: null });
    expect(await api(`${C}/deadbeef`)).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
  });
  test('diff is paginated', async () => {
    const p1 = await api(`${C}/${SEED.diffSha}/diff`);
    expect([p1.body.length, p1.headers.get('x-total'), p1.headers.get('x-total-pages')]).toEqual([20, '45', '3']);
    expect(p1.body[0]).toMatchObject({ renamed_file: true, new_file: false, deleted_file: false, a_mode: '100644' });
    expect((await api(`${C}/${SEED.diffSha}/diff?page=3`)).body).toHaveLength(5);
    expect((await api(`${C}/${SEED.diffSha}/diff?page=4`)).headers.get('x-prev-page')).toBe('');
  });
});

describe('blame', () => {
  const B = `${P}/repository/files/src%2Fapp.ts/blame`;
  test('whole file and clipped range', async () => {
    const all = (await api(`${B}?ref=main`)).body;
    expect(all.map((r: { commit: { id: string } }) => r.commit.id)).toEqual(SEED.blameShas);
    expect(all.flatMap((r: { lines: string[] }) => r.lines)).toHaveLength(12);
    const part = (await api(`${B}?ref=main&range[start]=3&range[end]=6`)).body;
    expect(part.map((r: { lines: string[] }) => r.lines.length)).toEqual([2, 2]);
    expect((await api(`${P}/repository/files/docs%2Fguide%2Fintro.md/blame?ref=v1.0.0`)).status).toBe(200);
  });
  test('errors', async () => {
    expect((await api(B)).body).toEqual({ error: 'ref is missing' });
    expect((await api(`${B}?ref=main&range[start]=2`)).body).toEqual({ error: 'range[end] is missing' });
    expect((await api(`${B}?ref=main&range[start]=2&range[end]=13`)).status).toBe(400);
    expect((await api(`${B}?ref=main&range[start]=5&range[end]=2`)).status).toBe(400);
    expect(await api(`${P}/repository/files/src%2Fnope.ts/blame?ref=main`)).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
    expect((await api(`${B}?ref=${SEED.rootSha}`)).body).toEqual({ message: '404 File Not Found' });
    expect((await api(`${P}/repository/files/src/app.ts/blame?ref=main`)).body).toEqual({ error: '404 Not Found' });
  });
});

describe('commit statuses', () => {
  const L = `${P}/repository/commits/${SEED.headSha}/statuses`;
  const S = `${P}/statuses/${SEED.headSha}`;
  test('list hides retried jobs unless all=true; filters and order', async () => {
    expect((await api(L)).body.map((s: { id: number }) => s.id)).toEqual([1001, 1003, 1004]);
    expect((await api(`${L}?all=true`)).body).toHaveLength(4);
    expect((await api(`${L}?stage=test&sort=desc`)).body.map((s: { id: number }) => s.id)).toEqual([1004, 1003]);
    expect((await api(`${L}?pipeline_id=2002`)).body[0]).toMatchObject({ name: 'lint', status: 'running', author: { username: 'dev' } });
    expect((await api(`${P}/repository/commits/0000000/statuses`)).status).toBe(404);
  });
  test('create follows the state machine', async () => {
    const post = (json: unknown, token?: string) => api(S, { json, token });
    expect((await post({})).body).toEqual({ error: 'state is missing' });
    expect((await post({ state: 'done' })).body).toEqual({ error: 'state does not have a valid value' });
    expect((await post({ state: 'pending' }, TOKENS.guest)).status).toBe(403);
    // POST …/statuses does not read a job token (doc/ci/jobs/ci_job_token.md lists no such route):
    // the request is anonymous, and the private project invisible.
    expect((await api(S, { json: { state: 'pending', context: 'deploy' }, headers: { 'job-token': TOKENS.job } })).status).toBe(404);
    const a = await api(S, { json: { state: 'pending', context: 'deploy' }, token: TOKENS.developer });
    expect(a).toMatchObject({ status: 201, body: { name: 'deploy', ref: 'main', status: 'pending', pipeline_id: 2002, author: { id: 2 } } });
    // Only that user's own running job is updated.
    const dev = (json: unknown) => post(json, TOKENS.developer);
    expect((await dev({ state: 'pending', name: 'deploy' })).body).toEqual({ message: 'Cannot transition status via :enqueue from :pending' });
    expect((await dev({ state: 'running', name: 'deploy' })).body).toMatchObject({ id: a.body.id, status: 'running' });
    expect((await dev({ state: 'running', name: 'deploy' })).body).toEqual({ message: 'Cannot transition status via :run from :running' });
    expect((await dev({ state: 'success', name: 'deploy', coverage: 91.5 })).body).toMatchObject({ id: a.body.id, coverage: 91.5 });
    const again = await post({ state: 'failed', name: 'deploy' });
    expect(again.body.id).toBeGreaterThan(a.body.id);
    expect((await api(`${L}?name=deploy`)).body.map((s: { id: number }) => s.id)).toEqual([again.body.id]);
    expect((await post({ state: 'success', name: 'x', pipeline_id: 999 })).body).toEqual({ message: '404 Pipeline for pipeline_id, sha and ref Not Found' });
    expect((await api(`${P}/statuses/${SEED.featureShas[1]}`, { form: { state: 'success' } })).body.ref).toBe('feature/login');
  });
});

describe('control surface', () => {
  test('records raw paths, queries and bodies', async () => {
    await api(`${P}/repository/branches/feature%2Flogin?x=1`);
    await api(`${P}/repository/branches`, { json: { branch: 'b1', ref: 'main' } });
    const [g, p] = forge.requests;
    expect([g.method, g.path, g.query.get('x')]).toEqual(['GET', '/api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/feature%2Flogin', '1']);
    expect([p.method, p.body, p.headers.get('private-token')]).toEqual(['POST', { branch: 'b1', ref: 'main' }, TOKENS.maintainer]);
  });
  test('failNext is one-shot, filtered, and counted by times', async () => {
    forge.failNext({ status: 429, headers: { 'Retry-After': '7' }, pathIncludes: 'feature/login', method: 'get' });
    expect((await api('/user')).status).toBe(200);
    const r = await api(`${P}/repository/branches/feature%2Flogin`, { token: null });
    expect([r.status, r.headers.get('retry-after'), r.body]).toEqual([429, '7', { message: '429 Too Many Requests' }]);
    expect((await api(`${P}/repository/branches/feature%2Flogin`)).status).toBe(200);
    forge.failNext({ status: 502, body: 'bad gateway', times: 2 });
    expect([(await fetch(`${forge.apiUrl}/user`)).status, (await fetch(`${forge.apiUrl}/user`)).status]).toEqual([502, 502]);
    expect(forge.requests).toHaveLength(5);
    forge.failNext({ status: 503 });
    forge.reset();
    expect([forge.requests.length, (await api('/user')).status]).toEqual([0, 200]);
  });
  test('msw handlers intercept fetch in-process', async () => {
    const control = new ForgeControl();
    const server = setupServer(...fakeForgeHandlers('http://gitlab.test/api/v4', seedModel(), control.hooks));
    server.listen({ onUnhandledRequest: 'bypass' });
    try {
      const r = await fetch('http://gitlab.test/api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/feature%2Flogin', {
        headers: { 'private-token': TOKENS.guest },
      });
      expect([r.status, ((await r.json()) as { name: string }).name]).toEqual([200, 'feature/login']);
      expect(control.requests[0].path).toBe('/api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/feature%2Flogin');
    } finally {
      server.close();
    }
  });
});
