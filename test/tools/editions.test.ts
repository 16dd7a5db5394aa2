// The server learns what each forge runs (GET /metadata, once per origin) and acts on it: a paid-tier
// parameter on the Community Edition is refused naming the parameter and the tier, where GitLab would
// ignore it silently (docs/forge-editions.md). Every case runs on each edition the fake forge plays.
import { describe, expect, test } from 'bun:test';
import { EDITIONS, SEED, type Edition } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness();
const P = String(SEED.project);
const issue = (iid: number) => h.forge.model.findProject(P)!.issues.get(iid)!;
const sent = () => h.upstream().filter((r) => !r.endsWith('/metadata'));

describe.each(EDITIONS)('on %s', (edition: Edition) => {
  const ce = edition === 'ce';
  // EE without a licence: the server cannot tell it from a licensed EE, so it sends; GitLab then
  // leaves the paid part undone as CE would (the EE code's licence checks).
  const unlicensed = edition === 'ee-free';

  test('create_issue with a weight: refused on CE before anything is written; kept elsewhere', async () => {
    h.forge.model.edition = edition;
    const c = await h.as();
    const result = await c.call('create_issue', { project_id: P, title: 'Weighed', weight: 3 });
    if (ce) {
      expect(toolError(result)).toMatchObject({ kind: 'validation', status: null });
      expect(toolError(result).message).toBe(
        'weight: this parameter needs GitLab Premium or Ultimate; this forge runs the Community Edition (17.6.0), which would ignore it without saying so',
      );
      expect(sent()).toEqual([]);
    } else if (unlicensed) {
      expect(structured<{ weight?: number }>(result).weight).toBeUndefined();
    } else {
      expect(structured<{ weight: number }>(result).weight).toBe(3);
    }
  });

  test('update_issue with two assignees: refused on CE; both kept elsewhere; one assignee is fine everywhere', async () => {
    h.forge.model.edition = edition;
    const c = await h.as();
    const two = await c.call('update_issue', { project_id: P, issue_iid: 1, assignee_ids: [1, 2] });
    if (ce) {
      expect(toolError(two).message).toStartWith('assignee_ids: more than one assignee needs GitLab Premium or Ultimate');
      expect(issue(1).assignee_ids).toEqual([2]);
    } else if (unlicensed) {
      expect(structured<{ not_applied?: string[] }>(two).not_applied).toEqual(['assignee_ids']);
      expect(issue(1).assignee_ids).toEqual([1]);
    } else {
      structured(two);
      expect(issue(1).assignee_ids).toEqual([1, 2]);
    }
    structured(await c.call('update_issue', { project_id: P, issue_iid: 1, assignee_ids: [1] }));
    expect(issue(1).assignee_ids).toEqual([1]);
  });

  test('list_issues by iteration or by two assignee usernames: refused on CE (it would list unfiltered, or refuse)', async () => {
    h.forge.model.edition = edition;
    const c = await h.as();
    for (const args of [{ iteration_id: '7' }, { assignee_username: ['maria', 'dev'], scope: 'all' }]) {
      const result = await c.call('list_issues', { project_id: P, ...args });
      if (ce) expect(toolError(result).message).toStartWith(`${Object.keys(args)[0]}: `);
      else if (unlicensed && 'assignee_username' in args) expect(toolError(result).status).toBe(400);
      else expect(structured<{ items: unknown[] }>(result).items).toBeArray();
    }
  });

  test('tools given no edition-dependent parameter never ask the forge what it runs', async () => {
    h.forge.model.edition = edition;
    const c = await h.as();
    structured(await c.call('create_issue', { project_id: P, title: 'Plain', assignee_ids: [2] }));
    structured(await c.call('list_issues', { project_id: P }));
    expect(h.upstream().filter((r) => r.endsWith('/metadata'))).toEqual([]);
  });
});

describe('detection', () => {
  test('asked once per forge origin and kept: many calls, one GET /metadata; concurrent calls share it', async () => {
    h.forge.model.edition = 'ce';
    const c = await h.as();
    const calls = Array.from({ length: 5 }, () => c.call('create_issue', { project_id: P, title: 'x', weight: 1 }));
    for (const result of await Promise.all(calls)) expect(toolError(result).kind).toBe('validation');
    await c.call('update_issue', { project_id: P, issue_iid: 1, weight: 2 });
    expect(h.upstream().filter((r) => r.endsWith('/metadata'))).toEqual(['GET /api/v4/metadata']);
  });

  test('a forge older than /metadata is asked at /version', async () => {
    h.forge.model.edition = 'ce';
    h.forge.failNext({ pathIncludes: '/metadata', status: 404, body: { error: '404 Not Found' } });
    const c = await h.as();
    expect(toolError(await c.call('create_issue', { project_id: P, title: 'x', weight: 1 })).kind).toBe('validation');
    expect(h.upstream()).toEqual(['GET /api/v4/metadata', 'GET /api/v4/version']);
  });

  test.each([
    ['a token that may not read it (403)', { status: 403 }],
    ['an HTML page', { status: 200, body: '<html><body>Sign in</body></html>', headers: { 'content-type': 'text/html' } }],
    ['an answer far larger than any metadata', { status: 200, body: { version: '17.6.0', enterprise: false, padding: 'x'.repeat(100_000) } }],
    ['a version that is no version', { status: 200, body: { version: '<script>', enterprise: false } }],
    ['a 500', { status: 500 }],
  ])('%s: the call is not blocked; GitLab decides (CE then ignores the weight itself)', async (_, failure) => {
    h.forge.model.edition = 'ce';
    h.forge.failNext({ pathIncludes: '/metadata', ...failure });
    h.forge.failNext({ pathIncludes: '/version', ...failure });
    const c = await h.as();
    const created = structured<{ iid: number; weight?: number }>(await c.call('create_issue', { project_id: P, title: 'x', weight: 1 }));
    expect(created.weight).toBeUndefined();
    expect(issue(created.iid).weight).toBeNull();
  });
});
