// Commit status tools: listing with filters, and create-or-update with the name/context alias.
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness();
const P = String(SEED.project);
type Status = { id: number; name: string; status: string; ref: string | null };

describe('list_commit_statuses', () => {
  test('lists the statuses of a commit and passes filters on', async () => {
    const c = await h.as();
    const page = structured<{ items: Status[]; pagination: { total: number } }>(await c.call('list_commit_statuses', { project_id: P, sha: SEED.headSha }));
    expect(page.items.length).toBeGreaterThan(0);
    await c.call('list_commit_statuses', {
      project_id: P,
      sha: SEED.headSha,
      ref: 'main',
      stage: 'test',
      name: 'lint',
      pipeline_id: 5,
      order_by: 'pipeline_id',
      sort: 'asc',
      all: true,
    });
    expect(Object.fromEntries(h.forge.requests[1].query)).toEqual({
      ref: 'main',
      stage: 'test',
      name: 'lint',
      pipeline_id: '5',
      order_by: 'pipeline_id',
      sort: 'asc',
      all: 'true',
    });
  });

  // GitLab matches statuses on the sha as given and its status routes take no dotted :sha
  // (lib/api/commit_statuses.rb): branches and tags are read as their commit first.
  test('a branch or a dotted tag name lists the statuses of its commit', async () => {
    const c = await h.as();
    const bySha = structured<{ items: Status[] }>(await c.call('list_commit_statuses', { project_id: P, sha: SEED.headSha }));
    h.forge.reset();
    const byBranch = structured<{ items: Status[] }>(await c.call('list_commit_statuses', { project_id: P, sha: 'main' }));
    expect(byBranch.items.map((s) => s.id)).toEqual(bySha.items.map((s) => s.id));
    expect(h.upstream()).toEqual([`GET /api/v4/projects/42/repository/commits/main`, `GET /api/v4/projects/42/repository/commits/${SEED.headSha}/statuses`]);
    h.forge.reset();
    structured(await c.call('list_commit_statuses', { project_id: P, sha: SEED.tag }));
    expect(h.upstream()).toEqual([
      `GET /api/v4/projects/42/repository/commits/${SEED.tag}`,
      `GET /api/v4/projects/42/repository/commits/${SEED.tagSha}/statuses`,
    ]);
  });

  test('an upper-case full SHA is sent in lower case, as GitLab matches it', async () => {
    const c = await h.as();
    const lower = structured<{ items: Status[] }>(await c.call('list_commit_statuses', { project_id: P, sha: SEED.headSha }));
    h.forge.reset();
    const upper = structured<{ items: Status[] }>(await c.call('list_commit_statuses', { project_id: P, sha: SEED.headSha.toUpperCase() }));
    expect(upper.items.map((s) => s.id)).toEqual(lower.items.map((s) => s.id));
    expect(h.upstream()).toEqual([`GET /api/v4/projects/42/repository/commits/${SEED.headSha}/statuses`]);
  });

  test('an unknown commit → not_found; a bad sort → validation without an upstream call', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_commit_statuses', { project_id: P, sha: 'abc1234' })).kind).toBe('not_found');
    h.forge.reset();
    expect(toolError(await c.call('list_commit_statuses', { project_id: P, sha: SEED.headSha, sort: 'up' })).message).toBe('sort: must be one of asc, desc');
    expect(h.upstream()).toEqual([]);
  });
});

describe('create_commit_status', () => {
  test("on a dotted tag name: the status lands on the tag's commit", async () => {
    const c = await h.as(TOKENS.developer);
    const status = structured<Status & { sha: string }>(
      await c.call('create_commit_status', { project_id: P, sha: SEED.tag, state: 'success', name: 'release-check', ref: SEED.tag }),
    );
    expect(status.sha).toBe(SEED.tagSha);
    expect(h.upstream()[1]).toBe(`POST /api/v4/projects/42/statuses/${SEED.tagSha}`);
  });

  test("on a branch name without ref: the status is that branch's, not whichever ref GitLab would pick; a SHA sends no ref", async () => {
    const c = await h.as(TOKENS.developer);
    const status = structured<Status>(await c.call('create_commit_status', { project_id: P, sha: 'main', state: 'success', name: 'on-branch' }));
    expect(status.ref).toBe('main');
    expect(h.forge.requests[1].body).toEqual({ state: 'success', name: 'on-branch', ref: 'main' });
    h.forge.reset();
    structured(await c.call('create_commit_status', { project_id: P, sha: SEED.headSha.slice(0, 8), state: 'success', name: 'short-sha' }));
    expect(h.forge.requests[1].body).toEqual({ state: 'success', name: 'short-sha' });
  });

  test('creates a status; name defaults upstream to "default"', async () => {
    const c = await h.as(TOKENS.developer);
    const status = structured<Status>(await c.call('create_commit_status', { project_id: P, sha: SEED.headSha, state: 'pending' }));
    expect(status).toMatchObject({ name: 'default', status: 'pending' });
  });

  test('context is sent as name, and a pending status moves to success', async () => {
    const c = await h.as(TOKENS.developer);
    const first = structured<Status>(
      await c.call('create_commit_status', {
        project_id: P,
        sha: SEED.headSha,
        state: 'running',
        context: 'ci/ext',
        ref: 'main',
        coverage: 81.5,
        description: 'building',
        target_url: 'https://ci.example/1',
      }),
    );
    expect(h.forge.requests[0].body).toMatchObject({ name: 'ci/ext', state: 'running', coverage: 81.5 });
    const second = structured<Status>(
      await c.call('create_commit_status', { project_id: P, sha: SEED.headSha, state: 'success', name: 'ci/ext', ref: 'main' }),
    );
    expect(second.id).toBe(first.id);
    expect(second.status).toBe('success');
  });

  test("another user's running status of the same name is not updated: the caller's own gets added beside it", async () => {
    const theirs = structured<Status>(
      await (await h.as(TOKENS.maintainer)).call('create_commit_status', {
        project_id: P,
        sha: SEED.headSha,
        state: 'running',
        name: 'ci/shared',
        ref: 'main',
      }),
    );
    const mine = structured<Status>(
      await (await h.as(TOKENS.developer)).call('create_commit_status', { project_id: P, sha: SEED.headSha, state: 'success', name: 'ci/shared', ref: 'main' }),
    );
    expect(mine.id).not.toBe(theirs.id);
    expect(mine.status).toBe('success');
  });

  test('an invalid transition from the forge is an error, not applied', async () => {
    const c = await h.as(TOKENS.developer);
    structured(await c.call('create_commit_status', { project_id: P, sha: SEED.headSha, state: 'running', name: 'twice', ref: 'main' }));
    const error = toolError(await c.call('create_commit_status', { project_id: P, sha: SEED.headSha, state: 'running', name: 'twice', ref: 'main' }));
    expect(error.kind).toBe('validation');
    expect(error.message).toContain('Cannot transition status');
  });

  test.each([
    [{ state: 'done' }, 'state: must be one of pending, running, success, failed, canceled, skipped'],
    [{ state: 'success', name: 'a', context: 'b' }, 'context: is an alias of name; give one of name or context, not both'],
    [{}, 'state: is required'],
  ])('refuses %p before any upstream call', async (args, message) => {
    const c = await h.as(TOKENS.developer);
    expect(toolError(await c.call('create_commit_status', { project_id: P, sha: SEED.headSha, ...args }))).toEqual({
      kind: 'validation',
      status: null,
      message,
    });
    expect(h.upstream()).toEqual([]);
  });

  test('a guest → permission; an unknown commit → not_found', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('create_commit_status', { project_id: P, sha: SEED.headSha, state: 'success' })).kind).toBe(
      'permission',
    );
    expect(toolError(await (await h.as()).call('create_commit_status', { project_id: P, sha: 'f'.repeat(40), state: 'success' })).kind).toBe('not_found');
  });
});
