// The fake forge's milestone endpoints where the tools never go: parameter errors GitLab's Grape
// layer raises, which the tools' own validation prevents.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { forgeApi } from './support/forge-api';
import { SEED, startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});
beforeEach(() => forge.reset());

/** Status and body only: these tests compare the whole answer. */
async function api(path: string, o?: Parameters<typeof forgeApi>[2]) {
  const { status, body } = await forgeApi(forge, path, o);
  return { status, body };
}
const M = `/projects/${SEED.projectPathEncoded}/milestones`;

describe('milestone parameter errors', () => {
  test('create without a title: Grape\'s "is missing"', async () => {
    expect(await api(M, { json: { description: 'x' } })).toEqual({ status: 400, body: { error: 'title is missing' } });
  });

  test("create with due date on or before the start date: the model error in GitLab's message", async () => {
    expect(await api(M, { json: { title: 'v9', start_date: '2024-05-02', due_date: '2024-05-01' } })).toEqual({
      status: 400,
      body: { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
    });
  });

  test('an impossible date is stored as no date, as Rails casts it', async () => {
    const r = await api(M, { json: { title: 'v9', due_date: '2024-02-30' } });
    expect(r).toMatchObject({ status: 201, body: { title: 'v9', due_date: null } });
  });

  test('edit: an unknown state_event, or nothing to change', async () => {
    expect(await api(`${M}/${SEED.milestones.v1}`, { method: 'PUT', json: { state_event: 'reopen' } })).toEqual({
      status: 400,
      body: { error: 'state_event does not have a valid value' },
    });
    expect(await api(`${M}/${SEED.milestones.v1}`, { method: 'PUT', json: {} })).toEqual({
      status: 400,
      body: { error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' },
    });
  });

  test('list: comma-separated iids are accepted; a non-integer is not', async () => {
    const r = await api(`${M}?iids=1,2`);
    expect(r.body.map((m: { iid: number }) => m.iid).sort()).toEqual([1, 2]);
    expect(await api(`${M}?iids[]=x`)).toEqual({ status: 400, body: { error: 'iids is invalid' } });
  });

  test("a non-numeric milestone id is a parameter error, an unknown one ActiveRecord's 404", async () => {
    expect(await api(`${M}/v1.0`)).toEqual({ status: 400, body: { error: 'milestone_id is invalid' } });
    expect(await api(`${M}/999`)).toEqual({ status: 404, body: { message: '404 Not found' } });
  });

  test("promote answers 200 with no milestone, like GitLab's `status(200)`", async () => {
    expect(await api(`${M}/${SEED.milestones.v1}/promote`, { method: 'POST' })).toEqual({ status: 200, body: 200 });
  });

  test('burndown events: absent route on free, events on premium', async () => {
    forge.model.premium = false;
    expect(await api(`${M}/${SEED.milestones.v1}/burndown_events`)).toEqual({ status: 404, body: { error: '404 Not Found' } });
    forge.model.premium = true;
    const r = await api(`${M}/${SEED.milestones.v1}/burndown_events`);
    expect(r.body).toEqual([
      { created_at: '2024-01-03T10:00:00.000Z', weight: 3, action: 'created' },
      { created_at: '2024-01-04T10:00:00.000Z', weight: null, action: 'created' },
    ]);
    // Served whole, as GitLab does (docs/forge-editions.md): page parameters change nothing.
    expect((await api(`${M}/${SEED.milestones.v1}/burndown_events?page=2&per_page=1`)).body).toEqual(r.body);
  });
});
