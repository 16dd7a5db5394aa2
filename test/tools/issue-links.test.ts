// Issue link tools through an MCP client: list, get, create (default relates_to, 409 for an
// existing link, 422 for a link to itself, paid-tier types) and delete (200 with the link).
import { describe, expect, test } from 'bun:test';
import { ISSUE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
const P = String(SEED.project);
const LINKS = `/api/v4/projects/${P}/issues/1/links`;
type Related = { iid: number; issue_link_id: number; link_type: string };
type Link = { source_issue: { iid: number }; target_issue: { iid: number }; link_type: string };

describe('list_issue_links', () => {
  test('linked issues with the link id and type, in the list shape', async () => {
    const c = await h.as();
    const result = structured<{ items: Related[]; pagination: Record<string, unknown> }>(await c.call('list_issue_links', { project_id: P, issue_iid: '1' }));
    expect(result.items.map(({ iid, issue_link_id, link_type }) => ({ iid, issue_link_id, link_type }))).toEqual([
      { iid: 2, issue_link_id: ISSUE_SEED.link, link_type: 'relates_to' },
    ]);
    // GitLab does not paginate this list.
    expect(result.pagination).toEqual({ page: null, per_page: null, next_page: null, total: null, total_pages: null });
  });

  test('an unknown issue → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_issue_links', { project_id: P, issue_iid: '77' }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Issue Not Found',
    });
  });
});

describe('get_issue_link', () => {
  test('both ends and the type', async () => {
    const c = await h.as();
    const link = structured<Link>(await c.call('get_issue_link', { project_id: P, issue_iid: '2', issue_link_id: String(ISSUE_SEED.link) }));
    expect(link).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 2 }, link_type: 'relates_to' });
  });

  test('a link of another issue → not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_issue_link', { project_id: P, issue_iid: '3', issue_link_id: String(ISSUE_SEED.link) }))).toEqual({
      kind: 'not_found',
      status: 404,
      message: '404 Not found',
    });
  });
});

describe('create_issue_link', () => {
  test('relates_to is the default and is sent explicitly', async () => {
    const c = await h.as();
    const link = structured<Link>(
      await c.call('create_issue_link', { project_id: P, issue_iid: '1', target_project_id: SEED.projectPath, target_issue_iid: '3' }),
    );
    expect(link).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 3 }, link_type: 'relates_to' });
    expect(h.forge.requests[0].body).toEqual({ target_project_id: SEED.projectPath, target_issue_iid: '3', link_type: 'relates_to' });
    expect(h.forge.model.tracker.links).toHaveLength(2);
  });

  // D26: a project id reaches GitLab in the form GitLab reads. In a path that is the once-encoded
  // segment; in a JSON body GitLab decodes nothing and looks the project up by the value as sent,
  // so the body carries the plain path, whichever form the caller used.
  test.each([
    ['the plain path', SEED.projectPath],
    ['the encoded path', SEED.projectPathEncoded],
    ['a path partly encoded', 'acme/platform%2Fapi'],
    ['a path encoded in lower case', 'acme%2fplatform%2fapi'],
  ])('target_project_id as %s reaches GitLab as the plain path', async (_, target) => {
    const c = await h.as();
    const link = structured<Link>(await c.call('create_issue_link', { project_id: P, issue_iid: '1', target_project_id: target, target_issue_iid: '3' }));
    expect(link).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 3 }, link_type: 'relates_to' });
    expect(h.forge.requests[0].body).toEqual({ target_project_id: SEED.projectPath, target_issue_iid: '3', link_type: 'relates_to' });
  });

  test('a double-encoded target is decoded once, as in a path: GitLab finds no such project and nothing is linked', async () => {
    const c = await h.as();
    const result = await c.call('create_issue_link', { project_id: P, issue_iid: '1', target_project_id: 'acme%252Fplatform%252Fapi', target_issue_iid: '3' });
    expect(toolError(result)).toMatchObject({ kind: 'not_found', status: 404 });
    expect(h.forge.requests[0].body).toMatchObject({ target_project_id: 'acme%2Fplatform%2Fapi' });
    expect(h.forge.model.tracker.links).toHaveLength(1);
  });

  test('is_blocked_by (paid tier) is seen as blocks from the other issue', async () => {
    h.forge.model.premium = true;
    const c = await h.as();
    structured(await c.call('create_issue_link', { project_id: P, issue_iid: '3', target_project_id: P, target_issue_iid: '2', link_type: 'is_blocked_by' }));
    const from2 = structured<{ items: Related[] }>(await c.call('list_issue_links', { project_id: P, issue_iid: '2' }));
    expect(from2.items.map((r) => [r.iid, r.link_type])).toEqual([
      [1, 'relates_to'],
      [3, 'blocks'],
    ]);
  });

  test.each([
    ['an existing link', { issue_iid: '2', target_issue_iid: '1' }, TOKENS.maintainer, { kind: 'conflict', status: 409, message: 'Issue(s) already assigned' }],
    [
      'a link to itself',
      { issue_iid: '1', target_issue_iid: '1' },
      TOKENS.maintainer,
      { kind: 'validation', status: 422, message: '#1 cannot be added: cannot be related to itself' },
    ],
    [
      'a guest',
      { issue_iid: '1', target_issue_iid: '3' },
      TOKENS.guest,
      { kind: 'permission', status: 403, message: "Couldn't link issue. You must have at least the Reporter role in both projects." },
    ],
    [
      'blocks on a free tier',
      { issue_iid: '1', target_issue_iid: '3', link_type: 'blocks' },
      TOKENS.maintainer,
      { kind: 'validation', status: 400, message: 'link_type does not have a valid value' },
    ],
    ['an unknown target', { issue_iid: '1', target_issue_iid: '42' }, TOKENS.maintainer, { kind: 'not_found', status: 404, message: '404 Issue Not Found' }],
  ])('the forge refuses %s', async (name, args, token, expected) => {
    if (name === 'blocks on a free tier') h.forge.model.edition = 'ce';
    const c = await h.as(token);
    expect(toolError(await c.call('create_issue_link', { project_id: P, target_project_id: P, ...args }))).toEqual(expected);
    expect(h.forge.model.tracker.links).toHaveLength(1);
  });

  test('a link_type outside the enum never reaches the forge', async () => {
    const c = await h.as();
    expect(
      toolError(await c.call('create_issue_link', { project_id: P, issue_iid: '1', target_project_id: P, target_issue_iid: '3', link_type: 'duplicates' }))
        .kind,
    ).toBe('validation');
    expect(h.upstream()).toEqual([]);
  });
});

describe('delete_issue_link', () => {
  test('removes the link and returns it (GitLab answers 200 with a body)', async () => {
    const c = await h.as();
    const removed = structured<Link>(await c.call('delete_issue_link', { project_id: P, issue_iid: '1', issue_link_id: String(ISSUE_SEED.link) }));
    expect(removed).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 2 }, link_type: 'relates_to' });
    expect(h.forge.model.tracker.links).toEqual([]);
    expect(h.upstream()).toEqual([`DELETE ${LINKS}/${ISSUE_SEED.link}`]);
  });

  test("an unknown link → not_found; a guest gets GitLab's 404 and the link stays", async () => {
    expect(toolError(await (await h.as()).call('delete_issue_link', { project_id: P, issue_iid: '1', issue_link_id: '999' })).kind).toBe('not_found');
    expect(
      toolError(await (await h.as(TOKENS.guest)).call('delete_issue_link', { project_id: P, issue_iid: '1', issue_link_id: String(ISSUE_SEED.link) })),
    ).toEqual({ kind: 'not_found', status: 404, message: 'No Issue Link found' });
    expect(h.forge.model.tracker.links).toHaveLength(1);
  });
});
