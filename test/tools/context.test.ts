// The context group: a merge request's commits and the issues it closes, an issue's related merge
// requests and the merge requests that close it; success and the forge's refusals through a client.
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'context' });
const P = String(SEED.project);
type Page<T> = { items: T[]; pagination: { page: number; total: number; next_page: number | null } };
const mr = (iid: number) => h.forge.model.projects.get(SEED.project)!.mergeRequests.find((x) => x.iid === iid)!;

describe('list_merge_request_commits', () => {
  test('the source branch commits not on the target, newest first, lean', async () => {
    const page = structured<Page<{ id: string; title: string; author_email?: string; message?: string }>>(
      await (await h.as()).call('list_merge_request_commits', { project_id: P, merge_request_iid: 1 }),
    );
    expect(page.items.map((c) => c.id)).toEqual([...SEED.featureShas].reverse());
    expect(page.pagination).toMatchObject({ page: 1, total: 2, next_page: null });
    expect(h.toolUpstream()).toEqual(['GET /api/v4/projects/42/merge_requests/1/commits']);
  });

  test('an unknown merge request is not_found; a bad iid is refused before the network', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_merge_request_commits', { project_id: P, merge_request_iid: 999 }))).toMatchObject({
      kind: 'not_found',
      message: '404 Merge Request Not Found',
    });
    h.forge.requests.length = 0;
    expect(toolError(await c.call('list_merge_request_commits', { project_id: P, merge_request_iid: '1/../../2' })).kind).toBe('validation');
    expect(h.toolUpstream()).toEqual([]);
  });
});

describe('closing and related merge requests', () => {
  test('closes_issues reads the closing pattern, only for a merge request into the default branch', async () => {
    mr(1).description = 'Closes #1 and #2. See #3 for the docs.';
    const c = await h.as();
    const closes = structured<Page<{ iid: number }>>(await c.call('list_merge_request_closes_issues', { project_id: P, merge_request_iid: 1 }));
    expect(closes.items.map((i) => i.iid)).toEqual([1, 2]);
    mr(1).target_branch = 'develop';
    expect(structured<Page<{ iid: number }>>(await c.call('list_merge_request_closes_issues', { project_id: P, merge_request_iid: 1 })).items).toEqual([]);
  });

  test('closed_by lists the merge requests that close the issue; related adds those that mention it', async () => {
    mr(1).description = 'Closes #1 and #2. See #3 for the docs.';
    mr(5).description = 'Fixes #3';
    const c = await h.as();
    const iids = async (tool: string, issue_iid: number) =>
      structured<Page<{ iid: number }>>(await c.call(tool, { project_id: P, issue_iid })).items.map((m) => m.iid);
    expect(await iids('list_issue_closed_by', 1)).toEqual([1]);
    expect(await iids('list_issue_closed_by', 3)).toEqual([5]);
    expect(await iids('list_issue_related_merge_requests', 3)).toEqual([1, 5]);
    expect(await iids('list_issue_related_merge_requests', 4)).toEqual([]);
  });

  test("a merge request in a list is a lean record; full_response gives GitLab's", async () => {
    mr(5).description = 'Fixes #3';
    const c = await h.as();
    const lean = structured<Page<Record<string, unknown>>>(await c.call('list_issue_closed_by', { project_id: P, issue_iid: 3 })).items[0];
    const full = structured<Page<Record<string, unknown>>>(await c.call('list_issue_closed_by', { project_id: P, issue_iid: 3, full_response: true })).items[0];
    expect(Object.keys(lean).length).toBeLessThan(Object.keys(full).length);
    expect(lean).toMatchObject({ iid: 5, title: 'Bump dependencies' });
  });

  test('upstream refusals: an unknown issue, a private project for a stranger', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_issue_closed_by', { project_id: P, issue_iid: 999 }))).toMatchObject({
      kind: 'not_found',
      message: '404 Issue Not Found',
    });
    expect(toolError(await c.call('list_issue_related_merge_requests', { project_id: P, issue_iid: 999 })).kind).toBe('not_found');
    expect(toolError(await c.call('list_merge_request_closes_issues', { project_id: 'acme/nope', merge_request_iid: 1 })).kind).toBe('not_found');
    const guest = await h.as(TOKENS.guest);
    expect(toolError(await guest.call('list_merge_request_commits', { project_id: String(SEED.privateProject), merge_request_iid: 1 })).kind).toBe('not_found');
  });
});
