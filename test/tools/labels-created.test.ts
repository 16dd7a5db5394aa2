// labels_created (issue 36): a write naming a label the project does not have says GitLab created it,
// so a misspelling shows at once; labels of the project's groups count as known.
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'issues,merge_requests' });
const P = SEED.projectPath;
const labelLookups = () => h.forge.requests.filter((r) => r.path.endsWith('/labels')).map((r) => r.query.get('search'));

describe('labels_created', () => {
  test("create_issue: a misspelt label is named; known ones (the group's too) are not", async () => {
    const c = await h.as();
    const issue = structured<{ labels: string[]; labels_created?: string[] }>(
      await c.call('create_issue', { project_id: P, title: 'Typo', labels: ['bug', 'bgu', 'team/platform'] }),
    );
    expect(issue.labels_created).toEqual(['bgu']);
    expect(labelLookups().sort()).toEqual(['bgu', 'bug', 'team/platform']);
    const known = structured<Record<string, unknown>>(await c.call('create_issue', { project_id: P, title: 'Fine', labels: ['bug'] }));
    expect(known).not.toHaveProperty('labels_created');
  });

  test('update_issue, create_merge_request and update_merge_request say so too', async () => {
    const c = await h.as();
    expect(
      structured<{ labels_created?: string[] }>(await c.call('update_issue', { project_id: P, issue_iid: 2, labels: ['feature', 'perf'] })).labels_created,
    ).toEqual(['perf']);
    const mr = structured<{ iid: number; labels_created?: string[] }>(
      await c.call('create_merge_request', { project_id: P, title: 'Gateway', source_branch: 'develop', target_branch: 'main', labels: ['auth', 'gateway'] }),
    );
    expect(mr.labels_created).toEqual(['gateway']);
    const updated = structured<{ labels_created?: string[] }>(
      await c.call('update_merge_request', { project_id: P, merge_request_iid: mr.iid, labels: ['gateway', 'sso'] }),
    );
    // gateway exists now: GitLab created it with the merge request.
    expect(updated.labels_created).toEqual(['sso']);
  });

  test('a write without labels asks nothing; a caller whose labels GitLab ignores creates none', async () => {
    const c = await h.as();
    await c.call('update_issue', { project_id: P, issue_iid: 2, title: 'Add rate limiting now' });
    expect(labelLookups()).toEqual([]);
    const guest = await h.as(TOKENS.guest);
    const issue = structured<Record<string, unknown>>(await guest.call('create_issue', { project_id: P, title: 'From a guest', labels: ['newlabel'] }));
    expect(issue).not.toHaveProperty('labels_created');
  });
});
