// GitLab's hierarchy rules and their words, as the work item tools meet them (issue 39, D45), checked
// against GitLab's source: which type may be whose parent and how deep a chain of one type may go
// (app/models/work_items/types_framework/system_defined/hierarchy_restriction.rb), the link's
// validations (app/models/work_items/parent_link.rb), the parent named when a parent is refused
// (app/services/work_items/callbacks/hierarchy.rb), children refused in one message
// (app/services/issuable_links/create_service.rb), and a type change's refusals (app/models/work_item.rb).
import { describe, expect, test } from 'bun:test';
import { WORK_ITEM_SEED as S } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'work_items' });
const gid = (id: number) => `gid://gitlab/WorkItem/${id}`;
type Item = Record<string, unknown> & { id: string; iid: string; type: string };

const store = () => h.forge.model.workItems;
const itemOf = (id: string) => store().items.get(Number(id.split('/').at(-1)))!;

describe('hierarchy rules, in GitLab words', () => {
  test('a ticket may sit under an epic (hierarchy_restriction.rb)', async () => {
    h.forge.model.version = '18.2.0';
    const c = await h.as();
    const ticket = structured<Item>(
      await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TICKET', title: 'Customer cannot sign in', parent_id: gid(S.epic.id) }),
    );
    expect(ticket.type).toBe('Ticket');
    expect(itemOf(ticket.id).parentId).toBe(S.epic.id);
  });

  test('a refused parent is named in the message, not the child', async () => {
    h.forge.model.version = '18.2.0';
    const c = await h.as();
    const e = toolError(await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'Under the epic', parent_id: gid(S.epic.id) }));
    expect(e.kind).toBe('validation');
    expect(e.message).toContain(`&${S.epic.iid} cannot be added: it's not allowed to add this type of parent item`);
    expect([...store().items.values()].some((w) => w.title === 'Under the epic')).toBe(false);
  });

  test('children refused together are one message joined as GitLab joins them; an id of nothing is passed over', async () => {
    const fixtures = store().items.get(S.fixtures.id)!;
    const task = store().add({ namespace: fixtures.namespace, type: 'Task', title: 'Loose task', authorId: 1 }, h.forge.model.now());
    const c = await h.as();
    const e = toolError(
      await c.call('add_work_item_children', {
        id: gid(S.otherEpic.id),
        child_ids: [gid(S.fixtures.id), gid(S.audit.id), gid(S.otherEpic.id + 100_000), gid(task.id)],
      }),
    );
    expect(e.kind).toBe('validation');
    const refusal = "cannot be added: it's not allowed to add this type of parent item";
    expect(e.message).toContain(`#${S.fixtures.iid} ${refusal}. #${task.iid} ${refusal}`);
    expect(e.message).not.toContain('No matching work item');
    expect(store().items.get(S.audit.id)!.parentId).toBeNull();
    const none = toolError(await c.call('add_work_item_children', { id: gid(S.otherEpic.id), child_ids: [gid(S.otherEpic.id + 100_000)] }));
    expect(none.message).toContain('No matching work item found. Make sure that you are adding a valid work item ID.');
  });

  test('a chain of epics stops at seven: the eighth is "reached maximum depth"', async () => {
    h.forge.model.version = '18.2.0';
    const epics = [store().items.get(S.epic.id)!];
    for (let i = 2; i <= 7; i++) {
      epics.push(
        store().add({ namespace: epics[0].namespace, type: 'Epic', title: `level ${i}`, authorId: 1, parentId: epics.at(-1)!.id }, h.forge.model.now()),
      );
    }
    const c = await h.as();
    const e = toolError(await c.call('add_work_item_children', { id: gid(epics.at(-1)!.id), child_ids: [gid(S.otherEpic.id)] }));
    expect(e).toMatchObject({ kind: 'validation', message: expect.stringContaining(`&${S.otherEpic.iid} cannot be added: reached maximum depth`) });
    structured(await c.call('add_work_item_children', { id: gid(epics.at(-2)!.id), child_ids: [gid(S.otherEpic.id)] }));
    expect(store().items.get(S.otherEpic.id)!.parentId).toBe(epics.at(-2)!.id);
  });

  test('a public child under a confidential parent is refused with the child type named', async () => {
    store().items.get(S.audit.id)!.confidential = true;
    const c = await h.as();
    const e = toolError(await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'Open task', parent_id: gid(S.audit.id) }));
    expect(e.message).toContain(
      `#${S.audit.iid} cannot be added: cannot assign a non-confidential task to a confidential parent. Make the task confidential and try again.`,
    );
    structured(
      await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'Secret task', parent_id: gid(S.audit.id), confidential: true }),
    );
  });
});

describe("a type change GitLab refuses (app/models/work_item.rb's words)", () => {
  test('a task under an issue cannot become an incident; an issue with tasks cannot become a task', async () => {
    const c = await h.as();
    const underParent = toolError(await c.call('convert_work_item_type', { id: gid(S.fixtures.id), type: 'INCIDENT' }));
    expect(underParent).toMatchObject({
      kind: 'validation',
      message: expect.stringContaining('Work item type cannot be changed to incident when linked to a parent issue.'),
    });
    store().items.get(S.saml.id)!.parentId = null;
    const withChildren = toolError(await c.call('convert_work_item_type', { id: gid(S.saml.id), type: 'TASK' }));
    expect(withChildren).toMatchObject({
      kind: 'validation',
      message: expect.stringContaining('Work item type cannot be changed to Task with these child item types.'),
    });
    expect([store().items.get(S.fixtures.id)!.type, store().items.get(S.saml.id)!.type]).toEqual(['Task', 'Issue']);
  });
});
