// Merge request tools through an MCP client against the fake forge: list, get (by iid or source
// branch), create, update (draft as a title prefix), merge (sha guard, auto-merge, the conflict kind
// when GitLab refuses), diffs within budgets and versions; the group's tools/list size.
import { bytesPerToolBudget, groupBytesPerTool } from '../../src/tools/listing-size';
import { beforeEach, describe, expect, test } from 'bun:test';
import { ALL_TOOLS } from '../../src/tools/catalog';
import { ACCESS, CI_SEED, MILESTONE_SEED, MR_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { forgeApi } from '../support/forge-api';
import { structured, toolError, type Lane } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'merge_requests' });
// These tests mean the Free tier unless they say otherwise (the fake forge plays Premium by default).
beforeEach(() => {
  h.forge.model.edition = 'ce';
});
const P = String(SEED.project);
const MRS = `/api/v4/projects/${P}/merge_requests`;
type MR = {
  iid: number;
  title: string;
  state: string;
  draft: boolean;
  labels: string[];
  sha: string;
  detailed_merge_status: string;
  merge_when_pipeline_succeeds: boolean;
  reviewers: { username: string }[];
  diff_refs: Record<string, string>;
};
type Page<T> = { items: T[]; pagination: { total: number | null; next_page: number | null } };
type Row = [number | null, number | null, string];
type Diff = { new_path: string; new_file?: boolean; lines?: Row[]; diff_truncated?: boolean; diff_lines_omitted?: number; diff_omitted?: boolean };
/** The diff text of numbered rows (D43): the rows' texts joined by newlines. */
const textOf = (d: Diff) => (d.lines ?? []).map((row) => row[2]).join('\n');
const project = () => h.forge.model.projects.get(SEED.project)!;
const mr = (iid: number) => project().mergeRequests.find((m) => m.iid === iid)!;
const state = (iid: number) => h.forge.model.reviews.of(mr(iid));

const client = (lane: Lane, token?: string) => h.on(lane, token);
const LANES: Lane[] = ['legacy', 'modern'];
const sent = () => h.toolUpstream();

describe('tools/list of the merge_requests group', () => {
  // D40 replaced the 12 KB per group with 1.3 times the group's bytes per tool at 868e772.
  test('stays within its tools/list budget per tool (D40)', () => {
    expect(groupBytesPerTool('merge_requests')).toBeLessThanOrEqual(bytesPerToolBudget('merge_requests'));
  });

  test('is listed only when enabled: not in the default groups', async () => {
    const c = await h.as();
    const names = (await c.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('merge_merge_request');
    expect(ALL_TOOLS.filter((t) => t.group === 'merge_requests').every((t) => names.includes(t.name))).toBe(true);
  });
});

describe.each(LANES)('list_merge_requests (%s lane)', (lane) => {
  test("in a project: everyone's merge requests with GitLab's filters", async () => {
    const c = await client(lane);
    const page = structured<Page<MR>>(
      await c.call('list_merge_requests', { project_id: SEED.projectPath, state: 'opened', reviewer_username: 'maria', labels: ['auth'] }),
    );
    expect(page.items.map((m) => m.iid)).toEqual([1]);
    expect(sent()).toEqual([`GET /api/v4/projects/${SEED.projectPathEncoded}/merge_requests`]);
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toEqual({ state: 'opened', reviewer_username: 'maria', labels: 'auth' });
  });

  test("across projects GitLab's default scope is the caller's own; wip yes lists drafts", async () => {
    const c = await client(lane, TOKENS.developer);
    expect(structured<Page<MR>>(await c.call('list_merge_requests', {})).items.map((m) => m.iid)).toEqual([5, 4, 3, 1]);
    expect(structured<Page<MR>>(await c.call('list_merge_requests', { wip: 'yes', scope: 'all' })).items.map((m) => m.iid)).toEqual([3]);
  });

  test("scope reviews_for_me (GitLab 18.4): the merge requests waiting on the caller's review, across projects", async () => {
    h.forge.model.version = '18.4.0';
    const c = await client(lane, TOKENS.maintainer);
    expect(structured<Page<MR>>(await c.call('list_merge_requests', { scope: 'reviews_for_me' })).items.map((m) => m.iid)).toEqual([1]);
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toEqual({ scope: 'reviews_for_me' });
  });

  test.each(['17.6.0', '18.2.0'] as const)('scope reviews_for_me on GitLab %s: refused before the list, naming the release', async (version) => {
    h.forge.model.version = version;
    // GitLab itself answers 400 (the value is not among the scope's values yet).
    expect((await forgeApi(h.forge, '/merge_requests?scope=reviews_for_me')).status).toBe(400);
    h.forge.requests.length = 0;
    const error = toolError(await (await client(lane, TOKENS.maintainer)).call('list_merge_requests', { scope: 'reviews_for_me' }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toBe(`scope: reviews_for_me needs GitLab 18.4 or later; this forge runs ${version}`);
    expect(sent()).toEqual(['GET /api/v4/metadata']);
  });

  test('an unknown project is not_found from the forge', async () => {
    const c = await client(lane);
    expect(toolError(await c.call('list_merge_requests', { project_id: 'acme/nothing' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Project Not Found',
    });
  });
});

describe('list_merge_requests validation', () => {
  test.each([
    [{ assignee_id: 'nobody' }, 'assignee_id: must be a numeric user id, none or any'],
    [{ reviewer_id: '2', reviewer_username: 'maria' }, 'reviewer_username: cannot be combined with reviewer_id; give one of them'],
    [{ project_id: '..' }, 'project_id: must not be "." or ".."'],
    [{ search: 'x'.repeat(1001) } as Record<string, unknown>, 'search: must be at most 1000 characters (got 1001)'],
  ])('refuses bad arguments (case %#) before any upstream call', async (args, message) => {
    const c = await h.as();
    const error = toolError(await c.call('list_merge_requests', args));
    expect([error.kind, error.status]).toEqual(['validation', null]);
    expect(error.message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });
});

describe('get_merge_request', () => {
  test('by iid: the full record with diff_refs and the head sha', async () => {
    const c = await h.as();
    const got = structured<MR>(await c.call('get_merge_request', { project_id: P, merge_request_iid: 1 }));
    expect(got).toMatchObject({ iid: 1, sha: MR_SEED.diffRefs.head_sha, diff_refs: MR_SEED.diffRefs, detailed_merge_status: 'mergeable' });
    expect(h.upstream()).toEqual([`GET ${MRS}/1`]);
  });

  test('lean by default (users reduced, presentation dropped), the forge record with full_response', async () => {
    const c = await h.as();
    const lean = structured<Record<string, unknown>>(await c.call('get_merge_request', { project_id: P, merge_request_iid: 1 }));
    // The head pipeline is the seed's pipeline of feature/login at the head sha, which failed.
    expect(lean).toMatchObject({
      head_pipeline: { id: CI_SEED.pipelines.featureFailed, status: 'failed' },
      reviewers: [{ id: 1, username: 'maria', name: 'Maria Rossi' }],
      can_merge: true,
    });
    for (const dropped of ['time_stats', 'references', 'task_completion_status', 'imported_from', 'merge_status']) expect(lean).not.toHaveProperty(dropped);
    const full = structured<Record<string, unknown>>(await c.call('get_merge_request', { project_id: P, merge_request_iid: 1, full_response: true }));
    expect(full).toHaveProperty('time_stats');
    expect(JSON.stringify(full)).toContain('avatar_url');
    expect(JSON.stringify(full).length).toBeGreaterThan(2 * JSON.stringify(lean).length);
  });

  test('by source branch: its open merge request', async () => {
    const c = await h.as();
    const got = structured<MR>(await c.call('get_merge_request', { project_id: P, source_branch: 'feature/login' }));
    expect(got.iid).toBe(1);
    expect(h.upstream()).toEqual([`GET ${MRS}`, `GET ${MRS}/1`]);
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({ source_branch: 'feature/login', state: 'opened', per_page: '1' });
  });

  test('a branch without a merge request, and an unknown iid, are not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_merge_request', { project_id: P, source_branch: 'develop' }))).toMatchObject({
      kind: 'not_found',
      message: 'no merge request has source branch develop',
    });
    expect(toolError(await c.call('get_merge_request', { project_id: P, merge_request_iid: 99 }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Merge Request Not Found',
    });
  });

  test.each([
    [{ project_id: P }, 'merge_request_iid: give merge_request_iid or source_branch, exactly one'],
    [{ project_id: P, merge_request_iid: 1, source_branch: 'x' }, 'merge_request_iid: give merge_request_iid or source_branch, exactly one'],
    [{ project_id: P, merge_request_iid: '../1' }, 'merge_request_iid: must be a positive integer id such as 42'],
    [{ project_id: P, source_branch: 'a/../b' }, 'source_branch: must not be "." or ".." nor contain'],
  ])('refuses %j before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('get_merge_request', args)).message).toStartWith(message);
    expect(h.upstream()).toEqual([]);
  });
});

describe('create_merge_request', () => {
  test("opens a merge request; labels as GitLab's comma list, draft as the title prefix", async () => {
    const c = await h.as(TOKENS.developer);
    const created = structured<MR>(
      await c.call('create_merge_request', {
        project_id: P,
        title: 'Wire the gateway',
        source_branch: 'develop',
        target_branch: 'main',
        labels: ['api', 'gateway'],
        reviewer_ids: [1],
        draft: true,
      }),
    );
    expect(created).toMatchObject({ iid: 6, title: 'Draft: Wire the gateway', draft: true, labels: ['api', 'gateway'], reviewers: [{ username: 'maria' }] });
    // The write itself, after the look-up of the labels it names (labels_created).
    expect(h.forge.requests.find((r) => r.method === 'POST')!.body).toEqual({
      title: 'Draft: Wire the gateway',
      source_branch: 'develop',
      target_branch: 'main',
      labels: 'api,gateway',
      reviewer_ids: [1],
    });
  });

  test('upstream refusals: an open merge request for the branches (409 conflict), a missing branch (422), a guest (403)', async () => {
    const dev = await h.as(TOKENS.developer);
    const args = { project_id: P, title: 'Again', source_branch: 'feature/login', target_branch: 'main' };
    expect(toolError(await dev.call('create_merge_request', args))).toMatchObject({
      kind: 'conflict',
      status: 409,
      message: expect.stringContaining('Another open merge request already exists for this source branch: !1'),
    });
    expect(toolError(await dev.call('create_merge_request', { ...args, source_branch: 'nope' }))).toMatchObject({
      kind: 'validation',
      status: 422,
      message: expect.stringContaining('Source branch "nope" does not exist'),
    });
    const guest = await h.as(TOKENS.guest);
    expect(toolError(await guest.call('create_merge_request', { ...args, source_branch: 'develop' }))).toMatchObject({ kind: 'permission', status: 403 });
  });

  test('two assignees or two reviewers: refused on CE, which would keep the first and drop the rest; kept on Premium', async () => {
    const base = { project_id: P, title: 'Two', source_branch: 'develop', target_branch: 'main' };
    for (const [tool, args, problem] of [
      ['create_merge_request', { ...base, assignee_ids: [1, 2] }, 'assignee_ids: more than one assignee'],
      ['update_merge_request', { project_id: P, merge_request_iid: 1, reviewer_ids: [1, 2] }, 'reviewer_ids: more than one reviewer'],
    ] as const) {
      h.forge.model.edition = 'ce';
      h.app.instances.clear();
      h.forge.requests.length = 0;
      const refused = toolError(await (await h.as(TOKENS.developer)).call(tool, args));
      expect(refused).toMatchObject({ kind: 'validation', status: null });
      expect(refused.message).toStartWith(`${problem} needs GitLab Premium or Ultimate; this forge runs the Community Edition`);
      expect(sent()).toEqual(['GET /api/v4/metadata']);
      h.forge.model.edition = 'ee-premium';
      h.app.instances.clear();
      const kept = structured<MR>(await (await h.as(TOKENS.developer)).call(tool, args));
      expect(state(kept.iid)).toMatchObject('assignee_ids' in args ? { assignee_ids: [1, 2] } : { reviewer_ids: [1, 2] });
    }
    h.forge.model.edition = 'ce';
    h.app.instances.clear();
    structured(
      await (await h.as(TOKENS.developer)).call('update_merge_request', { project_id: P, merge_request_iid: 1, assignee_ids: [1], reviewer_ids: [2] }),
    );
    expect(state(1)).toMatchObject({ assignee_ids: [1], reviewer_ids: [2] });
  });

  test('EE without a licence keeps only the first assignee and reviewer, silently: the rest is listed in not_applied', async () => {
    h.forge.model.edition = 'ee-free';
    const c = await h.as(TOKENS.developer);
    const base = { project_id: P, title: 'Two', source_branch: 'develop', target_branch: 'main' };
    const created = structured<MR & { not_applied?: string[] }>(await c.call('create_merge_request', { ...base, assignee_ids: [1, 2], reviewer_ids: [2, 1] }));
    expect(state(created.iid)).toMatchObject({ assignee_ids: [1], reviewer_ids: [2] });
    expect(created.not_applied).toEqual([
      'assignee_ids (kept: 1; more than one needs a GitLab Premium or Ultimate licence)',
      'reviewer_ids (kept: 2; more than one needs a GitLab Premium or Ultimate licence)',
    ]);
    const updated = structured<MR & { not_applied?: string[] }>(
      await c.call('update_merge_request', { project_id: P, merge_request_iid: 1, reviewer_ids: [1, 2] }),
    );
    expect(updated.not_applied).toEqual(['reviewer_ids (kept: 1; more than one needs a GitLab Premium or Ultimate licence)']);
    // Everything kept: no not_applied; [] clears and is kept as asked.
    const one = structured<MR & { not_applied?: string[] }>(
      await c.call('update_merge_request', { project_id: P, merge_request_iid: 1, assignee_ids: [2], reviewer_ids: [] }),
    );
    expect(one.not_applied).toBeUndefined();
    expect(state(1)).toMatchObject({ assignee_ids: [2], reviewer_ids: [] });
    // A licensed EE keeps both: nothing listed.
    h.forge.model.edition = 'ee-premium';
    expect(
      structured<{ not_applied?: string[] }>(await c.call('update_merge_request', { project_id: P, merge_request_iid: 1, reviewer_ids: [1, 2] })).not_applied,
    ).toBeUndefined();
  });

  const fromFork = { project_id: SEED.fork.path, title: 'Link the guide', source_branch: SEED.fork.branch, target_branch: 'main' };

  test('from a fork: target_project_id opens it in the target, whose iid and web_url it has; the record names the fork as its source', async () => {
    const c = await h.as(TOKENS.developer);
    const created = structured<MR & Record<string, unknown>>(await c.call('create_merge_request', { ...fromFork, target_project_id: P }));
    expect(created).toMatchObject({
      iid: 6,
      project_id: SEED.project,
      source_project_id: SEED.fork.project,
      source_branch: SEED.fork.branch,
      sha: SEED.fork.sha,
      web_url: `http://forge.test/${SEED.projectPath}/-/merge_requests/6`,
    });
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${encodeURIComponent(SEED.fork.path)}/merge_requests`]);
    expect(h.forge.requests[0].body).toEqual({
      title: 'Link the guide',
      source_branch: SEED.fork.branch,
      target_branch: 'main',
      target_project_id: SEED.project,
    });
    expect(project().mergeRequests.at(-1)).toMatchObject({ iid: 6, source_project_id: SEED.fork.project });
    // Later calls name the target project.
    expect(structured<MR>(await c.call('get_merge_request', { project_id: P, merge_request_iid: created.iid })).sha).toBe(SEED.fork.sha);
  });

  test("from a fork, GitLab's refusals: a target outside the fork network (422), no such project (404), one the caller may not open merge requests in (403)", async () => {
    const c = await h.as(TOKENS.developer);
    const create = (target: number) => c.call('create_merge_request', { ...fromFork, target_project_id: target }).then(toolError);
    expect(await create(SEED.privateProject)).toMatchObject({
      kind: 'validation',
      status: 422,
      message: expect.stringContaining('Source project is not a fork of the target project'),
    });
    expect(await create(999_999)).toMatchObject({ kind: 'not_found', status: 404 });
    expect(await create(MILESTONE_SEED.personalProject)).toMatchObject({ kind: 'permission', status: 403 });
    expect(project().mergeRequests.map((m) => m.iid)).toEqual([1, 2, 3, 4, 5]);
  });

  test.each([0, -1, 2 ** 53, 1e30, '99999999999999999999', 'abc', '..', SEED.projectPath, 4.2, '', true])(
    'target_project_id %p is refused naming it; nothing is sent',
    async (value) => {
      const c = await h.as(TOKENS.developer);
      const error = toolError(await c.call('create_merge_request', { ...fromFork, target_project_id: value }));
      expect([error.kind, error.status]).toEqual(['validation', null]);
      expect(error.message).toStartWith('target_project_id: must be');
      expect(h.upstream()).toEqual([]);
    },
  );

  test('a title over 255 characters or a `..` branch never reaches the forge', async () => {
    const c = await h.as();
    const base = { project_id: P, title: 'T', source_branch: 'develop', target_branch: 'main' };
    expect(toolError(await c.call('create_merge_request', { ...base, title: 't'.repeat(256) })).message).toBe(
      'title: must be at most 255 characters (got 256)',
    );
    expect(toolError(await c.call('create_merge_request', { ...base, target_branch: '..' })).message).toStartWith('target_branch: must not be "." or ".."');
    expect(toolError(await c.call('create_merge_request', { ...base, description: 'd'.repeat(1_000_001) })).message).toBe(
      'description: must be at most 1000000 characters (got 1000001)',
    );
    expect(h.upstream()).toEqual([]);
  });
});

describe('update_merge_request', () => {
  test('changes fields; lists replace', async () => {
    const c = await h.as(TOKENS.developer);
    const updated = structured<MR>(
      await c.call('update_merge_request', { project_id: P, merge_request_iid: 1, labels: ['auth', 'sso'], reviewer_ids: [], squash: true }),
    );
    expect(updated.labels).toEqual(['auth', 'sso']);
    expect(updated).not.toHaveProperty('reviewers');
    expect(state(1)).toMatchObject({ squash: true, reviewer_ids: [] });
    expect(h.forge.requests.find((r) => r.method === 'PUT')!.body).toEqual({ labels: 'auth,sso', reviewer_ids: [], squash: true });
  });

  test('draft without a title reads the title first; draft: false drops any draft prefix', async () => {
    const c = await h.as(TOKENS.developer);
    expect(structured<MR>(await c.call('update_merge_request', { project_id: P, merge_request_iid: 1, draft: true })).title).toBe(
      'Draft: Fix SSO login redirect',
    );
    expect(h.upstream()).toEqual([`GET ${MRS}/1`, `PUT ${MRS}/1`]);
    expect(structured<MR>(await c.call('update_merge_request', { project_id: P, merge_request_iid: 3, draft: false })).title).toBe('tune cache sizes');
    expect(structured<MR>(await c.call('update_merge_request', { project_id: P, merge_request_iid: 5, title: '[Draft] Bump', draft: true })).title).toBe(
      'Draft: Bump',
    );
  });

  test('only GitLab\'s markers make a draft: a title starting with the word "Draft" is none; draft: false drops every marker', async () => {
    const c = await h.as(TOKENS.developer);
    const update = async (args: Record<string, unknown>) =>
      structured<MR>(await c.call('update_merge_request', { project_id: P, merge_request_iid: 5, ...args }));
    // The lean record leaves out a draft flag that is false.
    const draft = (title: string, value: boolean) => update({ title, draft: value }).then((r) => ({ title: r.title, draft: r.draft ?? false }));
    expect(await draft('Draft release notes for v2', false)).toEqual({ title: 'Draft release notes for v2', draft: false });
    expect(await draft('Draft release notes for v2', true)).toEqual({ title: 'Draft: Draft release notes for v2', draft: true });
    expect(await draft('Draft: [Draft] (draft) Bump', false)).toEqual({ title: 'Bump', draft: false });
  });

  test('closes; a guest is refused by the forge (403)', async () => {
    const c = await h.as(TOKENS.developer);
    expect(structured<MR>(await c.call('update_merge_request', { project_id: P, merge_request_iid: 5, state_event: 'close' })).state).toBe('closed');
    const guest = await h.as(TOKENS.guest);
    expect(toolError(await guest.call('update_merge_request', { project_id: P, merge_request_iid: 1, title: 'Mine now' }))).toEqual({
      kind: 'permission',
      status: 403,
      message: '403 Forbidden',
    });
  });

  test('nothing to change is refused before any upstream call', async () => {
    const c = await h.as();
    expect(toolError(await c.call('update_merge_request', { project_id: P, merge_request_iid: 1 })).message).toStartWith(
      'arguments: give at least one field to change',
    );
    expect(h.upstream()).toEqual([]);
  });
});

describe.each(LANES)('merge_merge_request (%s lane)', (lane) => {
  test('merges with the reviewed head sha', async () => {
    const c = await client(lane);
    const merged = structured<MR>(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1, sha: MR_SEED.diffRefs.head_sha, squash: true }));
    expect(merged.state).toBe('merged');
    expect(state(1).squash_commit_sha).not.toBeNull();
    expect(sent()).toEqual([`PUT ${MRS}/1/merge`]);
  });

  test('merged though its head pipeline failed or still runs: the result says so (D43); a passed one or an auto-merge says nothing', async () => {
    const c = await client(lane);
    // The seed's head pipeline failed, and the project does not require a successful one (GitLab's default).
    const merged = structured<MR & { head_pipeline_warning?: string }>(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 }));
    expect(merged.state).toBe('merged');
    expect(merged.head_pipeline_warning).toBe(
      `merged although its head pipeline ${CI_SEED.pipelines.featureFailed} failed: the target branch now has code that did not pass it`,
    );
    expect(merged).toMatchObject({ head_pipeline: { id: CI_SEED.pipelines.featureFailed, status: 'failed' } });
  });

  test.each([
    ['running', /^merged while its head pipeline \d+ was still running: whether the merged code passes is not known yet$/],
    ['pending', /^merged while its head pipeline \d+ was still pending: whether the merged code passes is not known yet$/],
    ['success', undefined],
  ] as const)('head pipeline %s: %p', async (status, warning) => {
    state(1).head_pipeline_status = status;
    state(1).head_pipeline_id = null;
    const c = await client(lane);
    const merged = structured<MR & { head_pipeline_warning?: string }>(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 }));
    expect(merged.state).toBe('merged');
    if (warning) expect(merged.head_pipeline_warning).toMatch(warning);
    else expect(merged).not.toHaveProperty('head_pipeline_warning');
  });

  test('a sha that is no longer the head: conflict, nothing merged', async () => {
    const c = await client(lane);
    const error = toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1, sha: MR_SEED.firstRefs.head_sha }));
    expect(error).toMatchObject({ kind: 'conflict', status: 409 });
    expect(error.message).toStartWith(`SHA does not match HEAD of source branch: ${MR_SEED.diffRefs.head_sha}; the source branch moved`);
    expect(mr(1).state).toBe('opened');
  });
});

describe('merge_merge_request and approve_merge_request: the sha guard', () => {
  // GitLab compares sha with the head as strings (check_sha_param!, lib/api/helpers.rb): an
  // abbreviated SHA, a branch name or an upper-case SHA never matches, and GitLab's 409 would tell
  // the agent the branch moved when it did not.
  const head = MR_SEED.diffRefs.head_sha;
  test.each([['merge_merge_request'], ['approve_merge_request']])(
    '%s: an abbreviated sha or a branch name is refused before anything is sent',
    async (tool) => {
      const c = await h.as();
      for (const sha of [head.slice(0, 8), 'feature/login']) {
        const error = toolError(await c.call(tool, { project_id: P, merge_request_iid: 1, sha }));
        expect([error.kind, error.status]).toEqual(['validation', null]);
        expect(error.message).toStartWith('sha: must be the full head SHA');
      }
      expect(h.upstream()).toEqual([]);
      expect(mr(1).state).toBe('opened');
    },
  );

  test('an upper-case full sha is the same commit: sent in lower case, as GitLab stores it', async () => {
    const c = await h.as();
    expect(structured<MR>(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1, sha: head.toUpperCase() })).state).toBe('merged');
    expect(h.forge.requests.at(-1)!.body).toEqual({ sha: head });
  });
});

describe('merge_merge_request: squash', () => {
  // GitLab's merge endpoint changes the merge request's squash setting only to true
  // (merge_request.update(squash: params[:squash]) if params[:squash], lib/api/merge_requests.rb):
  // squash: false would be dropped and a merge request set to squash squashed all the same.
  test('squash: false is refused before anything is sent, pointing at update_merge_request', async () => {
    state(1).squash = true;
    const c = await h.as();
    const error = toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1, squash: false }));
    expect([error.kind, error.status]).toEqual(['validation', null]);
    expect(error.message).toStartWith('squash: false is ignored by GitLab when merging');
    expect(error.message).toContain('update_merge_request with squash: false');
    expect(h.upstream()).toEqual([]);
    expect(mr(1).state).toBe('opened');
  });
});

describe('merge_merge_request refusals', () => {
  test("GitLab's 405 becomes conflict naming detailed_merge_status and what to do", async () => {
    const c = await h.as();
    const conflicted = toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: MR_SEED.conflictIid }));
    expect(conflicted).toMatchObject({ kind: 'conflict', status: 405 });
    expect(conflicted.message).toBe(
      'the merge request cannot be merged now (detailed_merge_status: conflict): the source branch has conflicts with the target: rebase or resolve them first. GitLab said: 405 Method Not Allowed',
    );
    expect(toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: MR_SEED.draftIid })).message).toContain(
      '(detailed_merge_status: draft_status): it is a draft',
    );
    expect(sent()).toEqual([`PUT ${MRS}/5/merge`, `GET ${MRS}/5`, `PUT ${MRS}/3/merge`, `GET ${MRS}/3`]);
  });

  test('GitLab 18.2 and later compare the sha first: an unmergeable merge request with a stale sha is the 409', async () => {
    h.forge.model.version = '18.2.0';
    const c = await h.as();
    const error = toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: MR_SEED.conflictIid, sha: 'a'.repeat(40) }));
    expect(error).toMatchObject({ kind: 'conflict', status: 409 });
    expect(error.message).toContain('the source branch moved since it was read');
    expect(mr(MR_SEED.conflictIid).state).toBe('opened');
  });

  test("a group that requires the sha: a merge without it is GitLab's 400, explained as such; with it, merged", async () => {
    h.forge.model.version = '18.2.0';
    h.forge.model.shaRequiredForMerge.add(project().namespace.full_path);
    const c = await h.as();
    const error = toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 }));
    expect(error).toMatchObject({ kind: 'validation', status: 400 });
    expect(error.message).toBe(
      "SHA must be provided when merging: this project's group or instance requires sha on every merge; " +
        'read the head with get_merge_request, review it, then merge with sha',
    );
    expect(mr(1).state).toBe('opened');
    const head = state(1).versions[0].head_commit_sha;
    expect(structured<MR>(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1, sha: head })).state).toBe('merged');
  });

  test('before 18.2 GitLab judges mergeability before the sha: an unmergeable merge request with a stale sha is the 405, not the 409', async () => {
    const c = await h.as();
    const error = toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: MR_SEED.conflictIid, sha: 'a'.repeat(40) }));
    expect(error).toMatchObject({ kind: 'conflict', status: 405 });
    expect(error.message).toContain('(detailed_merge_status: conflict)');
  });

  test('422 "Branch cannot be merged" (GitLab 16+, and races) and 406 (older GitLab) are conflicts too', async () => {
    const c = await h.as();
    for (const status of [422, 406]) {
      h.forge.failNext({ method: 'PUT', pathIncludes: '/merge', status, body: { message: 'Branch cannot be merged' } });
      expect(toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 }))).toMatchObject({ kind: 'conflict', status });
    }
  });

  test('a developer may not merge into protected main: permission (401)', async () => {
    const c = await h.as(TOKENS.developer);
    expect(toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 }))).toEqual({
      kind: 'permission',
      status: 401,
      message: '401 Unauthorized: the caller may not merge into the target branch',
    });
  });

  test("auto_merge while the pipeline runs: set to merge later, sent under both of GitLab's names", async () => {
    state(1).head_pipeline_status = 'running';
    const c = await h.as();
    const result = structured<MR>(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1, auto_merge: true }));
    expect(result).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    expect(result).not.toHaveProperty('head_pipeline_warning');
    expect(h.forge.requests[0].body).toEqual({ auto_merge: true, merge_when_pipeline_succeeds: true });
  });

  test('with a required pipeline still running, a plain merge is refused with the remedy', async () => {
    h.forge.model.reviews.settingsOf(SEED.project).only_allow_merge_if_pipeline_succeeds = true;
    state(1).head_pipeline_status = 'running';
    const c = await h.as();
    expect(toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 })).message).toContain(
      'ci_still_running): its pipeline is still running: use auto_merge: true',
    );
  });
});

describe('list_merge_request_diffs', () => {
  test('a page of changed files with their diffs', async () => {
    const c = await h.as(TOKENS.guest);
    const page = structured<Page<Diff>>(await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1 }));
    expect(page.items.map((d) => d.new_path)).toEqual([MR_SEED.loginFile, MR_SEED.appFile]);
    expect(textOf(page.items[1])).toContain('+  server.use(login);');
    expect(page.pagination.total).toBe(2);
    expect((page as Record<string, unknown>).truncated).toBeUndefined();
  });

  test('each line comes with its old and new line numbers (D43); full_response has the raw diff', async () => {
    const diff = [
      '@@ -3,4 +3,4 @@ function a() {',
      ' keep 3',
      '-old 4',
      '+new 4',
      ' keep 5',
      '\\ No newline at end of file',
      '@@ -20,2 +20,3 @@',
      ' keep 20',
      '+added 21',
      '',
      '',
    ].join('\n');
    state(1).versions[0].diffs.push({
      old_path: 'n.ts',
      new_path: 'n.ts',
      a_mode: '100644',
      b_mode: '100644',
      new_file: false,
      renamed_file: false,
      deleted_file: false,
      diff,
    });
    const c = await h.as();
    const page = structured<Page<Diff>>(await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1, file_paths: ['n.ts'] }));
    expect(page.items[0].lines).toEqual([
      [null, null, '@@ -3,4 +3,4 @@ function a() {'],
      [3, 3, ' keep 3'],
      [4, null, '-old 4'],
      [null, 4, '+new 4'],
      [5, 5, ' keep 5'],
      [null, null, '\\ No newline at end of file'],
      [null, null, '@@ -20,2 +20,3 @@'],
      [20, 20, ' keep 20'],
      [null, 21, '+added 21'],
      // An empty context line (its space stripped) still counts on both sides.
      [21, 22, ''],
    ]);
    const raw = structured<{ items: { diff: string }[] }>(
      await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1, file_paths: ['n.ts'], full_response: true }),
    );
    expect(raw.items[0].diff).toBe(diff);
  });

  test('a diff over the per-file budget is cut at a line; past the result budget diffs are left out', async () => {
    const big = (path: string, lines: number) => ({
      old_path: path,
      new_path: path,
      a_mode: '100644',
      b_mode: '100644',
      new_file: true,
      renamed_file: false,
      deleted_file: false,
      diff: `@@ -0,0 +1,${lines} @@\n${Array.from({ length: lines }, (_, i) => `+const line${i} = ${i}; // ${'x'.repeat(40)}`).join('\n')}\n`,
    });
    state(1).versions[0].diffs.push(big('gen/a.ts', 1000), big('gen/b.ts', 1000), big('gen/c.ts', 1000), big('gen/d.ts', 1000));
    const c = await h.as();
    const page = structured<Page<Diff> & { truncated?: boolean }>(await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1 }));
    const [a, , , d] = page.items.slice(2);
    expect(a).toMatchObject({ diff_truncated: true });
    expect(textOf(a).length).toBeLessThanOrEqual(20_000);
    // Cut after a whole line.
    expect(a.lines!.at(-1)![2]).toMatch(/^\+const line\d+ = \d+; \/\/ x{40}$/);
    expect(a.diff_lines_omitted).toBeGreaterThan(500);
    expect(d).toEqual({ new_path: 'gen/d.ts', new_file: true, diff_omitted: true });
    expect(page.truncated).toBe(true);
    expect(JSON.stringify(page).length).toBeLessThan(70_000);

    const whole = structured<{ items: Diff[]; not_changed?: string[] }>(
      await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1, file_paths: ['gen/d.ts', 'README.md'] }),
    );
    expect(whole.items.map((f) => [f.new_path, f.lines!.length, f.diff_truncated])).toEqual([['gen/d.ts', 1001, undefined]]);
    expect(whole.not_changed).toEqual(['README.md']);
  });

  test('file_paths that the merge request does not change: not_found listing what it changes', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1, file_paths: ['README.md'] })).message).toBe(
      `file_paths: none of them is changed in this merge request (changed: ${MR_SEED.loginFile}, ${MR_SEED.appFile})`,
    );
  });

  test('file_paths with page, and an unknown merge request', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 1, file_paths: ['a'], page: 2 })).kind).toBe('validation');
    expect(h.upstream()).toEqual([]);
    expect(toolError(await c.call('list_merge_request_diffs', { project_id: P, merge_request_iid: 77 })).kind).toBe('not_found');
  });
});

describe('list_merge_request_versions', () => {
  test('newest first, with their commit shas', async () => {
    const c = await h.as();
    const page = structured<Page<{ id: number; head_commit_sha: string }>>(
      await c.call('list_merge_request_versions', { project_id: P, merge_request_iid: 1 }),
    );
    expect(page.items.map((v) => [v.id, v.head_commit_sha])).toEqual([
      [MR_SEED.versions.latest, MR_SEED.diffRefs.head_sha],
      [MR_SEED.versions.first, MR_SEED.firstRefs.head_sha],
    ]);
  });

  test("a private project's merge requests are hidden from a guest: not_found", async () => {
    const p = h.forge.model.projects.get(SEED.privateProject)!;
    p.members.set(SEED.users.guest, ACCESS.guest);
    p.mergeRequests.push({ ...mr(1), id: 5001, project_id: p.id });
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('list_merge_request_versions', { project_id: String(p.id), merge_request_iid: 1 }))).toMatchObject({
      kind: 'not_found',
      status: 404,
    });
  });
});
