// The users group (issue 36): who the caller is, and finding other users by name.
import { describe, expect, test } from 'bun:test';
import { DISCOVERY_SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError, type Lane } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'users' });
type Page<T> = { items: T[]; pagination: { total: number } };

describe.each(['legacy', 'modern'] as Lane[])('whoami (%s lane)', (lane) => {
  test('the user the token acts as, from the credential check: no request of its own once the check is remembered', async () => {
    const c = await h.on(lane, TOKENS.developer);
    expect(structured(await c.call('whoami'))).toEqual({ id: 2, username: 'dev', name: 'Devon Park' });
    const before = h.forge.requests.length;
    expect(structured(await c.call('whoami'))).toEqual({ id: 2, username: 'dev', name: 'Devon Park' });
    expect(h.forge.requests.length).toBe(before);
    // full_response asks GitLab for the whole record.
    expect(structured(await c.call('whoami', { full_response: true }))).toMatchObject({ id: 2, username: 'dev', avatar_url: expect.any(String) });
    expect(h.upstream().slice(-1)).toEqual(['GET /api/v4/user']);
  });

  test('a bot says so', async () => {
    const token = 'glpat-bot-0000000000000000';
    h.forge.model.tokens.set(token, { userId: DISCOVERY_SEED.botUser.id, kind: 'personal' });
    expect(structured(await (await h.on(lane, token)).call('whoami'))).toMatchObject({ username: DISCOVERY_SEED.botUser.username, bot: true });
  });
});

describe('get_users', () => {
  test('by exact username, any case', async () => {
    const c = await h.as();
    const page = structured<Page<Record<string, unknown>>>(await c.call('get_users', { username: 'DEV' }));
    expect(page.items).toEqual([{ id: 2, username: 'dev', name: 'Devon Park' }]);
    expect(h.upstream()).toEqual(['GET /api/v4/users']);
    expect(h.forge.requests[0].query.get('username')).toBe('DEV');
  });

  test('by search, blocked users marked; bots left out on request', async () => {
    const c = await h.as();
    const all = structured<Page<Record<string, unknown>>>(await c.call('get_users', { search: 'e' }));
    expect(all.items).toContainEqual({ id: DISCOVERY_SEED.blockedUser.id, username: 'leaver', name: 'Lee Leaver', state: 'blocked' });
    // GitLab's list shows a signed-in non-admin UserBasic, which says nothing of bots; get_user does.
    expect(all.items).toContainEqual({ ...DISCOVERY_SEED.botUser });
    expect(structured(await c.call('get_user', { user_id: DISCOVERY_SEED.botUser.id }))).toMatchObject({ bot: true });
    const humans = structured<Page<{ id: number }>>(await c.call('get_users', { search: 'e', active: true, without_project_bots: true }));
    expect(humans.items.map((u) => u.id)).not.toContain(DISCOVERY_SEED.botUser.id);
    expect(humans.items.map((u) => u.id)).not.toContain(DISCOVERY_SEED.blockedUser.id);
  });

  test('hostile search terms are refused before the network', async () => {
    const c = await h.as();
    for (const [search, start] of [
      ['', 'search: '],
      ['x'.repeat(1_000_001), 'search: '],
    ] as const) {
      expect(toolError(await c.call('get_users', { search })).message).toStartWith(start);
    }
    expect(h.upstream()).toEqual([]);
  });
});

describe('get_user', () => {
  test("by id; a missing user is GitLab's 404", async () => {
    const c = await h.as();
    expect(structured(await c.call('get_user', { user_id: 1 }))).toEqual({
      id: 1,
      username: 'maria',
      name: 'Maria Rossi',
      job_title: 'Maintainer of the platform',
      created_at: '2023-06-01T09:00:00.000Z',
    });
    const missing = toolError(await c.call('get_user', { user_id: 999 }));
    expect([missing.kind, missing.status, missing.message]).toEqual(['not_found', 404, '404 User Not Found']);
    expect(toolError(await c.call('get_user', { user_id: 'maria' })).message).toStartWith('user_id: ');
  });
});
