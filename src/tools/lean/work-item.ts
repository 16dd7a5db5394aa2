// Work items as GitLab's GraphQL API gives them (D45): a node with its widgets, each a `type` and
// the fields of that widget. The lean record flattens the widgets the tools ask for into plain
// fields, keeps the work item's global id (writes take it) and gives users and milestones their
// numeric ids, as the REST records do. A work item with children also says how many are closed
// (when all of them came in its answer; otherwise more_children, and list_work_items with parent_id pages them).
import { compact, flag, isRecord, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S, STRINGS, USER, USERS } from './schema-parts';
import { Type } from '@sinclair/typebox';

/** `gid://gitlab/User/12` → 12; anything else as it came. */
function numericId(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = /^gid:\/\/gitlab\/[A-Za-z:]+\/(\d{1,19})$/.exec(value);
  return m ? Number(m[1]) : value;
}

const nodes = (connection: unknown): Rec[] => {
  const list = isRecord(connection) ? connection.nodes : undefined;
  return Array.isArray(list) ? list.filter(isRecord) : [];
};

const typeName = (r: Rec) => (isRecord(r.workItemType) ? r.workItemType.name : undefined);
const state = (value: unknown) => (value === 'OPEN' ? 'opened' : value === 'CLOSED' ? 'closed' : value);

const person = (u: Rec) => compact({ id: numericId(u.id), username: u.username, name: u.name });

/** Another work item named by this one (parent, child, linked item): enough to find and name it. */
function workItemRef(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return compact({ id: value.id, iid: value.iid, type: typeName(value), title: value.title, state: state(value.state) });
}

function leanWorkItem(r: Rec): Rec {
  const out: Rec = {
    id: r.id,
    iid: r.iid,
    type: typeName(r),
    title: r.title,
    state: state(r.state),
    reference: r.reference,
    confidential: flag(r.confidential),
    author: isRecord(r.author) ? person(r.author) : undefined,
  };
  for (const w of Array.isArray(r.widgets) ? r.widgets : []) {
    if (!isRecord(w)) continue;
    switch (w.type) {
      case 'DESCRIPTION':
        out.description = w.description;
        break;
      case 'ASSIGNEES':
        out.assignees = nodes(w.assignees).map(person);
        break;
      case 'LABELS':
        out.labels = nodes(w.labels).map((l) => l.title);
        break;
      case 'MILESTONE':
        out.milestone = isRecord(w.milestone) ? compact({ id: numericId(w.milestone.id), title: w.milestone.title }) : undefined;
        break;
      case 'ITERATION':
        out.iteration = isRecord(w.iteration) ? compact({ id: numericId(w.iteration.id), title: w.iteration.title }) : undefined;
        break;
      case 'WEIGHT':
        out.weight = w.weight;
        break;
      case 'START_AND_DUE_DATE':
        out.start_date = w.startDate;
        out.due_date = w.dueDate;
        break;
      case 'STATUS':
        out.status = isRecord(w.status) ? w.status.name : undefined;
        break;
      case 'HIERARCHY': {
        out.parent = workItemRef(w.parent);
        if (isRecord(w.children)) {
          const children = nodes(w.children).map(workItemRef);
          out.children = children;
          // Progress only from every child read: past the first page it would undercount what is closed.
          if (isRecord(w.children.pageInfo) && w.children.pageInfo.hasNextPage === true) out.more_children = true;
          else if (children.length > 0) out.progress = { closed: children.filter((c) => c?.state === 'closed').length, total: children.length };
        } else out.has_children = flag(w.hasChildren);
        break;
      }
      case 'LINKED_ITEMS':
        out.linked_items = nodes(w.linkedItems).map((l) => compact({ link_type: l.linkType, ...workItemRef(l.workItem) }));
        break;
    }
  }
  out.created_at = r.createdAt;
  out.updated_at = r.updatedAt;
  out.closed_at = r.closedAt;
  out.web_url = r.webUrl;
  return compact(out);
}

/** GraphQL's iid is a String; a user's or milestone's id is a number once its gid is read (numericId). */
const REF = fields({ id: S, iid: S, type: S, title: S, state: S });
const NAMED = fields({ id: I, title: S });

export const workItem: RecordKind = {
  schema: fields({
    id: S,
    iid: S,
    type: S,
    title: S,
    state: S,
    reference: S,
    confidential: B,
    author: USER,
    description: S,
    assignees: USERS,
    labels: STRINGS,
    milestone: NAMED,
    iteration: NAMED,
    weight: I,
    start_date: S,
    due_date: S,
    status: S,
    parent: REF,
    children: Type.Array(REF),
    more_children: B,
    progress: fields({ closed: I, total: I }),
    has_children: B,
    linked_items: Type.Array(fields({ link_type: S, id: S, iid: S, type: S, title: S, state: S })),
    created_at: S,
    updated_at: S,
    closed_at: S,
    web_url: S,
  }),
  about:
    'A work item (issue, task, epic, objective, …) from the GraphQL API: its global id (writes take it), type, state and the widgets asked for, flattened (parent, children with their state and progress, labels, assignees, milestone, iteration, weight, dates, status, linked items).',
  lean: leanWorkItem,
};

/** A comment on a work item, with the id of its thread (to reply in it). */
export const workItemNote: RecordKind = {
  about: 'A comment on a work item: who wrote what when, and the thread (discussion_id) to reply in.',
  schema: fields({ id: S, discussion_id: S, body: S, author: USER, created_at: S, system: B, internal: B }),
  lean: (r: Rec) =>
    compact({
      id: r.id,
      // The thread's own id, as the REST discussions give it (create_work_item_note takes it so).
      discussion_id: isRecord(r.discussion) && typeof r.discussion.id === 'string' ? r.discussion.id.replace(/^gid:\/\/gitlab\/Discussion\//, '') : undefined,
      body: r.body,
      author: isRecord(r.author) ? person(r.author) : undefined,
      created_at: r.createdAt,
      system: flag(r.system),
      internal: flag(r.internal),
    }),
};

/** A work item type a namespace offers, with the widgets it has (and, with custom statuses, the statuses it allows). */
export const workItemType: RecordKind = {
  about: 'A work item type a project or group offers: its name, global id and widgets (and allowed statuses where the instance has custom statuses).',
  schema: fields({ id: S, name: S, widgets: STRINGS, statuses: Type.Array(fields({ id: S, name: S, category: S })) }),
  lean: (r: Rec) =>
    compact({
      id: r.id,
      name: r.name,
      widgets: Array.isArray(r.widgetDefinitions) ? r.widgetDefinitions.filter(isRecord).map((d) => d.type) : undefined,
      statuses: Array.isArray(r.widgetDefinitions)
        ? r.widgetDefinitions
            .filter(isRecord)
            .flatMap((d) =>
              Array.isArray(d.allowedStatuses) ? d.allowedStatuses.filter(isRecord).map((s) => compact({ id: s.id, name: s.name, category: s.category })) : [],
            )
        : undefined,
    }),
};
