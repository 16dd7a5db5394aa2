// Work items of the fake forge's GraphQL API (issue 39): their types, the hierarchy GitLab allows
// between them, custom statuses, notes. GitLab keeps work items in the issues table; the fake keeps
// them apart from its REST issues (their iids start at 101 in a project so the two never meet).
// GitLab's sources: app/models/work_items/type.rb (BASE_TYPES), app/models/work_items/parent_link.rb
// (its validations and their words, MAX_CHILDREN), app/models/work_items/types_framework/system_defined/
// hierarchy_restriction.rb (which type may be whose parent, and how deep a chain of one type may go),
// ee/app/models/work_items/statuses/system_defined/status.rb (the five system statuses).

/** GitLab's type names and their IssueType enum values; ids as WorkItems::Type's. */
export const WORK_ITEM_TYPES = [
  { id: 1, name: 'Issue', enum: 'ISSUE', paid: false },
  { id: 2, name: 'Incident', enum: 'INCIDENT', paid: false },
  { id: 3, name: 'Test Case', enum: 'TEST_CASE', paid: true },
  { id: 4, name: 'Requirement', enum: 'REQUIREMENT', paid: true },
  { id: 5, name: 'Task', enum: 'TASK', paid: false },
  { id: 6, name: 'Objective', enum: 'OBJECTIVE', paid: true },
  { id: 7, name: 'Key Result', enum: 'KEY_RESULT', paid: true },
  { id: 8, name: 'Epic', enum: 'EPIC', paid: true },
  { id: 9, name: 'Ticket', enum: 'TICKET', paid: false },
] as const;
export type WorkItemTypeInfo = (typeof WORK_ITEM_TYPES)[number];

/** Which types may be a type's children (hierarchy_restriction.rb's ITEMS). */
export const ALLOWED_CHILDREN: Readonly<Record<string, readonly string[]>> = {
  Epic: ['Epic', 'Issue', 'Ticket'],
  Issue: ['Task'],
  Incident: ['Task'],
  Ticket: ['Task'],
  Objective: ['Objective', 'Key Result'],
};

/** hierarchy_restriction.rb's maximum_depth of a type under its own type (a chain of epics, of objectives). */
const MAX_SAME_TYPE_DEPTH: Readonly<Record<string, number>> = { Epic: 7, Objective: 9 };

/** Rails' Array#to_sentence, which joins a link's error messages. */
const toSentence = (words: string[]) => (words.length < 3 ? words.join(' and ') : `${words.slice(0, -1).join(', ')}, and ${words.at(-1)}`);

/** WorkItems::ParentLink::MAX_CHILDREN. */
export const MAX_CHILDREN = 5000;

export const SYSTEM_STATUSES = [
  { id: 1, name: 'To do', category: 'to_do' },
  { id: 2, name: 'In progress', category: 'in_progress' },
  { id: 3, name: 'Done', category: 'done' },
  { id: 4, name: "Won't do", category: 'canceled' },
  { id: 5, name: 'Duplicate', category: 'canceled' },
] as const;

export interface WorkItemNamespace {
  kind: 'project' | 'group';
  id: number;
  fullPath: string;
}

export interface WorkItemNote {
  id: number;
  discussionId: string;
  body: string;
  authorId: number;
  createdAt: string;
  internal: boolean;
}

export interface WorkItem {
  id: number;
  iid: number;
  namespace: WorkItemNamespace;
  type: string;
  title: string;
  description: string;
  state: 'OPEN' | 'CLOSED';
  confidential: boolean;
  authorId: number;
  assigneeIds: number[];
  labels: string[];
  milestoneId: number | null;
  iterationId: number | null;
  weight: number | null;
  startDate: string | null;
  dueDate: string | null;
  statusId: number | null;
  parentId: number | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  notes: WorkItemNote[];
  links: { linkType: string; targetId: number }[];
}

export class WorkItemStore {
  readonly items = new Map<number, WorkItem>();
  private nextId = 9001;
  private nextNote = 7001;
  private readonly nextIid = new Map<string, number>();

  add(fields: Partial<WorkItem> & Pick<WorkItem, 'namespace' | 'type' | 'title' | 'authorId'>, now: string): WorkItem {
    const key = `${fields.namespace.kind}:${fields.namespace.id}`;
    const iid = this.nextIid.get(key) ?? (fields.namespace.kind === 'project' ? 101 : 1);
    this.nextIid.set(key, iid + 1);
    const item: WorkItem = {
      id: this.nextId++,
      iid,
      description: '',
      state: 'OPEN',
      confidential: false,
      assigneeIds: [],
      labels: [],
      milestoneId: null,
      iterationId: null,
      weight: null,
      startDate: null,
      dueDate: null,
      statusId: null,
      parentId: null,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      notes: [],
      links: [],
      ...fields,
    };
    this.items.set(item.id, item);
    return item;
  }

  note(item: WorkItem, body: string, authorId: number, now: string, discussionId?: string, internal = false): WorkItemNote {
    const id = this.nextNote++;
    const note: WorkItemNote = { id, discussionId: discussionId ?? `${id}`.padStart(40, 'd'), body, authorId, createdAt: now, internal };
    item.notes.push(note);
    return note;
  }

  children(item: WorkItem): WorkItem[] {
    return [...this.items.values()].filter((c) => c.parentId === item.id);
  }

  /** The item and every ancestor, nearest first. */
  ancestors(item: WorkItem): WorkItem[] {
    const chain: WorkItem[] = [];
    for (let cur = this.items.get(item.parentId ?? -1); cur && chain.length < 100; cur = this.items.get(cur.parentId ?? -1)) chain.push(cur);
    return chain;
  }

  /** The item and its ancestors of its own type, as far as the chain of that type goes. */
  private sameTypeChain(item: WorkItem): number {
    let n = 1;
    for (let cur = this.items.get(item.parentId ?? -1); cur && cur.type === item.type && n < 100; cur = this.items.get(cur.parentId ?? -1)) n++;
    return n;
  }

  /** How many levels of its own type the item heads (itself included). */
  private sameTypeDepth(item: WorkItem, seen = 0): number {
    if (seen > 100) return seen;
    const deeper = this.children(item)
      .filter((c) => c.type === item.type)
      .map((c) => this.sameTypeDepth(c, seen + 1));
    return 1 + Math.max(0, ...deeper);
  }

  /**
   * Why `child` cannot go under `parent`, in GitLab's words, or undefined when it can: parent_link.rb's
   * validations in their order, each message kept under its attribute (work_item, then work_item_parent
   * as Rails keeps errors.messages) and joined as IssuableLinks::CreateService joins them (to_sentence).
   */
  parentProblem(parent: WorkItem, child: WorkItem): string | undefined {
    const onChild: string[] = [];
    const onParent: string[] = [];
    const first: string[] = [];
    const add = (list: string[], message: string) => {
      if (first.length === 0) first.push(list === onChild ? 'child' : 'parent');
      list.push(message);
    };
    if (!(ALLOWED_CHILDREN[parent.type] ?? []).includes(child.type)) add(onChild, "it's not allowed to add this type of parent item");
    else if (parent.type === child.type && MAX_SAME_TYPE_DEPTH[parent.type] !== undefined) {
      if (this.sameTypeChain(parent) + this.sameTypeDepth(child) > MAX_SAME_TYPE_DEPTH[parent.type]) add(onChild, 'reached maximum depth');
    }
    if (parent.id === child.id) add(onChild, 'is not allowed to point to itself');
    if (this.ancestors(parent).some((a) => a.id === child.id)) add(onChild, "it's already present in this item's hierarchy");
    if (child.parentId !== parent.id && this.children(parent).length >= MAX_CHILDREN) add(onParent, 'parent already has maximum number of children.');
    if (parent.confidential && !child.confidential) {
      const type = child.type.toLowerCase();
      add(onChild, `cannot assign a non-confidential ${type} to a confidential parent. Make the ${type} confidential and try again.`);
    }
    const linked = parent.links.some((l) => l.targetId === child.id) || child.links.some((l) => l.targetId === parent.id);
    if (linked && child.parentId !== parent.id) add(onChild, 'cannot assign a linked work item as a parent');
    const all = first[0] === 'parent' ? [...onParent, ...onChild] : [...onChild, ...onParent];
    return all.length ? toSentence(all) : undefined;
  }
}
