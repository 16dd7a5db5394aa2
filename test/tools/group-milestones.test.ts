// Group milestone tools, promotion of a project milestone to its group, and burndown events on
// free and paid tiers.
import { describe, expect, test } from 'bun:test';
import { MILESTONE_SEED, SEED, TOKENS } from '../support/fake-forge';
import { ALL_TOOLS } from '../../src/tools/catalog';
import { forgeApi } from '../support/forge-api';
import { useHarness } from '../support/harness';
import { baselineArguments } from './arguments';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'milestones' });
const G = String(SEED.groups.platform);
const { v1, v09, groupQ1 } = SEED.milestones;
const Q1 = String(groupQ1);

type Milestone = { id: number; iid: number; title: string; state: string; group_id?: number; project_id?: number };
type Page<T> = { items: T[]; pagination: { page: number; total: number; next_page: number | null } };
const ids = (page: Page<{ id: number }>) => page.items.map((x) => x.id).sort();
const platform = () => h.forge.model.groups.get(SEED.groups.platform)!;
const api = () => h.forge.model.projects.get(SEED.project)!;

describe('list_group_milestones', () => {
  test('by numeric id, by path and by encoded path (encoded once)', async () => {
    const c = await h.as();
    for (const group_id of [G, SEED.groups.platformPath, 'acme%2Fplatform']) {
      const page = structured<Page<Milestone>>(await c.call('list_group_milestones', { group_id }));
      expect(page.items).toMatchObject([{ id: groupQ1, iid: 1, title: 'Q1 Platform', group_id: SEED.groups.platform }]);
    }
    expect(h.upstream()).toEqual([
      'GET /api/v4/groups/7/milestones',
      'GET /api/v4/groups/acme%2Fplatform/milestones',
      'GET /api/v4/groups/acme%2Fplatform/milestones',
    ]);
  });

  test('include_ancestors adds parent groups; include_descendants adds subgroups and their projects', async () => {
    const c = await h.as();
    const list = async (args: Record<string, unknown>) => ids(structured<Page<Milestone>>(await c.call('list_group_milestones', args)));
    expect(await list({ group_id: G, include_ancestors: true })).toEqual([groupQ1, MILESTONE_SEED.acmeRoadmap].sort());
    expect(await list({ group_id: 'acme', include_descendants: true })).toEqual([v1, v09, MILESTONE_SEED.v11, groupQ1, MILESTONE_SEED.acmeRoadmap].sort());
    expect(await list({ group_id: 'acme', include_descendants: true, state: 'closed' })).toEqual([v09, MILESTONE_SEED.acmeRoadmap].sort());
    expect(await list({ group_id: 'acme', include_descendants: true, search: 'platform', updated_before: '2024-01-01T12:00:00Z' })).toEqual([groupQ1]);
    expect(h.forge.requests.at(-1)!.query.get('include_descendants')).toBe('true');
  });

  test('before GitLab 16.7, which drops include_descendants, the tool refuses naming the release and sends nothing', async () => {
    h.forge.model.version = '16.0.0';
    // GitLab 16.0 lists the group's own milestones for include_descendants=true.
    expect((await forgeApi(h.forge, '/groups/acme/milestones?include_descendants=true')).body).toMatchObject([{ id: MILESTONE_SEED.acmeRoadmap }]);
    h.forge.requests.length = 0;
    expect(toolError(await (await h.as()).call('list_group_milestones', { group_id: 'acme', include_descendants: true }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'include_descendants: listing subgroup and project milestones needs GitLab 16.7 or later; this forge runs 16.0.0-ee',
    });
    expect(h.toolUpstream().filter((r) => !r.endsWith('/metadata'))).toEqual([]);
    // include_ancestors still works there, under its older name.
    expect(ids(structured<Page<Milestone>>(await (await h.as()).call('list_group_milestones', { group_id: G, include_ancestors: true })))).toEqual(
      [groupQ1, MILESTONE_SEED.acmeRoadmap].sort(),
    );
    expect(h.forge.requests.at(-1)!.query.get('include_parent_milestones')).toBe('true');
  });

  test('an unknown group is not_found', async () => {
    expect(toolError(await (await h.as()).call('list_group_milestones', { group_id: 'acme/nope' }))).toMatchObject({
      kind: 'not_found',
      message: '404 Group Not Found',
    });
  });

  test('bad state and dates are refused before any upstream call', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_group_milestones', { group_id: G, state: 'all' })).message).toBe('state: must be one of active, closed');
    expect(toolError(await c.call('list_group_milestones', { group_id: G, updated_before: '2024-13-01' })).kind).toBe('validation');
    expect(h.upstream()).toEqual([]);
  });
});

describe('get, create, edit and delete group milestones', () => {
  test('get_group_milestone gets one; a project milestone is not_found there', async () => {
    const c = await h.as();
    expect(structured<Milestone>(await c.call('get_group_milestone', { group_id: 'acme/platform', milestone_id: Q1 }))).toMatchObject({
      id: groupQ1,
      title: 'Q1 Platform',
      state: 'active',
    });
    expect(toolError(await c.call('get_group_milestone', { group_id: G, milestone_id: String(v1) })).kind).toBe('not_found');
  });

  test('create_group_milestone: a group developer creates; titles of the hierarchy are taken; a guest may not', async () => {
    const created = structured<Milestone>(
      await (await h.as(TOKENS.developer)).call('create_group_milestone', { group_id: G, title: 'Q2 Platform', due_date: '2024-06-30' }),
    );
    expect(created).toMatchObject({ title: 'Q2 Platform', group_id: SEED.groups.platform, iid: 2, state: 'active' });
    expect(platform().milestones.map((m) => m.title)).toContain('Q2 Platform');
    const taken = toolError(await (await h.as()).call('create_group_milestone', { group_id: G, title: 'v1.0' }));
    expect(taken.kind).toBe('validation');
    expect(taken.message).toContain('already being used');
    expect(toolError(await (await h.as(TOKENS.guest)).call('create_group_milestone', { group_id: G, title: 'Q3' }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
  });

  test('create_group_milestone checks dates before any upstream call', async () => {
    const err = toolError(await (await h.as()).call('create_group_milestone', { group_id: G, title: 'Q2', start_date: '2024-04-01', due_date: '2024-02-30' }));
    expect(err).toMatchObject({ kind: 'validation', message: 'due_date: must be a date in the form YYYY-MM-DD' });
    expect(h.upstream()).toEqual([]);
  });

  test('edit_group_milestone closes and reactivates; a guest may not', async () => {
    const c = await h.as();
    expect(structured<Milestone>(await c.call('edit_group_milestone', { group_id: G, milestone_id: Q1, state_event: 'close' })).state).toBe('closed');
    expect(platform().milestones[0].state).toBe('closed');
    expect(
      structured<Milestone>(await c.call('edit_group_milestone', { group_id: 'acme%2Fplatform', milestone_id: Q1, state_event: 'activate', title: 'Q1' })),
    ).toMatchObject({ state: 'active', title: 'Q1' });
    expect(toolError(await (await h.as(TOKENS.guest)).call('edit_group_milestone', { group_id: G, milestone_id: Q1, title: 'x' })).kind).toBe('permission');
  });

  test('edit_group_milestone refuses a bad state_event before any upstream call', async () => {
    const err = toolError(await (await h.as()).call('edit_group_milestone', { group_id: G, milestone_id: Q1, state_event: 'open' }));
    expect(err).toMatchObject({ kind: 'validation', message: 'state_event: must be one of close, activate' });
    expect(h.upstream()).toEqual([]);
  });

  test('delete_group_milestone deletes it and unassigns its issues; a guest may not; an unknown id is not_found', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('delete_group_milestone', { group_id: G, milestone_id: Q1 })).kind).toBe('permission');
    const c = await h.as();
    expect(structured(await c.call('delete_group_milestone', { group_id: G, milestone_id: Q1 }))).toEqual({ deleted: true, milestone_id: Q1 });
    expect(platform().milestones).toEqual([]);
    expect(api().issues.get(3)!.milestone_id).toBeNull();
    expect(toolError(await c.call('delete_group_milestone', { group_id: G, milestone_id: Q1 })).kind).toBe('not_found');
  });
});

describe('issues and merge requests of a group milestone', () => {
  test("get_group_milestone_issue lists the issues of the group's projects", async () => {
    const page = structured<Page<{ iid: number; project_id: number }>>(
      await (await h.as()).call('get_group_milestone_issue', { group_id: G, milestone_id: Q1 }),
    );
    expect(page.items).toMatchObject([{ iid: 3, project_id: SEED.project }]);
    expect(page.pagination.total).toBe(1);
  });

  test('get_group_milestone_merge_requests lists merge requests', async () => {
    const page = structured<Page<{ iid: number; state: string }>>(
      await (await h.as()).call('get_group_milestone_merge_requests', { group_id: 'acme/platform', milestone_id: Q1 }),
    );
    expect(page.items).toMatchObject([{ iid: 4, state: 'closed' }]);
  });

  test('an unknown group or a project milestone is not_found', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_group_milestone_issue', { group_id: '999', milestone_id: Q1 })).message).toBe('404 Group Not Found');
    expect(toolError(await c.call('get_group_milestone_merge_requests', { group_id: G, milestone_id: String(v1) })).kind).toBe('not_found');
  });
});

describe('promote_milestone', () => {
  type Promoted = { promoted: true; project_milestone: { id: number; title: string }; group_milestone: Milestone | null; note?: string };

  test("moves the milestone to the project's group; its issues and merge requests follow", async () => {
    const result = structured<Promoted>(
      await (await h.as(TOKENS.developer)).call('promote_milestone', { project_id: String(SEED.project), milestone_id: String(v1) }),
    );
    expect(result.project_milestone).toMatchObject({ id: v1, title: 'v1.0' });
    const promoted = result.group_milestone!;
    expect(promoted).toMatchObject({ title: 'v1.0', group_id: SEED.groups.platform, state: 'active' });
    expect(promoted.id).not.toBe(v1);
    expect(api().milestones.some((m) => m.id === v1)).toBe(false);
    expect(platform().milestones.map((m) => m.id)).toContain(promoted.id);
    expect([1, 2].map((iid) => api().issues.get(iid)!.milestone_id)).toEqual([promoted.id, promoted.id]);
    expect(
      api()
        .mergeRequests.filter((mr) => mr.milestone_id === promoted.id)
        .map((mr) => mr.iid),
    ).toEqual([1, 2, 3]);
    expect(h.upstream()).toEqual([
      `GET /api/v4/projects/42/milestones/${v1}`,
      `POST /api/v4/projects/42/milestones/${v1}/promote`,
      // The release says how the look-up names ancestor milestones (include_ancestors from 16.7).
      'GET /api/v4/metadata',
      'GET /api/v4/projects/42/milestones',
    ]);
  });

  test('before GitLab 16.7 the new group milestone is found too (include_parent_milestones)', async () => {
    h.forge.model.version = '16.0.0';
    const result = structured<Promoted>(
      await (await h.as(TOKENS.developer)).call('promote_milestone', { project_id: String(SEED.project), milestone_id: String(v1) }),
    );
    expect(result.group_milestone).toMatchObject({ title: 'v1.0', group_id: SEED.groups.platform });
    expect(result.note).toBeUndefined();
  });

  test('is annotated destructive and says it is one-way', async () => {
    const { tools } = await (await h.as()).client.listTools();
    const tool = tools.find((t) => t.name === 'promote_milestone')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(tool.description).toContain('One-way');
  });

  test('a project in a personal namespace has no group to promote to', async () => {
    const err = toolError(
      await (await h.as()).call('promote_milestone', {
        project_id: MILESTONE_SEED.personalProjectPath,
        milestone_id: String(MILESTONE_SEED.personalMilestone),
      }),
    );
    // GitLab answers 403 (authorize! on the project's group, which is nil): the tool says why.
    expect(err).toEqual({
      kind: 'permission',
      status: 403,
      message: 'maria/sandbox is in the personal namespace maria: it has no group to promote a milestone to',
    });
    expect(h.upstream()).toEqual([
      `GET /api/v4/projects/maria%2Fsandbox/milestones/${MILESTONE_SEED.personalMilestone}`,
      `POST /api/v4/projects/maria%2Fsandbox/milestones/${MILESTONE_SEED.personalMilestone}/promote`,
      'GET /api/v4/projects/maria%2Fsandbox',
    ]);
    expect((await forgeApi(h.forge, `/projects/maria%2Fsandbox/milestones/${MILESTONE_SEED.personalMilestone}/promote`, { method: 'POST' })).body).toEqual({
      message: '403 Forbidden',
    });
  });

  test('a guest may not; an unknown milestone fails before anything is written', async () => {
    expect(toolError(await (await h.as(TOKENS.guest)).call('promote_milestone', { project_id: String(SEED.project), milestone_id: String(v1) }))).toMatchObject(
      { kind: 'permission', status: 403, message: '403 Forbidden' },
    );
    h.forge.requests.length = 0;
    expect(toolError(await (await h.as()).call('promote_milestone', { project_id: String(SEED.project), milestone_id: '999' })).kind).toBe('not_found');
    expect(h.upstream()).toEqual(['GET /api/v4/projects/42/milestones/999']);
  });

  test('when the new milestone cannot be looked up, the promotion is still reported', async () => {
    // The look-up uses the numeric project id, the promotion the path given: fail only the look-up (and its retries).
    h.forge.failNext({ method: 'GET', pathIncludes: '/projects/42/milestones', status: 503, times: 3 });
    const result = structured<Promoted>(await (await h.as()).call('promote_milestone', { project_id: SEED.projectPath, milestone_id: String(v09) }));
    expect(result).toMatchObject({ promoted: true, project_milestone: { id: v09 }, group_milestone: null });
    expect(result.note).toContain('finding the new group milestone failed (upstream');
    expect(platform().milestones.map((m) => m.title)).toContain('v0.9');
  });

  test('a title is refused before any upstream call', async () => {
    expect(toolError(await (await h.as()).call('promote_milestone', { project_id: String(SEED.project), milestone_id: 'v1.0' })).kind).toBe('validation');
    expect(h.upstream()).toEqual([]);
  });
});

describe('burndown events', () => {
  test('on a free instance: an error that names the paid tiers, after checking the milestone exists', async () => {
    h.forge.model.edition = 'ce';
    const c = await h.as();
    const err = toolError(await c.call('get_milestone_burndown_events', { project_id: String(SEED.project), milestone_id: String(v1) }));
    expect(err).toMatchObject({ kind: 'not_found', status: 404 });
    expect(err.message).toStartWith('burndown events need GitLab Premium or Ultimate; this instance answered 404');
    expect(h.upstream()).toEqual([`GET /api/v4/projects/42/milestones/${v1}/burndown_events`, `GET /api/v4/projects/42/milestones/${v1}`]);
    const group = toolError(await c.call('get_group_milestone_burndown_events', { group_id: 'acme/platform', milestone_id: Q1 }));
    expect(group.message).toContain('Premium or Ultimate');
  });

  test('on a free instance, a missing milestone is a plain not_found', async () => {
    const err = toolError(await (await h.as()).call('get_milestone_burndown_events', { project_id: String(SEED.project), milestone_id: '999' }));
    expect(err).toMatchObject({ kind: 'not_found', status: 404, message: '404 Not found' });
  });

  test('an unlicensed paid build answers 405: also named as a tier limit', async () => {
    h.forge.failNext({ method: 'GET', pathIncludes: '/burndown_events', status: 405, body: { message: 'Milestone does not support burndown chart' } });
    const err = toolError(await (await h.as()).call('get_group_milestone_burndown_events', { group_id: G, milestone_id: Q1 }));
    expect(err).toMatchObject({ kind: 'not_found', status: 405 });
    expect(err.message).toBe(
      'burndown events need GitLab Premium or Ultimate; this instance answered 405 (Milestone does not support burndown chart) for an existing milestone',
    );
  });

  test("on a paid instance: the events of the milestone's issues", async () => {
    h.forge.model.premium = true;
    const c = await h.as();
    const project = structured<Page<{ created_at: string; weight?: number | null; action: string }>>(
      await c.call('get_milestone_burndown_events', { project_id: SEED.projectPath, milestone_id: String(v09) }),
    );
    // Lean events (D33): a null weight is left out; full_response keeps the forge's null.
    expect(project.items).toEqual([
      { created_at: '2024-01-06T10:00:00.000Z', action: 'created' },
      { created_at: '2024-01-10T12:00:00.000Z', action: 'closed' },
    ]);
    const full = structured<Page<{ weight: number | null }>>(
      await c.call('get_milestone_burndown_events', { project_id: SEED.projectPath, milestone_id: String(v09), full_response: true }),
    );
    expect(full.items.map((e) => e.weight)).toEqual([null, null]);
    const group = structured<Page<{ created_at: string; weight?: number | null; action: string }>>(
      await c.call('get_group_milestone_burndown_events', { group_id: G, milestone_id: Q1 }),
    );
    expect(group.items).toEqual([{ created_at: '2024-01-05T10:00:00.000Z', action: 'created' }]);
    expect(toolError(await c.call('get_milestone_burndown_events', { project_id: String(SEED.project), milestone_id: '999' })).message).toBe('404 Not found');
  });

  test('ids are checked before any upstream call', async () => {
    expect(toolError(await (await h.as()).call('get_group_milestone_burndown_events', { group_id: G, milestone_id: '1.5' })).kind).toBe('validation');
    expect(h.upstream()).toEqual([]);
  });
});

// GitLab answers every burndown event at once (docs/forge-editions.md), yet docs/spec.md gives both
// burndown tools page and per_page: the server pages the one answer itself.
describe("burndown events come in pages made from GitLab's one answer (docs/spec.md: page, per_page)", () => {
  /** Twelve more closed issues in the milestone: 26 events with the seeded two. */
  function longBurndown(milestoneId: number) {
    h.forge.model.premium = true;
    const issues = [...api().issues.values()];
    const model = issues[0];
    for (let n = 1; n <= 12; n++) {
      const day = String(n + 10).padStart(2, '0');
      const iid = 900 + n;
      api().issues.set(iid, {
        ...model,
        id: 90_000 + n,
        iid,
        milestone_id: milestoneId,
        confidential: false,
        state: 'closed',
        created_at: `2024-02-${day}T08:00:00.000Z`,
        closed_at: `2024-02-${day}T18:00:00.000Z`,
      });
    }
  }
  type Event = { created_at: string; action: string };

  test.each([
    ['get_milestone_burndown_events', { project_id: SEED.projectPath, milestone_id: String(v09) }, v09],
    ['get_group_milestone_burndown_events', { group_id: G, milestone_id: Q1 }, groupQ1],
  ] as const)('%s: page 1 of 20 by default, exact totals, the pages add up to every event', async (name, args, milestoneId) => {
    longBurndown(milestoneId);
    const c = await h.as();
    const all = structured<Page<Event>>(await c.call(name, { ...args, per_page: 100 }));
    expect(all.items.length).toBeGreaterThanOrEqual(24);
    const total = all.items.length;
    const first = structured<Page<Event> & { pagination: Record<string, unknown> }>(await c.call(name, args));
    expect(first.items).toEqual(all.items.slice(0, 20));
    expect(first.pagination).toEqual({ page: 1, per_page: 20, next_page: 2, total, total_pages: 2 });
    const second = structured<Page<Event> & { pagination: Record<string, unknown> }>(await c.call(name, { ...args, page: 2 }));
    expect(second.items).toEqual(all.items.slice(20));
    expect(second.pagination).toEqual({ page: 2, per_page: 20, next_page: null, total, total_pages: 2 });
    const small = structured<Page<Event>>(await c.call(name, { ...args, page: 3, per_page: 5 }));
    expect(small.items).toEqual(all.items.slice(10, 15));
    expect(structured<Page<Event>>(await c.call(name, { ...args, page: 9 })).items).toEqual([]);
    // One request per call, without page parameters GitLab would ignore.
    const sent = h.forge.requests.filter((r) => r.path.endsWith('/burndown_events'));
    expect(sent).toHaveLength(5);
    for (const r of sent) expect([r.query.get('page'), r.query.get('per_page')]).toEqual([null, null]);
  });

  test.each(['get_milestone_burndown_events', 'get_group_milestone_burndown_events'])(
    "%s: page and per_page are checked like every list tool's, before any upstream call",
    async (name) => {
      const tool = ALL_TOOLS.find((t) => t.name === name)!;
      const c = await h.as();
      for (const [paging, parameter] of [
        [{ per_page: 101 }, 'per_page'],
        [{ per_page: 0 }, 'per_page'],
        [{ page: 0 }, 'page'],
        [{ page: 1.5 }, 'page'],
      ] as const) {
        const error = toolError(await c.call(name, { ...baselineArguments(tool), ...paging }));
        expect([error.kind, error.message.startsWith(`${parameter}: `)]).toEqual(['validation', true]);
      }
      expect(h.upstream()).toEqual([]);
    },
  );
});

// list_issue_links and get_file_blame are not paginated by GitLab and answer in one piece: neither
// takes page parameters that would do nothing.
describe('tools over endpoints GitLab does not paginate take no page parameters', () => {
  test.each(['list_issue_links', 'get_file_blame'])('%s', async (name) => {
    const tool = ALL_TOOLS.find((t) => t.name === name)!;
    expect(['page', 'per_page'].filter((p) => p in tool.input.properties)).toEqual([]);
    if (tool.group !== 'milestones') return; // the others are not served by this file's deployment
    const c = await h.as();
    for (const paging of [{ page: 2 }, { per_page: 5 }]) {
      const error = toolError(await c.call(name, { ...baselineArguments(tool), ...paging }));
      expect(error).toEqual({ kind: 'validation', status: null, message: `${Object.keys(paging)[0]}: is not a parameter of this tool` });
    }
    expect(h.upstream()).toEqual([]);
  });
});
