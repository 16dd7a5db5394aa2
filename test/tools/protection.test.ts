// Protected branch tools, including protect_branch's create-or-update behaviour (D20).
import { describe, expect, test } from 'bun:test';
import { EDITIONS, SEED, TOKENS } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness();
const P = String(SEED.project);

type Rule = {
  name: string;
  push_access_levels: { access_level: number }[];
  merge_access_levels: { access_level: number }[];
  /** Absent on the Community Edition. */
  unprotect_access_levels?: { access_level: number }[];
  allow_force_push: boolean;
};
const levels = (rule: Rule) => ({
  push: rule.push_access_levels.map((l) => l.access_level),
  merge: rule.merge_access_levels.map((l) => l.access_level),
  unprotect: rule.unprotect_access_levels?.map((l) => l.access_level),
});
/** The methods sent, the edition probe left out. */
const methods = () =>
  h
    .upstream()
    .filter((r) => !r.endsWith('/metadata'))
    .map((r) => r.split(' ')[0]);
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
    expect(h.forge.requests.find((r) => r.method === 'POST')!.body).toMatchObject({ name: 'develop', allow_force_push: false });
  });

  test('the deprecated alias name works like branch_name', async () => {
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(await c.call('protect_branch', { project_id: P, name: 'develop' }));
    expect(result.protected_branch.name).toBe('develop');
  });

  test('an existing rule: flag changes are a PATCH', async () => {
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', allow_force_push: true }),
    );
    expect(result.action).toBe('updated');
    expect(result.protected_branch.allow_force_push).toBe(true);
    expect(h.upstream().map((r) => r.split(' ')[0])).toEqual(['POST', 'GET', 'PATCH']);
  });

  test('an existing rule on a free tier: new levels replace the rule, other values are kept', async () => {
    h.forge.model.edition = 'ce';
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', push_access_level: 30 }),
    );
    expect(result.action).toBe('replaced');
    expect(levels(result.protected_branch)).toEqual({ push: [30], merge: [40], unprotect: undefined });
    // Known to be CE: no PATCH whose allowed_to_* GitLab would drop unread.
    expect(methods()).toEqual(['POST', 'GET', 'DELETE', 'POST']);
    expect(rule('main')).toBeDefined();
  });

  test('an existing rule on a paid tier: new levels are a PATCH with allowed_to_* entries', async () => {
    h.forge.model.premium = true;
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', merge_access_level: 30 }),
    );
    expect(result.action).toBe('updated');
    expect(levels(result.protected_branch)).toEqual({ push: [40], merge: [30], unprotect: [40] });
    expect(methods()).toEqual(['POST', 'GET', 'PATCH']);
  });

  // GitLab 16.x EE: the PATCH's code_owner_approval_required defaults to false when not sent
  // (ee/lib/ee/api/helpers/protected_branches_helpers.rb; gitlab-org/gitlab#422092).
  test.each(['16.0.0', '16.7.0', '17.6.0'] as const)('ee-premium %s: changing a level keeps code-owner approval on', async (version) => {
    h.forge.model.premium = true;
    h.forge.model.version = version;
    rule('main')!.code_owner_approval_required = true;
    const c = await h.as();
    const result = structured<{ action: string; protected_branch: Rule & { code_owner_approval_required: boolean }; not_applied?: string[] }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', merge_access_level: 30 }),
    );
    expect(result.action).toBe('updated');
    expect(result.protected_branch.code_owner_approval_required).toBe(true);
    expect(result.not_applied).toBeUndefined();
    expect(rule('main')!.code_owner_approval_required).toBe(true);
    expect(h.forge.requests.find((r) => r.method === 'PATCH')!.body).toMatchObject({ code_owner_approval_required: true });
  });

  test('ee-premium: a code-owner approval GitLab turned off all the same is reported in not_applied', async () => {
    h.forge.model.premium = true;
    rule('main')!.code_owner_approval_required = true;
    const answer = {
      name: 'main',
      push_access_levels: [{ id: 1, access_level: 40 }],
      merge_access_levels: [{ id: 2, access_level: 30 }],
      unprotect_access_levels: [{ id: 3, access_level: 40 }],
      allow_force_push: false,
      code_owner_approval_required: false,
    };
    h.forge.failNext({ method: 'PATCH', pathIncludes: 'protected_branches', status: 200, body: answer });
    const c = await h.as();
    const result = structured<{ action: string; not_applied?: string[] }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', merge_access_level: 30 }),
    );
    expect(result).toMatchObject({ action: 'updated', not_applied: ['code_owner_approval_required (GitLab turned it off; it was on)'] });
  });

  // app/models/concerns/protected_ref_access.rb: GitLab.com offers no 60 (admin) for any protected-branch level.
  test("gitlab.com: level 60 (admin) is GitLab's 400, named as GitLab.com's, for a new rule and an existing one; nothing changes", async () => {
    h.forge.model.edition = 'gitlab.com';
    const c = await h.as();
    const created = toolError(await c.call('protect_branch', { project_id: P, branch_name: 'develop', push_access_level: 60 }));
    expect(created).toMatchObject({ kind: 'validation', status: 400 });
    expect(created.message).toBe('push_access_level does not have a valid value; 60 (admin) is offered on self-managed GitLab only, not on GitLab.com');
    expect(rule('develop')).toBeUndefined();
    const updated = toolError(await c.call('protect_branch', { project_id: P, branch_name: 'main', merge_access_level: 60 }));
    expect(updated).toMatchObject({ kind: 'validation', status: 400 });
    expect(updated.message).toEndWith('; 60 (admin) is offered on self-managed GitLab only, not on GitLab.com');
    // GitLab checks the level before it looks for the rule: the first POST is refused, nothing else is sent.
    expect(methods()).toEqual(['POST', 'POST']);
    expect(levels(structured<Rule>(await c.call('get_protected_branch', { project_id: P, branch_name: 'main' }))).merge).toEqual([40]);
  });

  test('when the replacement is refused the old rule is put back and the failure reported', async () => {
    h.forge.model.edition = 'ce';
    h.forge.failNext({ method: 'POST', pathIncludes: 'protected_branches', status: 409, body: { message: "Protected branch 'main' already exists" } });
    h.forge.failNext({ method: 'POST', pathIncludes: 'protected_branches', status: 422, body: { message: 'Push access levels is invalid' } });
    const c = await h.as();
    const error = toolError(await c.call('protect_branch', { project_id: P, branch_name: 'main', push_access_level: 0 }));
    expect(error.kind).toBe('validation');
    expect(error.message).toContain('Push access levels is invalid; the previous rule was restored');
    expect(methods()).toEqual(['POST', 'GET', 'DELETE', 'POST', 'POST']);
    const restored = rule('main')!;
    expect(restored.push.map((e) => e.access_level)).toEqual([40]);
  });

  test.each([
    [{ branch_name: 'x', push_access_level: 20 }, 'push_access_level: must be one of 0 (no access), 30 (developer), 40 (maintainer), 60 (admin)'],
    [
      { branch_name: 'x', unprotect_access_level: 0 },
      'unprotect_access_level: must be one of 30 (developer), 40 (maintainer), 60 (admin); 0 is not allowed, since nobody could then unprotect the branch',
    ],
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

// The review's findings on protect_branch's update path, each on the edition where it matters.
describe('protect_branch keeps every entry and reports only what happened', () => {
  const entry = (id: number, fields: { access_level?: number; user_id?: number; group_id?: number; deploy_key_id?: number }) => ({
    id,
    access_level: fields.access_level ?? 40,
    user_id: fields.user_id ?? null,
    group_id: fields.group_id ?? null,
    deploy_key_id: fields.deploy_key_id ?? null,
  });
  const who = (entries: { access_level: number; user_id: number | null; group_id: number | null; deploy_key_id?: number | null }[]) =>
    entries
      .map((e) =>
        e.user_id ? `user ${e.user_id}` : e.group_id ? `group ${e.group_id}` : e.deploy_key_id ? `deploy key ${e.deploy_key_id}` : `role ${e.access_level}`,
      )
      .sort();

  test('ee-premium, PATCH refused: the replacement keeps user, group and deploy-key entries beside the new level', async () => {
    const main = rule('main')!;
    main.push = [entry(901, { access_level: 40 }), entry(902, { user_id: 2 }), entry(903, { group_id: 6 }), entry(904, { deploy_key_id: 5 })];
    main.merge = [entry(905, { access_level: 40 }), entry(906, { user_id: 2 })];
    h.forge.failNext({ method: 'PATCH', pathIncludes: 'protected_branches', status: 400, body: { message: 'allowed_to_push is invalid' } });
    const c = await h.as();
    const result = structured<{ action: string }>(await c.call('protect_branch', { project_id: P, branch_name: 'main', push_access_level: 30 }));
    expect(result.action).toBe('replaced');
    expect(who(rule('main')!.push)).toEqual(['deploy key 5', 'group 6', 'role 30', 'user 2']);
    expect(who(rule('main')!.merge)).toEqual(['role 40', 'user 2']);
  });

  test('ce: a rule a plain POST cannot recreate is refused before anything is unprotected', async () => {
    h.forge.model.edition = 'ce';
    rule('main')!.push = [entry(901, { access_level: 40 }), entry(904, { deploy_key_id: 5 })];
    const c = await h.as();
    const error = toolError(await c.call('protect_branch', { project_id: P, branch_name: 'main', merge_access_level: 30 }));
    expect(error).toMatchObject({ kind: 'validation', status: null });
    expect(error.message).toStartWith('push_access_level: the rule for main has push entries deploy key 5, role 40');
    expect(methods()).toEqual(['POST', 'GET']);
    expect(who(rule('main')!.push)).toEqual(['deploy key 5', 'role 40']);
  });

  test.each(EDITIONS)('%s: levels the rule already has change nothing, and nothing is unprotected', async (edition) => {
    h.forge.model.edition = edition;
    const c = await h.as();
    const result = structured<{ action: string; not_applied?: string[] }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', push_access_level: 40, merge_access_level: 40, allow_force_push: false }),
    );
    expect(result.action).toBe('unchanged');
    expect(result.not_applied).toBeUndefined();
    expect(methods()).toEqual(['POST', 'GET']);
  });

  test('ce, edition not readable: an unprotect level GitLab does not have is reported as not applied, never as a change, and never replaces the rule', async () => {
    h.forge.model.edition = 'ce';
    h.forge.failNext({ pathIncludes: '/metadata', status: 403, times: 5 });
    const c = await h.as();
    const existing = structured<{ action: string; not_applied?: string[] }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'main', unprotect_access_level: 40 }),
    );
    expect(existing).toMatchObject({ action: 'unchanged', not_applied: ['unprotect_access_level (the forge has no such level)'] });
    expect(methods()).toEqual(['POST', 'GET']);
    const created = structured<{ action: string; not_applied?: string[] }>(
      await c.call('protect_branch', { project_id: P, branch_name: 'develop', unprotect_access_level: 60 }),
    );
    expect(created).toMatchObject({ action: 'created', not_applied: ['unprotect_access_level (the forge has no such level)'] });
  });

  test('ce, edition known: unprotect_access_level and code_owner_approval_required are refused naming the tier', async () => {
    h.forge.model.edition = 'ce';
    const c = await h.as();
    for (const args of [{ unprotect_access_level: 60 }, { code_owner_approval_required: true }]) {
      const error = toolError(await c.call('protect_branch', { project_id: P, branch_name: 'develop', ...args }));
      expect(error.message).toStartWith(`${Object.keys(args)[0]}: this parameter needs GitLab Premium or Ultimate`);
    }
    expect(methods()).toEqual([]);
  });
});
