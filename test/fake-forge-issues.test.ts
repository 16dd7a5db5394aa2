// The fake forge's issue endpoints answer with GitLab's status codes and bodies (gitlab-api.md
// sections 0, 6, 7): what the tool tests cannot see through the MCP client.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { forgeApi } from './support/forge-api';
import { ACCESS, ISSUE_SEED, SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});
beforeEach(() => forge.reset());

const api = (path: string, o?: Parameters<typeof forgeApi>[2]) => forgeApi(forge, path, o);
const I = `/projects/${SEED.projectPathEncoded}/issues`;

describe('issues', () => {
  test("lists are paginated with GitLab's headers; /issues defaults to the caller's own issues, a project list to all", async () => {
    const mine = await api('/issues?per_page=1');
    expect(mine.body.map((i: { iid: number }) => i.iid)).toEqual([4]);
    expect(mine.headers.get('x-total')).toBe('2');
    expect(mine.headers.get('x-next-page')).toBe('2');
    expect((await api(I)).body).toHaveLength(5);
  });

  test('exclusive filters and bad enums are Grape 400s', async () => {
    expect(await api('/issues?assignee_id=2&assignee_username[]=dev')).toMatchObject({
      status: 400,
      body: { error: 'assignee_id, assignee_username are mutually exclusive' },
    });
    expect(await api('/issues?state=open')).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
  });

  test('create 201, update 200, delete 204 (Owners only)', async () => {
    expect(await api(I, { json: {} })).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    expect(await api(I, { json: { title: 'x'.repeat(256) } })).toMatchObject({
      status: 400,
      body: { message: { title: ['is too long (maximum is 255 characters)'] } },
    });
    expect(await api(I, { json: { title: 'New', labels: 'a,b' } })).toMatchObject({ status: 201, body: { iid: 6, labels: ['a', 'b'] } });
    expect(await api(`${I}/6`, { method: 'PUT', json: {} })).toMatchObject({ status: 400 });
    expect(await api(`${I}/6`, { method: 'PUT', json: { state_event: 'close' } })).toMatchObject({ status: 200, body: { state: 'closed' } });
    expect((await api(`${I}/6`, { method: 'DELETE' })).status).toBe(403);
    forge.model.projects.get(SEED.project)!.members.set(1, ACCESS.owner);
    expect(await api(`${I}/6`, { method: 'DELETE' })).toEqual(expect.objectContaining({ status: 204, body: undefined }));
    expect(await api(`${I}/6`)).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
  });

  test("a guest's metadata is dropped silently on create", async () => {
    const created = await api(I, { json: { title: 'From a guest', labels: 'bug', assignee_ids: [1] }, token: TOKENS.guest });
    expect(created).toMatchObject({ status: 201, body: { labels: [], assignees: [] } });
  });
});

describe('notes and discussions', () => {
  test('top-level 201, reply 201, edit 200; the discussion PUT takes body xor resolved', async () => {
    const note = await api(`${I}/2/notes`, { json: { body: 'Hi' } });
    expect(note).toMatchObject({ status: 201, body: { type: null, body: 'Hi' } });
    const discussions = (await api(`${I}/2/discussions`)).body as { id: string; notes: { id: number }[] }[];
    const d = discussions.find((x) => x.notes[0].id === note.body.id)!;
    expect(await api(`${I}/2/discussions/${d.id}/notes`, { json: { body: 'Reply' } })).toMatchObject({ status: 201, body: { type: 'DiscussionNote' } });
    const put = (json: unknown) => api(`${I}/2/discussions/${d.id}/notes/${note.body.id}`, { method: 'PUT', json });
    expect(await put({ body: 'a', resolved: true })).toMatchObject({ status: 400, body: { error: 'body, resolved are mutually exclusive' } });
    expect(await put({})).toMatchObject({ status: 400, body: { error: 'body, resolved are missing, exactly one parameter must be provided' } });
    expect(await put({ resolved: true })).toMatchObject({ status: 200, body: { resolved: true, resolved_by: { username: 'maria' } } });
    expect(await api(`${I}/2/notes`, { json: { body: ' ' } })).toMatchObject({ status: 400, body: { message: { note: ["can't be blank"] } } });
  });
});

describe('links', () => {
  test('create 201, duplicate 409, delete 200 with the link', async () => {
    const create = (iid: number) => api(`${I}/1/links`, { json: { target_project_id: SEED.project, target_issue_iid: iid } });
    expect(await create(3)).toMatchObject({ status: 201, body: { link_type: 'relates_to', source_issue: { iid: 1 }, target_issue: { iid: 3 } } });
    expect(await create(3)).toMatchObject({ status: 409, body: { message: 'Issue(s) already assigned' } });
    expect(await api(`${I}/1/links/${ISSUE_SEED.link}`, { method: 'DELETE' })).toMatchObject({ status: 200, body: { target_issue: { iid: 2 } } });
    expect((await api(`${I}/1/links`)).headers.get('x-total')).toBeNull();
  });
});

describe('award emoji', () => {
  test("create 201, duplicate 404, delete own 204, someone else's 401", async () => {
    const awards = `${I}/1/award_emoji`;
    expect(await api(awards, { json: { name: 'tada' } })).toMatchObject({ status: 201, body: { name: 'tada', awardable_type: 'Issue' } });
    expect(await api(awards, { json: { name: 'tada' } })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji Name has already been taken Not Found' },
    });
    expect((await api(`${awards}/${ISSUE_SEED.awards.devThumbsup}`, { method: 'DELETE' })).status).toBe(401);
    expect((await api(`${awards}/${ISSUE_SEED.awards.mariaRocket}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`${I}/1/notes/${ISSUE_SEED.replyNote}/award_emoji`)).headers.get('x-total')).toBe('1');
  });
});

describe('todos', () => {
  test('mark one 201 with the todo, mark all 204', async () => {
    expect(await api(`/todos/${ISSUE_SEED.todos.mariaAssigned}/mark_as_done`, { json: {} })).toMatchObject({ status: 201, body: { state: 'done' } });
    expect(await api(`/todos/${ISSUE_SEED.todos.devAssigned}/mark_as_done`, { json: {} })).toMatchObject({
      status: 404,
      body: { message: '404 Todo Not Found' },
    });
    expect((await api('/todos/mark_as_done', { method: 'POST' })).status).toBe(204);
    expect((await api('/todos')).body).toEqual([]);
  });
});
