// The fake forge's merge request endpoints answer with GitLab's status codes and bodies
// (lib/api/merge_requests.rb, discussions.rb, merge_request_approvals.rb, draft_notes.rb): what the
// tool tests cannot see through the MCP client, which checks positions before GitLab does.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { forgeApi } from './support/forge-api';
import { MILESTONE_SEED, MR_SEED, SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});
beforeEach(() => {
  forge.reset();
  // The Free tier unless a test says otherwise (the fake forge plays Premium by default).
  forge.model.edition = 'ce';
});

const api = (path: string, o?: Parameters<typeof forgeApi>[2]) => forgeApi(forge, path, o);
const M = `/projects/${SEED.project}/merge_requests`;
const LINE_CODE = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';
const at = (o: Record<string, unknown>) => ({ body: 'x', position: { ...MR_SEED.diffRefs, position_type: 'text', ...o } });

describe('diff notes (DiffNote line_code validation)', () => {
  test.each([
    [{ new_path: 'src/app.ts', new_line: 7 }],
    [{ old_path: 'src/app.ts', old_line: 6 }],
    [{ new_path: 'src/app.ts', old_path: 'src/app.ts', old_line: 8, new_line: 9 }],
    // A position on an older version is a line of that version's diff.
    [{ ...MR_SEED.firstRefs, new_path: 'src/auth/login.ts', new_line: 1 }],
  ])('accepts %j: 201 with a DiffNote', async (position) => {
    const res = await api(`${M}/1/discussions`, { json: at(position) });
    expect(res).toMatchObject({ status: 201, body: { individual_note: false, notes: [{ type: 'DiffNote', position: expect.objectContaining(position) }] } });
  });

  test.each([
    [{ new_path: 'src/app.ts', new_line: 9 }],
    [{ new_path: 'src/app.ts', new_line: 40 }],
    [{ new_path: 'README.md', new_line: 1 }],
    [{ new_path: 'src/app.ts' }],
    [{ new_path: 'src/auth/login.ts', new_line: 1, head_sha: 'f'.repeat(40) }],
  ])('refuses %j: 400 line_code', async (position) => {
    expect(await api(`${M}/1/discussions`, { json: at(position) })).toMatchObject({ status: 400, body: { message: LINE_CODE } });
  });

  // src/app.ts has 12 lines at the base; its one hunk turns old 3-9 into new 3-10, so old 1-2 are
  // new 1-2 and old 10-12 are new 11-13, unchanged and hidden: GitLab unfolds them for a position
  // with both numbers (lib/gitlab/diff/lines_unfolder.rb).
  test.each([[{ old_line: 1, new_line: 1 }], [{ old_line: 11, new_line: 12 }], [{ old_line: 12, new_line: 13 }]])(
    'accepts an unchanged line outside the hunks with both numbers %j: 201',
    async (lines) => {
      const res = await api(`${M}/1/discussions`, { json: at({ old_path: 'src/app.ts', new_path: 'src/app.ts', ...lines }) });
      expect(res).toMatchObject({ status: 201, body: { notes: [{ type: 'DiffNote', position: expect.objectContaining(lines) }] } });
    },
  );

  test.each([
    ['one number only', { new_line: 12 }],
    ['one number only', { old_line: 11 }],
    ['numbers of two different lines', { old_line: 11, new_line: 11 }],
    ['past the end of the old file', { old_line: 13, new_line: 14 }],
  ])('refuses an unchanged line outside the hunks with %s %j: 400 line_code', async (_, lines) => {
    const res = await api(`${M}/1/discussions`, { json: at({ old_path: 'src/app.ts', new_path: 'src/app.ts', ...lines }) });
    expect(res).toMatchObject({ status: 400, body: { message: LINE_CODE } });
  });

  test('an added file has nothing hidden to unfold: 400 line_code', async () => {
    const res = await api(`${M}/1/discussions`, { json: at({ old_path: MR_SEED.loginFile, new_path: MR_SEED.loginFile, old_line: 30, new_line: 30 }) });
    expect(res).toMatchObject({ status: 400, body: { message: LINE_CODE } });
  });

  test('Grape refuses a position without its shas or with an unknown type', async () => {
    expect(await api(`${M}/1/discussions`, { json: { body: 'x', position: { position_type: 'text', new_line: 1 } } })).toMatchObject({
      status: 400,
      body: { error: 'position[base_sha] is missing' },
    });
    expect(await api(`${M}/1/discussions`, { json: at({ position_type: 'line', new_path: 'src/app.ts', new_line: 7 }) })).toMatchObject({
      status: 400,
      body: { error: 'position[position_type] does not have a valid value' },
    });
  });
});

describe('a merge request from a fork (target_project_id)', () => {
  const FORK = `/projects/${SEED.fork.project}/merge_requests`;
  const open = (o: Record<string, unknown> = {}, token: string = TOKENS.developer) =>
    api(FORK, { json: { title: 'Link the guide', source_branch: SEED.fork.branch, target_branch: 'main', target_project_id: SEED.project, ...o }, token });

  test("201: the merge request lives in the target, its source project is the fork, its head the fork's commit", async () => {
    const res = await open();
    expect(res).toMatchObject({
      status: 201,
      body: {
        iid: 6,
        project_id: SEED.project,
        source_project_id: SEED.fork.project,
        target_project_id: SEED.project,
        web_url: `http://forge.test/${SEED.projectPath}/-/merge_requests/6`,
        sha: SEED.fork.sha,
        diff_refs: { head_sha: SEED.fork.sha, base_sha: SEED.mainShas[27] },
      },
    });
    expect(await api(`${M}/6/diffs`)).toMatchObject({ status: 200, body: [{ new_path: 'README.md' }] });
    // The fork's commit was brought into the target's repository (refs/merge-requests/6/head).
    expect(await api(`/projects/${SEED.project}/repository/commits/${SEED.fork.sha}`)).toMatchObject({ status: 200, body: { id: SEED.fork.sha } });
    expect(forge.model.projects.get(SEED.fork.project)!.mergeRequests).toEqual([]);
  });

  test('409 for a second open one from the same fork branch; the same branch names from the target itself are another merge request', async () => {
    expect((await open()).status).toBe(201);
    expect(await open()).toMatchObject({ status: 409, body: { message: ['Another open merge request already exists for this source branch: !6'] } });
    forge.model.projects.get(SEED.project)!.branches.set(SEED.fork.branch, SEED.developShas[1]);
    expect(await api(M, { json: { title: 'Own', source_branch: SEED.fork.branch, target_branch: 'main' }, token: TOKENS.developer })).toMatchObject({
      status: 201,
      body: { iid: 7, source_project_id: SEED.project },
    });
  });

  test("422 when the target is not in the fork's network", async () => {
    expect(await open({ target_project_id: SEED.privateProject })).toEqual(
      expect.objectContaining({ status: 422, body: { message: ['Source project is not a fork of the target project'] } }),
    );
  });

  test('404 for no such project; 403 for a target the caller may not open merge requests in, or a source it may not push', async () => {
    expect(await open({ target_project_id: 999999 })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    // maria's private sandbox exists but dev is no member of it: GitLab answers 403, not 404 (set_projects!).
    expect(await open({ target_project_id: MILESTONE_SEED.personalProject })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await open({}, TOKENS.guest)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  test('400 for a target_project_id that is no integer (Grape)', async () => {
    expect(await open({ target_project_id: SEED.projectPath })).toMatchObject({ status: 400, body: { error: 'target_project_id is invalid' } });
  });
});

describe('merge', () => {
  test('405 when not mergeable, 409 on a stale sha, 401 without merge rights, 200 merged', async () => {
    expect(await api(`${M}/${MR_SEED.conflictIid}/merge`, { method: 'PUT', json: {} })).toMatchObject({
      status: 405,
      body: { message: '405 Method Not Allowed' },
    });
    expect(await api(`${M}/1/merge`, { method: 'PUT', json: { sha: MR_SEED.firstRefs.head_sha } })).toMatchObject({
      status: 409,
      body: { message: `SHA does not match HEAD of source branch: ${MR_SEED.diffRefs.head_sha}` },
    });
    expect(await api(`${M}/1/merge`, { method: 'PUT', json: {}, token: TOKENS.developer })).toMatchObject({ status: 401 });
    expect(await api(`${M}/1/merge`, { method: 'PUT', json: { should_remove_source_branch: true } })).toMatchObject({
      status: 200,
      body: { state: 'merged', merged_by: { username: 'maria' } },
    });
    expect(forge.model.projects.get(SEED.project)!.branches.has('feature/login')).toBe(false);
  });
});

describe('approvals', () => {
  test('CE shape; 201 approve; 401 twice; 404 unapprove when not approved; 403 for a guest', async () => {
    expect(await api(`${M}/1/approvals`)).toMatchObject({ status: 200, body: { approved: false, approved_by: [], user_can_approve: true } });
    expect(await api(`${M}/1/approve`, { json: {} })).toMatchObject({ status: 201, body: { approved: true, approved_by: [{ user: { username: 'maria' } }] } });
    expect(await api(`${M}/1/approve`, { json: {} })).toMatchObject({ status: 401 });
    expect(await api(`${M}/1/unapprove`, { json: {} })).toMatchObject({ status: 201 });
    expect(await api(`${M}/1/unapprove`, { json: {} })).toMatchObject({ status: 404 });
    expect(await api(`${M}/1/approve`, { json: {}, token: TOKENS.guest })).toMatchObject({ status: 403 });
  });

  test("paid editions: EE's approval state, and the author refused (401)", async () => {
    forge.model.premium = true;
    expect(await api(`${M}/1/approvals`)).toMatchObject({ status: 200, body: { iid: 1, approvals_required: 1, approvals_left: 1, approved: false } });
    expect(await api(`${M}/1/approve`, { json: {}, token: TOKENS.developer })).toMatchObject({ status: 401 });
  });
});

describe('draft notes', () => {
  test('201 create, 204 bulk publish; a draft whose position names no line fails the publish (500)', async () => {
    expect(await api(`${M}/1/draft_notes`, { json: { note: 'ok' } })).toMatchObject({ status: 201, body: { note: 'ok', discussion_id: null } });
    expect((await api(`${M}/1/draft_notes/bulk_publish`, { json: {} })).status).toBe(204);
    expect(
      await api(`${M}/1/draft_notes`, { json: { note: 'bad', position: { ...MR_SEED.diffRefs, position_type: 'text', new_path: 'src/app.ts', new_line: 1 } } }),
    ).toMatchObject({ status: 201 });
    expect((await api(`${M}/1/draft_notes/bulk_publish`, { json: {} })).status).toBe(500);
  });
});
