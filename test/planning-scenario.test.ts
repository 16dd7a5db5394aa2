// An agent's planning session from start to finish (issue 39), as the SDK v2 client does it on each
// lane, against the fake forge playing GitLab 18.2 Premium: find an epic by title, list its children,
// break one of its issues into three tasks (after GitLab refuses a task directly under the epic), move
// another issue under the epic, close one task, and read the epic's progress. Each step uses what the
// previous one returned, and the GraphQL operations sent are exactly the ones expected.
import { describe, expect, test } from 'bun:test';
import { WORK_ITEM_SEED as S } from './support/fake-forge';
import { useHarness } from './support/harness';
import { structured, toolError, type Lane } from './support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'work_items' });

type Item = Record<string, any> & { id: string; iid: string; title: string; state: string; type: string };
type Page = { items: Item[] };

/** The GraphQL operations sent, in order (the instance facts come from REST's /metadata, once). */
const operations = () => h.forge.requests.filter((r) => r.path === '/api/graphql').map((r) => (r.body as { operationName: string }).operationName);

describe.each(['modern', 'legacy'] as Lane[])('planning on the %s lane', (lane) => {
  test('find the epic, list its children, break an issue into tasks, move an issue under the epic, close a task, read progress', async () => {
    h.forge.model.version = '18.2.0';
    const agent = await h.on(lane);

    // 1. The epic, by title, in its group.
    const found = structured<Page>(await agent.call('list_work_items', { namespace_path: S.groupPath, types: ['EPIC'], search: 'Single sign-on' }));
    expect(found.items.map((i) => i.title)).toEqual([S.epic.title]);
    const epic = found.items[0];

    // 2. Its children.
    const children = structured<Page>(await agent.call('list_work_items', { parent_id: epic.id }));
    expect(children.items.map((c) => [c.title, c.type, c.state])).toEqual([
      ['Login with SAML', 'Issue', 'opened'],
      ['Session timeout settings', 'Issue', 'opened'],
    ]);
    const timeout = children.items[1];

    // 3. A task directly under the epic is GitLab's refusal, reported as such.
    const refused = toolError(
      await agent.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'Add the setting', parent_id: epic.id }),
    );
    expect(refused).toMatchObject({ kind: 'validation', message: expect.stringContaining("it's not allowed to add this type of parent item") });

    // 4. Break the issue into three tasks under it.
    const tasks: Item[] = [];
    for (const title of ['Add the setting', 'Enforce it on refresh', 'Document it']) {
      tasks.push(structured<Item>(await agent.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title, parent_id: timeout.id })));
    }
    expect(tasks.map((t) => [t.type, t.parent?.id])).toEqual(Array(3).fill(['Task', timeout.id]));

    // 5. Move another issue under the epic.
    const audit = structured<Item>(await agent.call('update_work_item', { namespace_path: S.projectPath, iid: String(S.audit.iid), parent_id: epic.id }));
    expect(audit.parent).toMatchObject({ id: epic.id, type: 'Epic' });

    // 6. Close one task.
    expect(structured<Item>(await agent.call('update_work_item', { id: tasks[0].id, state_event: 'close' })).state).toBe('closed');

    // 7. The epic's progress, and the issue's.
    const read = structured<Item>(await agent.call('get_work_item', { id: epic.id }));
    expect(read.progress).toEqual({ closed: 0, total: 3 });
    expect(read.children.map((c: Item) => c.title)).toEqual(['Login with SAML', 'Session timeout settings', S.audit.title]);
    const issue = structured<Item>(await agent.call('get_work_item', { id: timeout.id }));
    expect(issue.progress).toEqual({ closed: 1, total: 3 });

    expect(operations()).toEqual([
      'listWorkItems',
      'listWorkItemChildren',
      'workItemTypes',
      'createWorkItem',
      ...Array(3).fill(['workItemTypes', 'createWorkItem']).flat(),
      'resolveWorkItem',
      'updateWorkItem',
      'updateWorkItem',
      'getWorkItem',
      'getWorkItem',
    ]);
    // What was asked of GitLab's schema: the 18.2 Premium variant, with custom statuses.
    expect((h.forge.requests.find((r) => r.path === '/api/graphql')!.body as { query: string }).query).toContain('WorkItemWidgetStatus');
  });
});
