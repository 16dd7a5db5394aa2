// Comment tools through an MCP client: top-level comments and replies, editing and resolving,
// listing threads, and comments on merge requests.
import { describe, expect, test } from 'bun:test';
import { ACCESS, EDITIONS, ISSUE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
const P = String(SEED.project);
const ISSUE = `/api/v4/projects/${P}/issues/1`;
type Note = { id: number; body: string; type: string | null; created_at: string; resolvable: boolean; resolved?: boolean; noteable_type: string };
type Discussion = { id: string; individual_note: boolean; notes: Note[] };
const tracker = () => h.forge.model.tracker;
const threadOf = (noteId: number) => tracker().discussions.find((d) => d.notes.some((n) => n.id === noteId))!;
const noteById = (id: number) =>
  tracker()
    .discussions.flatMap((d) => d.notes)
    .find((n) => n.id === id);

describe('create_issue_note', () => {
  test('without discussion_id: a new top-level comment', async () => {
    const c = await h.as(TOKENS.guest);
    const note = structured<Note>(await c.call('create_issue_note', { project_id: P, issue_iid: '1', body: 'Same here on Firefox.' }));
    expect(note).toMatchObject({ body: 'Same here on Firefox.', type: null, noteable_type: 'Issue' });
    expect(threadOf(note.id)).toMatchObject({ individual_note: true });
    expect(h.upstream()).toEqual([`POST ${ISSUE}/notes`]);
  });

  test('with discussion_id: a reply in that thread', async () => {
    const c = await h.as();
    const thread = threadOf(ISSUE_SEED.threadNote);
    const note = structured<Note>(await c.call('create_issue_note', { project_id: P, issue_iid: '1', body: 'Done in !12.', discussion_id: thread.id }));
    expect(note.type).toBe('DiscussionNote');
    expect(threadOf(note.id).id).toBe(thread.id);
    expect(h.upstream()).toEqual([`POST ${ISSUE}/discussions/${thread.id}/notes`]);
  });

  test('replying to a stand-alone comment turns it into a thread', async () => {
    const c = await h.as();
    const comment = threadOf(ISSUE_SEED.commentNote);
    structured(await c.call('create_issue_note', { project_id: P, issue_iid: '1', body: 'Which Okta tenant?', discussion_id: comment.id }));
    expect(threadOf(ISSUE_SEED.commentNote)).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote' }, { type: 'DiscussionNote' }] });
  });

  test('created_at is sent as given (the forge honours it for Owners)', async () => {
    h.forge.model.projects.get(SEED.project)!.members.set(SEED.users.maintainer, ACCESS.owner);
    const c = await h.as();
    const note = structured<Note>(await c.call('create_issue_note', { project_id: P, issue_iid: '2', body: 'Imported.', created_at: '2023-05-01T10:00:00Z' }));
    expect(h.forge.requests[0].body).toEqual({ body: 'Imported.', created_at: '2023-05-01T10:00:00Z' });
    expect(note.created_at).toBe('2023-05-01T10:00:00.000Z');
  });

  test('an unknown thread → not_found; a locked issue refuses a guest; a bad created_at never reaches the forge', async () => {
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('create_issue_note', { project_id: P, issue_iid: '1', body: 'x', discussion_id: 'f'.repeat(40) }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Discussion Not Found',
    });
    h.forge.model.projects.get(SEED.project)!.issues.get(1)!.discussion_locked = true;
    expect(toolError(await c.call('create_issue_note', { project_id: P, issue_iid: '1', body: 'x' })).kind).toBe('permission');
    h.forge.reset();
    expect(toolError(await c.call('create_issue_note', { project_id: P, issue_iid: '1', body: 'x', created_at: 'yesterday' })).message).toBe(
      'created_at: must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z, or a date such as 2026-01-31 (midnight UTC)',
    );
    expect(h.upstream()).toEqual([]);
  });
});

describe('update_issue_note', () => {
  test("edits a comment's body through the note route", async () => {
    const c = await h.as(TOKENS.developer);
    const note = structured<Note>(
      await c.call('update_issue_note', { project_id: P, issue_iid: '1', note_id: String(ISSUE_SEED.commentNote), body: 'Reproduced with Okta and Azure AD.' }),
    );
    expect(note.body).toBe('Reproduced with Okta and Azure AD.');
    expect(h.upstream()).toEqual([`PUT ${ISSUE}/notes/${ISSUE_SEED.commentNote}`]);
    expect(h.forge.requests[0].body).toEqual({ body: 'Reproduced with Okta and Azure AD.' });
  });

  test('edits a reply through the discussion route when discussion_id is given', async () => {
    const c = await h.as(TOKENS.developer);
    const thread = threadOf(ISSUE_SEED.replyNote);
    structured(
      await c.call('update_issue_note', { project_id: P, issue_iid: '1', discussion_id: thread.id, note_id: String(ISSUE_SEED.replyNote), body: 'Yes, once.' }),
    );
    expect(noteById(ISSUE_SEED.replyNote)!.body).toBe('Yes, once.');
    expect(h.upstream()).toEqual([`PUT ${ISSUE}/discussions/${thread.id}/notes/${ISSUE_SEED.replyNote}`]);
  });

  // GitLab 16.3 made issue threads resolvable as a whole (lib/api/discussions.rb, app/models/concerns/noteable.rb).
  describe.each(['16.7.0', '17.6.0'] as const)('on GitLab %s', (version) => {
    test.each(EDITIONS)('resolves and unresolves the whole thread, every note of it (%s)', async (edition) => {
      Object.assign(h.forge.model, { edition, version });
      const c = await h.as();
      const thread = threadOf(ISSUE_SEED.threadNote);
      const args = { project_id: P, issue_iid: '1', discussion_id: thread.id, note_id: String(ISSUE_SEED.threadNote) };
      const resolved = structured<{ id: string; notes: Note[] }>(await c.call('update_issue_note', { ...args, resolved: true }));
      expect(resolved.notes.map((n) => [n.id, n.resolved])).toEqual([
        [ISSUE_SEED.threadNote, true],
        [ISSUE_SEED.replyNote, true],
      ]);
      expect([noteById(ISSUE_SEED.threadNote)!.resolved, noteById(ISSUE_SEED.replyNote)!.resolved]).toEqual([true, true]);
      const put = h.forge.requests.find((r) => r.method === 'PUT')!;
      expect([put.path, put.body]).toEqual([`${ISSUE}/discussions/${thread.id}`, { resolved: true }]);
      const reopened = structured<{ notes: Note[] }>(
        await c.call('update_issue_note', { project_id: P, issue_iid: '1', discussion_id: thread.id, resolved: false }),
      );
      expect(reopened.notes.map((n) => n.resolved)).toEqual([false, false]);
    });
  });

  test.each(EDITIONS)('on GitLab 16.0 (%s) resolving says which release it needs and changes nothing', async (edition) => {
    Object.assign(h.forge.model, { edition, version: '16.0.0' });
    const c = await h.as();
    const thread = threadOf(ISSUE_SEED.threadNote);
    const error = toolError(await c.call('update_issue_note', { project_id: P, issue_iid: '1', discussion_id: thread.id, resolved: true }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toStartWith('resolved: resolving an issue thread needs GitLab 16.3 or later; this forge runs 16.0.0');
    expect(h.upstream()).toEqual(['GET /api/v4/metadata']);
    expect(noteById(ISSUE_SEED.threadNote)!.resolved).toBe(false);
  });

  test("when the forge will not say its release, GitLab decides: an old one answers the router's 404, named", async () => {
    Object.assign(h.forge.model, { version: '16.0.0' });
    h.forge.failNext({ pathIncludes: '/metadata', status: 403 });
    const c = await h.as();
    const thread = threadOf(ISSUE_SEED.threadNote);
    const error = toolError(await c.call('update_issue_note', { project_id: P, issue_iid: '1', discussion_id: thread.id, resolved: true }));
    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(error.message).toContain('needs 16.3 or later');
  });

  test.each([
    [{ issue_iid: '1', note_id: '3001', body: 'x' }, 'project_id: is required'],
    [{ project_id: P, note_id: '3001', body: 'x' }, 'issue_iid: is required'],
    [{ project_id: P, issue_iid: '1', body: 'x' }, 'note_id: is required to edit a comment'],
    [
      { project_id: P, issue_iid: '1', note_id: '3002', discussion_id: 'abc', body: 'x', resolved: true },
      'resolved: cannot be combined with body; edit the text or resolve, one per call',
    ],
    [{ project_id: P, issue_iid: '1', note_id: '3001' }, 'body: is required (or give resolved to resolve or unresolve the thread)'],
    [
      { project_id: P, issue_iid: '1', note_id: '3002', resolved: true },
      'discussion_id: is required to resolve or unresolve (a thread is resolved as a whole)',
    ],
  ])('%j is refused before any upstream call', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('update_issue_note', args))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });

  test("someone else's comment → permission; resolving a stand-alone comment → the forge's 403, explained", async () => {
    const dev = await h.as(TOKENS.developer);
    expect(toolError(await dev.call('update_issue_note', { project_id: P, issue_iid: '1', note_id: String(ISSUE_SEED.threadNote), body: 'x' }))).toEqual({
      kind: 'permission',
      status: 403,
      message: '403 Forbidden',
    });
    const comment = threadOf(ISSUE_SEED.commentNote);
    // GitLab answers a thread that cannot be resolved with the same bare 403 as a caller who may not resolve it.
    expect(
      toolError(
        await dev.call('update_issue_note', {
          project_id: P,
          issue_iid: '1',
          discussion_id: comment.id,
          note_id: String(ISSUE_SEED.commentNote),
          resolved: true,
        }),
      ),
    ).toEqual({
      kind: 'permission',
      status: 403,
      message:
        "403 Forbidden: GitLab resolves only threads (a stand-alone comment, individual_note, is not resolvable), and only for the issue's author or members who may resolve threads",
    });
    expect(noteById(ISSUE_SEED.threadNote)!.body).toBe('Should we retry the SSO handshake?');
  });
});

describe('list_issue_discussions', () => {
  test('threads and stand-alone comments with their notes, paginated', async () => {
    const c = await h.as();
    const page = structured<{ items: Discussion[]; pagination: Record<string, number | null> }>(
      await c.call('list_issue_discussions', { project_id: P, issue_iid: '1', per_page: 1, page: 2 }),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ individual_note: false, notes: [{ id: ISSUE_SEED.threadNote, resolvable: true }, { id: ISSUE_SEED.replyNote }] });
    expect(page.pagination).toEqual({ page: 2, per_page: 1, next_page: null, total: 2, total_pages: 2 });
  });

  test("a confidential issue's threads are hidden from a guest who has no part in it", async () => {
    h.forge.model.projects.get(SEED.project)!.issues.get(5)!.author_id = SEED.users.maintainer;
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('list_issue_discussions', { project_id: P, issue_iid: '5' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Issue Not Found',
    });
  });
});

describe('create_note', () => {
  test('on an issue', async () => {
    const c = await h.as();
    const note = structured<Note>(await c.call('create_note', { project_id: SEED.projectPath, noteable_type: 'issue', noteable_iid: '2', body: 'Per token.' }));
    expect(note).toMatchObject({ body: 'Per token.', noteable_type: 'Issue' });
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${SEED.projectPathEncoded}/issues/2/notes`]);
  });

  test('on a merge request', async () => {
    const c = await h.as();
    const note = structured<Note & { noteable_iid: number }>(
      await c.call('create_note', { project_id: P, noteable_type: 'merge_request', noteable_iid: '1', body: 'LGTM' }),
    );
    expect(note).toMatchObject({ noteable_type: 'MergeRequest', noteable_iid: 1 });
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${P}/merge_requests/1/notes`]);
  });

  test('an unknown merge request → not_found; an unknown noteable_type never reaches the forge', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_note', { project_id: P, noteable_type: 'merge_request', noteable_iid: '99', body: 'x' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Merge Request Not Found',
    });
    h.forge.reset();
    expect(toolError(await c.call('create_note', { project_id: P, noteable_type: 'epic', noteable_iid: '1', body: 'x' })).message).toBe(
      'noteable_type: must be one of issue, merge_request',
    );
    expect(h.upstream()).toEqual([]);
  });
});
