// Reviewing through an MCP client against the fake forge: threads (general and on a diff line, with
// positions GitLab accepts and ones it refuses, checked before anything is written), replies,
// resolving, approvals (CE and paid editions), and the draft-note review flow.
import { beforeEach, describe, expect, test } from 'bun:test';
import { MR_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { unfoldedLine } from '../../src/tools/merge-requests/position';
import { structured, toolError, type Lane } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'merge_requests' });
// These tests mean the Free tier unless they say otherwise (the fake forge plays Premium by default).
beforeEach(() => {
  h.forge.model.edition = 'ce';
});
const P = String(SEED.project);
const MR1 = `/api/v4/projects/${P}/merge_requests/1`;
type Note = { id: number; body: string; type?: string; resolvable?: boolean; resolved?: boolean; position?: Record<string, unknown> };
type Thread = { id: string; individual_note?: boolean; notes: Note[] };
type Page<T> = { items: T[] };
type Approvals = {
  approved?: boolean;
  user_has_approved?: boolean;
  approved_by?: { user: { username: string } }[];
  approvals_required?: number;
  approvals_left?: number;
  user_can_approve?: boolean;
};
const mr = (iid: number) => h.forge.model.projects.get(SEED.project)!.mergeRequests.find((m) => m.iid === iid)!;
const reviews = () => h.forge.model.reviews;
const threadsOf1 = () => h.forge.model.tracker.discussionsOf(SEED.project, 'MergeRequest', 1);
const seededThread = () => threadsOf1().find((d) => d.notes[0].id === MR_SEED.diffNote)!;
const LANES: Lane[] = ['legacy', 'modern'];

const client = (lane: Lane, token?: string) => h.on(lane, token);
const sent = () => h.toolUpstream();
const CHECK = [`GET ${MR1}/versions`, `GET ${MR1}/versions/${MR_SEED.versions.latest}`];
const app = MR_SEED.appFile;

describe('mr_discussions', () => {
  test('threads with their notes; a diff note keeps its position', async () => {
    const c = await h.as(TOKENS.guest);
    const page = structured<Page<Thread>>(await c.call('mr_discussions', { project_id: P, merge_request_iid: 1 }));
    expect(page.items.map((t) => t.notes.map((n) => n.id))).toEqual([[MR_SEED.diffNote, MR_SEED.diffReply], [MR_SEED.comment]]);
    expect(page.items[0].notes[0]).toMatchObject({
      type: 'DiffNote',
      resolvable: true,
      resolved: false,
      position: { new_path: app, new_line: 7, head_sha: MR_SEED.diffRefs.head_sha },
    });
    expect(page.items[1]).toMatchObject({ individual_note: true });
  });

  test('an unknown merge request is not_found; a `..` discussion id never reaches the forge', async () => {
    const c = await h.as();
    expect(toolError(await c.call('mr_discussions', { project_id: P, merge_request_iid: 40 }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Merge Request Not Found',
    });
    expect(toolError(await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: '..', resolved: true })).kind).toBe(
      'validation',
    );
    expect(sent()).toEqual([`GET ${MR1.replace('/1', '/40')}/discussions`]);
  });
});

describe.each(LANES)('create_merge_request_thread on a diff line (%s lane)', (lane) => {
  test.each([
    ['an added line: new_line alone', { new_path: app, new_line: 7 }, { old_line: undefined, new_line: 7 }],
    ['a removed line: old_line alone', { old_path: app, old_line: 6 }, { old_line: 6, new_line: undefined }],
    ['an unchanged line: both', { new_path: app, old_line: 8, new_line: 9 }, { old_line: 8, new_line: 9 }],
    [
      'a line of a new file, with the latest shas given',
      { new_path: MR_SEED.loginFile, new_line: 2, ...MR_SEED.diffRefs },
      { old_line: undefined, new_line: 2 },
    ],
    // src/app.ts's one hunk turns old 3-9 into new 3-10; GitLab unfolds the hidden unchanged lines around it.
    [
      'an unchanged line after the hunk, outside the diff: both (GitLab unfolds it)',
      { new_path: app, old_line: 11, new_line: 12 },
      { old_line: 11, new_line: 12 },
    ],
    ['an unchanged line before the hunk, outside the diff: both', { new_path: app, old_line: 1, new_line: 1 }, { old_line: 1, new_line: 1 }],
  ])("GitLab accepts %s; the shas are the latest version's", async (_, position, lines) => {
    const c = await client(lane, TOKENS.developer);
    const thread = structured<Thread>(await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'Why here?', position }));
    expect(thread.notes[0]).toMatchObject({ type: 'DiffNote', body: 'Why here?', resolvable: true });
    expect(sent()).toEqual([...CHECK, `POST ${MR1}/discussions`]);
    const body = h.forge.requests.at(-1)!.body as { position: Record<string, unknown> };
    expect(body.position).toEqual(
      JSON.parse(JSON.stringify({ ...MR_SEED.diffRefs, position_type: 'text', old_path: body.position.new_path, new_path: body.position.new_path, ...lines })),
    );
  });

  test.each([
    [
      'an unchanged line with new_line alone',
      { new_path: app, new_line: 9 },
      'mismatch',
      'position.old_line: new line 9 of src/app.ts is unchanged: give old_line 8 as well',
    ],
    [
      'an unchanged line with old_line alone',
      { new_path: app, old_line: 8 },
      'mismatch',
      'position.new_line: old line 8 of src/app.ts is unchanged: give new_line 9 as well',
    ],
    [
      'an added line with an old_line',
      { new_path: app, new_line: 7, old_line: 7 },
      'mismatch',
      'position.old_line: new line 7 of src/app.ts is an added line: omit old_line',
    ],
    [
      'a line outside the diff',
      { new_path: app, new_line: 40 },
      'mismatch',
      "position.new_line: line 40 of src/app.ts is not in the merge request's diff (it shows new lines 3-10; old lines 3-9)",
    ],
    [
      'an unchanged line outside the hunks with new_line alone',
      { new_path: app, new_line: 12 },
      'mismatch',
      "position.new_line: line 12 of src/app.ts is not in the merge request's diff (it shows new lines 3-10; old lines 3-9); to comment on the unchanged line there, give both: old_line 11 with new_line 12",
    ],
    [
      'an unchanged line outside the hunks with old_line alone',
      { new_path: app, old_line: 1 },
      'mismatch',
      "position.old_line: line 1 of src/app.ts is not in the merge request's diff (it shows new lines 3-10; old lines 3-9); to comment on the unchanged line there, give both: old_line 1 with new_line 1",
    ],
    [
      'two numbers of different lines outside the hunks',
      { new_path: app, old_line: 11, new_line: 11 },
      'mismatch',
      "position.new_line: old line 11 of src/app.ts is an unchanged line outside the diff's hunks: its new line is 12, not 11",
    ],
    [
      'both numbers on a new file, past its diff',
      { new_path: MR_SEED.loginFile, old_line: 30, new_line: 30 },
      'mismatch',
      'position.new_line: line 30 of src/auth/login.ts is not in',
    ],
    [
      'a file the merge request does not change',
      { new_path: 'README.md', new_line: 1 },
      'mismatch',
      "position.new_path: README.md is not a file changed in the merge request's latest version (changed: src/auth/login.ts, src/app.ts)",
    ],
    [
      'shas of an older version',
      { new_path: MR_SEED.loginFile, new_line: 1, ...MR_SEED.firstRefs },
      'conflict',
      `position.head_sha: ${MR_SEED.firstRefs.head_sha} is not the merge request's latest version`,
    ],
  ])('refuses %s naming the field; nothing is written', async (_, position, kind, message) => {
    const c = await client(lane, TOKENS.developer);
    const error = toolError(await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'x', position }));
    expect([error.kind, error.status]).toEqual([kind, null]);
    expect(error.message).toStartWith(message);
    expect(error.message).toEndWith('Nothing was written');
    expect(sent().filter((r) => !r.startsWith('GET '))).toEqual([]);
  });
});

describe('create_merge_request_thread', () => {
  test('without position: a general resolvable thread', async () => {
    const c = await h.as(TOKENS.developer);
    const thread = structured<Thread>(await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'Overall: looks good.' }));
    expect(thread.notes[0]).toMatchObject({ type: 'DiscussionNote', resolvable: true });
    expect(thread.notes[0]).not.toHaveProperty('position');
    expect(sent()).toEqual([`POST ${MR1}/discussions`]);
  });

  test('a position without a line or path, or with a sha that is not hex, is refused before any upstream call', async () => {
    const c = await h.as();
    const call = (position: Record<string, unknown>) => c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'x', position });
    expect(toolError(await call({ new_path: app })).message).toStartWith('position.new_line: is required: new_line for an added line');
    expect(toolError(await call({ new_line: 3 })).message).toBe("position.new_path: is required (the changed file's path)");
    expect(toolError(await call({ new_path: app, new_line: 3, head_sha: 'HEAD~1' })).message).toBe('position.head_sha: must be a commit SHA (hex)');
    expect(toolError(await call({ new_path: app, new_line: 0 })).message).toBe('position.new_line: must be a line number, 1 or more');
    expect(toolError(await call({ new_path: app, new_line: 3, line_code: 'abc' })).message).toBe('position.line_code: is not a parameter of this tool');
    expect(sent()).toEqual([]);
  });

  test("GitLab's own refusal of a position (the branch moved between the check and the write) is reported as it came", async () => {
    h.forge.failNext({
      method: 'POST',
      pathIncludes: '/discussions',
      status: 400,
      body: { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' },
    });
    const c = await h.as();
    const error = toolError(
      await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'x', position: { new_path: app, new_line: 7 } }),
    );
    expect(error).toMatchObject({ kind: 'validation', status: 400 });
    expect(error.message).toContain('line_code');
  });

  test('a quick action in the body is refused naming the line (D36)', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'LGTM\n/merge' })).message).toStartWith(
      'body: line 2 "/merge"',
    );
    expect(sent()).toEqual([]);
  });

  test('a huge body never reaches the forge', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'b'.repeat(1_000_001) })).message).toBe(
      'body: must be at most 1000000 characters (got 1000001)',
    );
    expect(sent()).toEqual([]);
  });
});

const NOT_RESOLVABLE =
  '403 Forbidden: GitLab resolves only threads (a stand-alone comment, individual_note, is not resolvable), ' +
  "and only for the merge request's author or members who may resolve threads";

describe('replies and resolving', () => {
  test("a reply joins the thread (and keeps the thread's position); resolving marks every note", async () => {
    const c = await h.as(TOKENS.developer);
    const thread = seededThread();
    const reply = structured<Note>(
      await c.call('create_merge_request_discussion_note', { project_id: P, merge_request_iid: 1, discussion_id: thread.id, body: 'Moved it up.' }),
    );
    expect(reply).toMatchObject({ type: 'DiffNote', body: 'Moved it up.', position: { new_line: 7 } });
    expect(seededThread().notes.map((n) => n.id)).toContain(reply.id);
    const resolved = structured<Thread>(
      await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: thread.id, resolved: true }),
    );
    expect(resolved.notes.every((n) => n.resolved === true)).toBe(true);
    expect(h.forge.requests.at(-1)!.body).toEqual({ resolved: true });
    expect(sent()).toEqual([`POST ${MR1}/discussions/${thread.id}/notes`, `PUT ${MR1}/discussions/${thread.id}`]);
  });

  // GitLab answers both a thread that cannot be resolved (a stand-alone comment) and a caller who may not
  // resolve with a bare 403 (resolve_discussion: forbidden! unless discussion.can_resolve?, lib/api/helpers/notes_helpers.rb).
  test('upstream refusals: an unknown thread (404); a stand-alone comment is not resolvable and a guest may not resolve (403, both explained)', async () => {
    const c = await h.as();
    expect(
      toolError(await c.call('create_merge_request_discussion_note', { project_id: P, merge_request_iid: 1, discussion_id: 'f'.repeat(40), body: 'x' })),
    ).toEqual({ kind: 'not_found', status: 404, message: '404 Discussion Not Found' });
    const comment = threadsOf1().find((d) => d.individual_note)!;
    expect(toolError(await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: comment.id, resolved: true }))).toEqual(
      { kind: 'permission', status: 403, message: NOT_RESOLVABLE },
    );
    const guest = await h.as(TOKENS.guest);
    expect(
      toolError(await guest.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: seededThread().id, resolved: true })),
    ).toEqual({ kind: 'permission', status: 403, message: NOT_RESOLVABLE });
  });
});

describe('what GitLab does to a resolved thread', () => {
  const resolvedFlags = () =>
    seededThread()
      .notes.filter((n) => n.type === 'DiscussionNote')
      .map((n) => n.resolved);

  // app/services/notes/build_service.rb: a reply in a resolved thread is created resolved.
  test('a direct reply in a resolved thread leaves it resolved', async () => {
    const c = await h.as(TOKENS.developer);
    const thread = seededThread();
    structured(await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: thread.id, resolved: true }));
    const reply = structured<Note>(
      await c.call('create_merge_request_discussion_note', { project_id: P, merge_request_iid: 1, discussion_id: thread.id, body: 'One more thing.' }),
    );
    expect(reply.resolved).toBe(true);
    expect(resolvedFlags().every((r) => r === true)).toBe(true);
  });

  // app/services/draft_notes/publish_service.rb (set_discussion_resolve_status): a published reply
  // without resolve_discussion re-opens its thread; with it, resolves it.
  test('a drafted reply without resolve_discussion re-opens a resolved thread when published; with it, the thread stays resolved', async () => {
    const c = await h.as(TOKENS.developer);
    const thread = seededThread();
    structured(await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: thread.id, resolved: true }));
    structured(await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'Actually, no.', in_reply_to_discussion_id: thread.id }));
    structured(await c.call('bulk_publish_draft_notes', { project_id: P, merge_request_iid: 1 }));
    expect(resolvedFlags().some((r) => r === true)).toBe(false);
    structured(
      await c.call('create_draft_note', {
        project_id: P,
        merge_request_iid: 1,
        body: 'Fine now.',
        in_reply_to_discussion_id: thread.id,
        resolve_discussion: true,
      }),
    );
    structured(await c.call('bulk_publish_draft_notes', { project_id: P, merge_request_iid: 1 }));
    expect(resolvedFlags().every((r) => r === true)).toBe(true);
  });

  test('the descriptions say so', async () => {
    const c = await h.as();
    const tools = new Map((await c.client.listTools()).tools.map((t) => [t.name, t.description ?? '']));
    expect(tools.get('create_merge_request_discussion_note')).toContain('a reply in a resolved thread leaves it resolved');
    expect(tools.get('create_draft_note')).toContain('without resolve_discussion, publishing re-opens a resolved thread');
    expect(tools.get('bulk_publish_draft_notes')).toContain('re-opens');
  });

  // lib/api/helpers/notes_helpers.rb (resolve_discussion): an unknown thread is nil there, a 500.
  test("resolving an unknown thread: GitLab's 500 becomes not_found naming the thread, once GitLab says it does not exist", async () => {
    const c = await h.as(TOKENS.developer);
    const unknown = 'f'.repeat(40);
    expect(toolError(await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: unknown, resolved: true }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: `thread ${unknown} does not exist on merge request !1 (GitLab answered its resolve with 500 Internal Server Error)`,
    });
    expect(sent()).toEqual([`PUT ${MR1}/discussions/${unknown}`, `GET ${MR1}/discussions/${unknown}`]);
  });

  test('a 500 on resolving a thread that does exist stays upstream', async () => {
    const c = await h.as(TOKENS.developer);
    const thread = seededThread();
    h.forge.failNext({ method: 'PUT', pathIncludes: `/discussions/${thread.id}`, status: 500 });
    expect(
      toolError(await c.call('resolve_merge_request_thread', { project_id: P, merge_request_iid: 1, discussion_id: thread.id, resolved: true })).kind,
    ).toBe('upstream');
  });

  // DraftNotes::PublishService publishes nothing and lib/api/draft_notes.rb still answers 204.
  test('publishing with no draft notes says so instead of published: true', async () => {
    const c = await h.as(TOKENS.developer);
    expect(structured(await c.call('bulk_publish_draft_notes', { project_id: P, merge_request_iid: 1 }))).toEqual({
      published: false,
      message: 'no draft notes to publish',
    });
    expect(sent()).toEqual([`GET ${MR1}/draft_notes`]);
  });
});

describe.each(LANES)('approvals (%s lane)', (lane) => {
  test('state, approve with the reviewed sha, refused twice, withdraw, withdraw again', async () => {
    const c = await client(lane);
    expect(structured<Approvals>(await c.call('get_merge_request_approval_state', { project_id: P, merge_request_iid: 1 }))).toEqual({
      approved: false,
      user_has_approved: false,
      user_can_approve: true,
    });
    const approved = structured<Approvals>(await c.call('approve_merge_request', { project_id: P, merge_request_iid: 1, sha: MR_SEED.diffRefs.head_sha }));
    expect(approved).toMatchObject({
      approved: true,
      approved_by: [{ user: { id: 1, username: 'maria', name: expect.any(String) }, approved_at: expect.any(String) }],
    });
    expect(h.forge.requests.at(-1)!.body).toEqual({ sha: MR_SEED.diffRefs.head_sha });

    const again = toolError(await c.call('approve_merge_request', { project_id: P, merge_request_iid: 1 }));
    expect(again).toMatchObject({ kind: 'permission', status: 401 });
    expect(again.message).toContain('the caller already approved');

    expect(structured<Approvals>(await c.call('unapprove_merge_request', { project_id: P, merge_request_iid: 1 })).approved).toBe(false);
    expect(toolError(await c.call('unapprove_merge_request', { project_id: P, merge_request_iid: 1 }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Not found: the caller has not approved this merge request (or it does not exist)',
    });
  });
});

describe('approval refusals and paid editions', () => {
  test('a sha that is no longer the head: conflict, no approval', async () => {
    const c = await h.as();
    const error = toolError(await c.call('approve_merge_request', { project_id: P, merge_request_iid: 1, sha: MR_SEED.firstRefs.head_sha }));
    expect(error).toMatchObject({ kind: 'conflict', status: 409 });
    expect(error.message).toStartWith(`SHA does not match HEAD of source branch: ${MR_SEED.diffRefs.head_sha}; review the new head`);
    expect(reviews().of(mr(1)).approvals).toEqual([]);
  });

  test('a guest may not approve (403)', async () => {
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('approve_merge_request', { project_id: P, merge_request_iid: 1 }))).toEqual({
      kind: 'permission',
      status: 403,
      message: '403 Forbidden',
    });
  });

  test('paid edition: approvals required and left; the author may not approve their own merge request (401)', async () => {
    h.forge.model.premium = true;
    const author = await h.as(TOKENS.developer);
    expect(structured<Approvals>(await author.call('get_merge_request_approval_state', { project_id: P, merge_request_iid: 1 }))).toMatchObject({
      approved: false,
      approvals_required: 1,
      approvals_left: 1,
      user_can_approve: false,
    });
    expect(toolError(await author.call('approve_merge_request', { project_id: P, merge_request_iid: 1 }))).toMatchObject({ kind: 'permission', status: 401 });
    const maria = await h.as();
    expect(structured<Approvals>(await maria.call('approve_merge_request', { project_id: P, merge_request_iid: 1 }))).toMatchObject({
      approved: true,
      approvals_left: 0,
    });
  });

  // ee/app/services/ee/merge_requests/approval_service.rb: the approval without `approval_password` is
  // refused, and lib/api/merge_request_approvals.rb answers a refused approval 401; the approval state
  // (ee/lib/ee/api/entities/approval_state.rb) says require_password_to_approve.
  test("paid edition: a project that requires the approver's password is named as such (401), not as a second approval", async () => {
    h.forge.model.premium = true;
    reviews().settingsOf(SEED.project).require_password_to_approve = true;
    const c = await h.as();
    const error = toolError(await c.call('approve_merge_request', { project_id: P, merge_request_iid: 1 }));
    expect(error).toMatchObject({ kind: 'permission', status: 401 });
    expect(error.message).toBe(
      '401 Unauthorized: this project requires approvers to confirm with their GitLab password ' +
        "(require_password_to_approve), which this server cannot send: approve in GitLab's web interface",
    );
    expect(reviews().of(mr(1)).approvals).toEqual([]);
    expect(sent()).toEqual([`POST ${MR1}/approve`, `GET ${MR1}/approvals`]);
  });

  test('paid edition: merging waits for the approvals (conflict: not_approved)', async () => {
    h.forge.model.premium = true;
    const c = await h.as();
    expect(toolError(await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 })).message).toContain(
      '(detailed_merge_status: not_approved): it lacks required approvals',
    );
  });
});

describe('the draft-note review flow', () => {
  test('drafts (general, on a diff line, a resolving reply) stay invisible until published all at once', async () => {
    const c = await h.as(TOKENS.developer);
    const thread = seededThread();
    const general = structured<{ id: number; note: string }>(
      await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'Nice cleanup overall.' }),
    );
    expect(general).toEqual({ id: expect.any(Number), note: 'Nice cleanup overall.' });
    const onLine = structured<{ position: Record<string, unknown> }>(
      await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'Name this?', position: { new_path: app, new_line: 6 } }),
    );
    expect(onLine.position).toMatchObject({ new_path: app, new_line: 6, head_sha: MR_SEED.diffRefs.head_sha });
    structured(
      await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'Done.', in_reply_to_discussion_id: thread.id, resolve_discussion: true }),
    );
    expect(reviews().drafts).toHaveLength(3);
    expect(threadsOf1()).toHaveLength(2);

    expect(structured(await c.call('bulk_publish_draft_notes', { project_id: P, merge_request_iid: 1 }))).toEqual({ published: true });
    expect(reviews().drafts).toEqual([]);
    const threads = threadsOf1();
    expect(threads).toHaveLength(4);
    expect(seededThread().notes.at(-1)).toMatchObject({ body: 'Done.' });
    expect(seededThread().notes.every((n) => n.resolved)).toBe(true);
    const diffNote = threads.find((d) => d.notes[0].body === 'Name this?')!.notes[0];
    expect(reviews().positions.get(diffNote.id)).toMatchObject({ new_path: app, new_line: 6 });
    expect(sent().filter((r) => !r.startsWith('GET '))).toEqual([
      `POST ${MR1}/draft_notes`,
      `POST ${MR1}/draft_notes`,
      `POST ${MR1}/draft_notes`,
      `POST ${MR1}/draft_notes/bulk_publish`,
    ]);
  });

  test('a draft on an unchanged line outside the hunks, with both numbers, is stored and published as a diff note', async () => {
    const c = await h.as(TOKENS.developer);
    const draft = structured<{ position: Record<string, unknown> }>(
      await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'And here?', position: { new_path: app, old_line: 11, new_line: 12 } }),
    );
    expect(draft.position).toMatchObject({ old_line: 11, new_line: 12 });
    expect(structured(await c.call('bulk_publish_draft_notes', { project_id: P, merge_request_iid: 1 }))).toEqual({ published: true });
    const note = threadsOf1().find((d) => d.notes[0].body === 'And here?')!.notes[0];
    expect(reviews().positions.get(note.id)).toMatchObject({ new_path: app, old_line: 11, new_line: 12 });
  });

  test('past the end of the file GitLab refuses the unfolded line itself: its 400 is reported and nothing is written', async () => {
    const c = await h.as(TOKENS.developer);
    const before = threadsOf1().length;
    const error = toolError(
      await c.call('create_merge_request_thread', { project_id: P, merge_request_iid: 1, body: 'x', position: { new_path: app, old_line: 13, new_line: 14 } }),
    );
    expect(error).toMatchObject({ kind: 'validation', status: 400 });
    expect(error.message).toContain('line_code');
    expect(threadsOf1()).toHaveLength(before);
  });

  test('a draft on a line outside the diff is refused before it is stored', async () => {
    const c = await h.as(TOKENS.developer);
    expect(
      toolError(await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'x', position: { new_path: app, new_line: 2 } })).kind,
    ).toBe('mismatch');
    expect(reviews().drafts).toEqual([]);
  });

  test('rules the schema cannot say are refused before any upstream call', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'x', resolve_discussion: true })).message).toBe(
      'resolve_discussion: needs in_reply_to_discussion_id',
    );
    expect(
      toolError(
        await c.call('create_draft_note', {
          project_id: P,
          merge_request_iid: 1,
          body: 'x',
          in_reply_to_discussion_id: 'a'.repeat(40),
          position: { new_path: app, new_line: 7 },
        }),
      ).message,
    ).toStartWith('position: cannot be combined with in_reply_to_discussion_id');
    expect(sent()).toEqual([]);
  });

  test('upstream refusals: a reply to an unknown thread (404); publishing on an unknown merge request (404)', async () => {
    const c = await h.as();
    expect(
      toolError(await c.call('create_draft_note', { project_id: P, merge_request_iid: 1, body: 'x', in_reply_to_discussion_id: 'a'.repeat(40) })).kind,
    ).toBe('not_found');
    expect(toolError(await c.call('bulk_publish_draft_notes', { project_id: P, merge_request_iid: 99 }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Merge Request Not Found',
    });
  });
});

describe('unfoldedLine: an unchanged line outside the hunks, from one side to the other', () => {
  const diff = ['@@ -3,7 +3,8 @@', ' a', '-b', '+c', '+d', '@@ -20,0 +22,2 @@', '+e', '+f', '@@ -30,2 +32,0 @@', '-g', '-h', ''].join('\n');
  test.each([
    [1, 'old', 1],
    [2, 'old', 2],
    [3, 'old', null],
    [9, 'old', null],
    [10, 'old', 11],
    [20, 'old', 21],
    [21, 'old', 24],
    [29, 'old', 32],
    [30, 'old', null],
    [31, 'old', null],
    [32, 'old', 33],
    [11, 'new', 10],
    [22, 'new', null],
    [23, 'new', null],
    [24, 'new', 21],
    [33, 'new', 32],
  ] as const)('line %d of the %s side ↔ %p', (line, side, other) => {
    expect(unfoldedLine(diff, line, side)).toBe(other);
  });
});
