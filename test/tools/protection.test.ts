// Protected branch tools, including protect_branch's create-or-update behaviour (D20).
import { describe, expect, test } from 'bun:test';
import { SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness();
const P = String(SEED.project);

type Rule = {
  name: string;
  push_access_levels: { access_level: number }[];
  merge_access_levels: { access_level: number }[];
  unprotect_access_levels: { access_level: number }[];
  allow_force_push: boolean;
};
const levels = (rule: Rule) => ({
  push: rule.push_access_levels.map((l) => l.access_level),
  merge: rule.merge_access_levels.map((l) => l.access_level),
  unprotect: rule.unprotect_access_levels.map((l) => l.access_level),
});
const rule = (name: string) => h.forge.model.findProject(P)!.protectedBranches.find((r) => r.name === name);

describe('list_protected_branches and get_protected_branch', () => {
  test('lists rules including wildcard patterns', async () => {
    const c = await h.as();
    const result = structured<{ items: Rule[]; pagination: { total: number } }>(await c.call('list_protected_branches', { project_id: P }));
    expect(result.items.map((r) => r.name).sort()).toEqual(['main', 'release/*']);
    expect(result.pagination.total).toBe(2);
  });

  test('gets a wildcard rule by its pattern (encoded as one segment)', async () => {
    const c = await h.as();
    const result = structured<Rule>(await c.call('get_protected_branch', { project_id: P, branch_name: 'release/*' }));
    expect(levels(result)).toEqual({ push: [0], merge: [40], unprotect: [40] });
    expect(h.upstream()[0]).toMatch(/\/protected_branches\/release%2F(\*|%2A)$/);
  });

  test('an unprotected branch → not_found; an invisible project → not_found', async () => {
    expect(toolError(await (await h.as()).call('get_protected_branch', { project_id: P, branch_name: 'develop' })).kind).toBe('not_found');
    expect(toolError(await (await h.as(TOKENS.guest)).call('list_protected_branches', { project_id: String(SEED.privateProject) })).kind).toBe('not_found');
  });
});

describe('protect_branch', () => {
  test('protects an unprotected branch with the given levels', async () => {
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'develop', push_access_level: 30, merge_access_level: 40, unprotect_access_level: 60 }),
    );
    expect(result.action).toBe('created');
    expect(levels(result.protected_branch)).toEqual({ push: [30], merge: [40], unprotect: [60] });
    expect(h.forge.requests[0].body).toMatchObject({ name: 'develop', allow_force_push: false });
  });

  test('the deprecated alias name works like branch_name', async () => {
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(await c.call('protect_branch', { project_id: P, name: 'develop' }));
    expect(result.protected_branch.name).toBe('develop');
  });

  test('an existing rule: flag changes are a PATCH', async () => {
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(await c.call('protect_branch', { project_id: P, branch_name: 'main', allow_force_push: true }));
    expect(result.action).toBe('updated');
    expect(result.protected_branch.allow_force_push).toBe(true);
    expect(h.upstream().map((r) => r.split(' ')[0])).toEqual(['POST', 'GET', 'PATCH']);
  });

  test('an existing rule on a free tier: new levels replace the rule, other values are kept', async () => {
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(await c.call('protect_branch', { project_id: P, branch_name: 'main', push_access_level: 30 }));
    expect(result.action).toBe('replaced');
    expect(levels(result.protected_branch)).toEqual({ push: [30], merge: [40], unprotect: [40] });
    expect(h.upstream().map((r) => r.split(' ')[0])).toEqual(['POST', 'GET', 'PATCH', 'DELETE', 'POST']);
    expect(rule('main')).toBeDefined();
  });

  test('an existing rule on a paid tier: new levels are a PATCH with allowed_to_* entries', async () => {
    h.forge.model.premium = true;
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(await c.call('protect_branch', { project_id: P, branch_name: 'main', merge_access_level: 30 }));
    expect(result.action).toBe('updated');
    expect(levels(result.protected_branch)).toEqual({ push: [40], merge: [30], unprotect: [40] });
    expect(h.upstream().map((r) => r.split(' ')[0])).toEqual(['POST', 'GET', 'PATCH']);
  });

  test('when the replacement is refused the old rule is put back and the failure reported', async () => {
    h.forge.failNext({ method: 'POST', pathIncludes: 'protected_branches', status: 409, body: { message: "Protected branch 'main' already exists" } });
    h.forge.failNext({ method: 'POST', pathIncludes: 'protected_branches', status: 422, body: { message: 'Push access levels is invalid' } });
    const c = await h.as();
    const error = toolError(await c.call('protect_branch', { project_id: P, branch_name: 'main', push_access_level: 0 }));
    expect(error.kind).toBe('validation');
    expect(error.message).toContain('Push access levels is invalid; the previous rule was restored');
    expect(h.upstream().map((r) => r.split(' ')[0])).toEqual(['POST', 'GET', 'PATCH', 'DELETE', 'POST', 'POST']);
    const restored = rule('main')!;
    expect(restored.push.map((e) => e.access_level)).toEqual([40]);
  });

  test.each([
    [{ branch_name: 'x', push_access_level: 20 }, 'push_access_level: must be one of 0 (no access), 30 (developer), 40 (maintainer), 60 (admin)'],
    [{}, 'branch_name: is required'],
    [{ branch_name: 'a', name: 'b' }, 'name: is a deprecated alias of branch_name; give one of them, not two different values'],
  ])('invalid arguments are refused before any upstream call: %p', async (args, message) => {
    const c = await h.as();
    expect(toolError(await c.call('protect_branch', { project_id: P, ...args }))).toEqual({ kind: 'validation', status: null, message });
    expect(h.upstream()).toEqual([]);
  });

  test('a developer → permission', async () => {
    expect(toolError(await (await h.as(TOKENS.developer)).call('protect_branch', { project_id: P, branch_name: 'develop' })).kind).toBe('permission');
  });
});

describe('unprotect_branch', () => {
  test('removes a rule', async () => {
    const c = await h.as();
    expect(structured(await c.call('unprotect_branch', { project_id: P, branch_name: 'release/*' }))).toEqual({ unprotected: true, branch_name: 'release/*' });
    expect(rule('release/*')).toBeUndefined();
  });

  test('no rule → not_found; a developer → permission', async () => {
    expect(toolError(await (await h.as()).call('unprotect_branch', { project_id: P, branch_name: 'develop' })).kind).toBe('not_found');
    expect(toolError(await (await h.as(TOKENS.developer)).call('unprotect_branch', { project_id: P, branch_name: 'main' })).kind).toBe('permission');
    expect(rule('main')).toBeDefined();
  });
});
