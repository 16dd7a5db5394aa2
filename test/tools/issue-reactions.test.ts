// Emoji reaction tools through an MCP client, on issues and on comments (top-level and replies,
// with and without discussion_id), with GitLab's answers to duplicates, unknown names and
// someone else's reaction.
import { describe, expect, test } from 'bun:test';
import { ISSUE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
const P = String(SEED.project);
const ISSUE = `/api/v4/projects/${P}/issues/1`;
type Award = { id: number; name: string; user: { username: string }; awardable_type: string };
type Awards = { items: Award[]; pagination: { total: number | null } };
const threadId = (noteId: number) => h.forge.model.tracker.discussions.find((d) => d.notes.some((n) => n.id === noteId))!.id;
const awardsOn = (type: 'Issue' | 'Note', id: number) => h.forge.model.tracker.awards.filter((a) => a.awardable_type === type && a.awardable_id === id);
const reply = { project_id: P, issue_iid: '1', note_id: String(ISSUE_SEED.replyNote) };

describe('issue reactions', () => {
  test('list: every reaction on the issue', async () => {
    const c = await h.as();
    const result = structured<Awards>(await c.call('list_issue_emoji_reactions', { project_id: P, issue_iid: '1' }));
    expect(result.items.map((a) => [a.name, a.user.username])).toEqual([
      ['thumbsup', 'dev'],
      ['rocket', 'maria'],
    ]);
    expect(result.pagination.total).toBe(2);
    expect(h.forge.requests[0].query.get('per_page')).toBe('100');
  });

  test('list: a confidential issue the caller has no part in → not_found (GitLab\'s "Award Emoji" 404)', async () => {
    h.forge.model.projects.get(SEED.project)!.issues.get(5)!.author_id = SEED.users.maintainer;
    const c = await h.as(TOKENS.guest);
    expect(toolError(await c.call('list_issue_emoji_reactions', { project_id: P, issue_iid: '5' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Award Emoji Not Found',
    });
  });

  test('create: a reaction as the caller; surrounding colons are dropped', async () => {
    const c = await h.as(TOKENS.guest);
    const award = structured<Award>(await c.call('create_issue_emoji_reaction', { project_id: P, issue_iid: '1', name: ':tada:' }));
    expect(award).toMatchObject({ name: 'tada', user: { username: 'gus' }, awardable_type: 'Issue' });
    expect(h.forge.requests[0].body).toEqual({ name: 'tada' });
  });

  test.each([
    ['the same reaction twice', 'thumbsup', '404 Award Emoji Name has already been taken Not Found'],
    ['an unknown emoji', 'unicorn_face_palm', '404 Award Emoji Name is not a valid emoji name Not Found'],
  ])('the forge refuses %s with a 404', async (_, name, message) => {
    const c = await h.as(TOKENS.developer);
    expect(toolError(await c.call('create_issue_emoji_reaction', { project_id: P, issue_iid: '1', name }))).toEqual({
      kind: 'not_found',
      status: 404,
      message,
    });
  });

  test("delete: one's own reaction", async () => {
    const c = await h.as(TOKENS.developer);
    const id = String(ISSUE_SEED.awards.devThumbsup);
    expect(structured(await c.call('delete_issue_emoji_reaction', { project_id: P, issue_iid: '1', award_id: id }))).toEqual({ deleted: true, award_id: id });
    expect(h.upstream()).toEqual([`DELETE ${ISSUE}/award_emoji/${id}`]);
    expect(awardsOn('Issue', 501).map((a) => a.name)).toEqual(['rocket']);
  });

  test("delete: someone else's reaction → permission (GitLab answers 401), and it stays", async () => {
    const c = await h.as(TOKENS.developer);
    expect(toolError(await c.call('delete_issue_emoji_reaction', { project_id: P, issue_iid: '1', award_id: String(ISSUE_SEED.awards.mariaRocket) }))).toEqual({
      kind: 'permission',
      status: 401,
      message: '401 Unauthorized',
    });
    expect(awardsOn('Issue', 501)).toHaveLength(2);
  });

  test('a name with spaces never reaches the forge', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_issue_emoji_reaction', { project_id: P, issue_iid: '1', name: 'thumbs up' })).message).toBe(
      'name: must be an emoji name such as thumbsup',
    );
    expect(h.upstream()).toEqual([]);
  });
});

describe('comment reactions', () => {
  test('list on a thread reply: with discussion_id the thread is checked first; without it the note route alone', async () => {
    const c = await h.as();
    const withThread = structured<Awards>(await c.call('list_issue_note_emoji_reactions', { ...reply, discussion_id: threadId(ISSUE_SEED.replyNote) }));
    expect(withThread.items.map((a) => a.name)).toEqual(['eyes']);
    expect(h.upstream()).toEqual([`GET ${ISSUE}/discussions/${threadId(ISSUE_SEED.replyNote)}`, `GET ${ISSUE}/notes/${ISSUE_SEED.replyNote}/award_emoji`]);
    h.forge.reset();
    const plain = structured<Awards>(await c.call('list_issue_note_emoji_reactions', reply));
    expect(plain.items.map((a) => a.name)).toEqual(['eyes']);
    expect(h.upstream()).toEqual([`GET ${ISSUE}/notes/${ISSUE_SEED.replyNote}/award_emoji`]);
  });

  test('list on a note of another issue → not_found; an unknown thread → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_issue_note_emoji_reactions', { ...reply, issue_iid: '2' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Not found',
    });
    expect(toolError(await c.call('list_issue_note_emoji_reactions', { ...reply, discussion_id: '0'.repeat(40) }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Discussion Not Found',
    });
  });

  test('a discussion_id that does not hold the note → not_found, and nothing else is called', async () => {
    const c = await h.as();
    const error = toolError(await c.call('create_issue_note_emoji_reaction', { ...reply, discussion_id: threadId(ISSUE_SEED.commentNote), name: 'tada' }));
    expect(error).toEqual({
      kind: 'not_found',
      status: null,
      message: `note ${ISSUE_SEED.replyNote} is not in discussion ${threadId(ISSUE_SEED.commentNote)}; check note_id, or omit discussion_id`,
    });
    expect(h.upstream()).toEqual([`GET ${ISSUE}/discussions/${threadId(ISSUE_SEED.commentNote)}`]);
    expect(awardsOn('Note', ISSUE_SEED.replyNote)).toHaveLength(1);
  });

  test('create on a reply (with discussion_id) and on a top-level comment (without)', async () => {
    const c = await h.as(TOKENS.developer);
    const onReply = structured<Award>(
      await c.call('create_issue_note_emoji_reaction', { ...reply, discussion_id: threadId(ISSUE_SEED.replyNote), name: 'thumbsup' }),
    );
    expect(onReply).toMatchObject({ name: 'thumbsup', awardable_type: 'Note' });
    const onComment = structured<Award>(
      await c.call('create_issue_note_emoji_reaction', { project_id: P, issue_iid: '1', note_id: String(ISSUE_SEED.commentNote), name: 'bug' }),
    );
    expect(onComment).toMatchObject({ name: 'bug' });
    expect(awardsOn('Note', ISSUE_SEED.commentNote).map((a) => a.name)).toEqual(['bug']);
  });

  test('create: a duplicate → not_found; a note of another issue → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_issue_note_emoji_reaction', { ...reply, name: 'eyes' })).message).toBe(
      '404 Award Emoji Name has already been taken Not Found',
    );
    expect(
      toolError(await c.call('create_issue_note_emoji_reaction', { project_id: P, issue_iid: '2', note_id: String(ISSUE_SEED.replyNote), name: 'eyes' })),
    ).toEqual({ kind: 'not_found', status: 404, message: '404 Not found' });
  });

  test("delete one's own reaction on a reply; someone else's → permission", async () => {
    const maria = await h.as();
    const id = String(ISSUE_SEED.awards.replyEyes);
    const dev = await h.as(TOKENS.developer);
    expect(toolError(await dev.call('delete_issue_note_emoji_reaction', { ...reply, award_id: id }))).toEqual({
      kind: 'permission',
      status: 401,
      message: '401 Unauthorized',
    });
    expect(structured(await maria.call('delete_issue_note_emoji_reaction', { ...reply, discussion_id: threadId(ISSUE_SEED.replyNote), award_id: id }))).toEqual(
      { deleted: true, award_id: id },
    );
    expect(awardsOn('Note', ISSUE_SEED.replyNote)).toEqual([]);
  });

  test('a missing note_id never reaches the forge', async () => {
    const c = await h.as();
    const error = toolError(await c.call('delete_issue_note_emoji_reaction', { project_id: P, issue_iid: '1', award_id: '803' }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toStartWith('note_id: ');
    expect(h.upstream()).toEqual([]);
  });
});
