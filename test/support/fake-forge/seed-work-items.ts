// Work items of the seed (issue 39): in group acme/platform (7) the epics "Single sign-on" (iid 1)
// and "Billing revamp" (iid 2); in project acme/platform/api (42) the issues "Login with SAML"
// (101) and "Session timeout settings" (102) under the first epic, "Audit log for sign-ins" (103)
// under none, and the closed task "Write SAML fixtures" (104) under issue 101.
import type { ForgeModel } from './model';
import type { WorkItemNamespace } from './model-work-items';

export const WORK_ITEM_SEED = {
  groupPath: 'acme/platform',
  projectPath: 'acme/platform/api',
  epic: { id: 9001, iid: 1, title: 'Single sign-on' },
  otherEpic: { id: 9002, iid: 2, title: 'Billing revamp' },
  saml: { id: 9003, iid: 101 },
  timeout: { id: 9004, iid: 102 },
  audit: { id: 9005, iid: 103, title: 'Audit log for sign-ins' },
  fixtures: { id: 9006, iid: 104 },
} as const;

export function seedWorkItems(m: ForgeModel): void {
  const store = m.workItems;
  const now = '2026-11-02T09:00:00.000Z';
  const group: WorkItemNamespace = { kind: 'group', id: 7, fullPath: WORK_ITEM_SEED.groupPath };
  const project: WorkItemNamespace = { kind: 'project', id: 42, fullPath: WORK_ITEM_SEED.projectPath };
  const epic = store.add({ namespace: group, type: 'Epic', title: WORK_ITEM_SEED.epic.title, description: 'Sign in with the company IdP.', authorId: 1 }, now);
  store.add({ namespace: group, type: 'Epic', title: WORK_ITEM_SEED.otherEpic.title, authorId: 1 }, now);
  const saml = store.add(
    { namespace: project, type: 'Issue', title: 'Login with SAML', authorId: 1, parentId: epic.id, labels: ['backend'], assigneeIds: [2], weight: 3 },
    now,
  );
  store.add({ namespace: project, type: 'Issue', title: 'Session timeout settings', authorId: 2, parentId: epic.id, milestoneId: 101 }, now);
  store.add({ namespace: project, type: 'Issue', title: WORK_ITEM_SEED.audit.title, authorId: 1 }, now);
  const task = store.add(
    { namespace: project, type: 'Task', title: 'Write SAML fixtures', authorId: 2, parentId: saml.id, state: 'CLOSED', closedAt: now },
    now,
  );
  store.note(saml, 'Which IdPs must we support first?', 2, now);
  store.note(task, 'Done in the fixtures folder.', 2, now);
}
