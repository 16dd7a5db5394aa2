// Resolvers of the fake forge's GraphQL API over its work items (issue 39), executed by the `graphql`
// package against schema.ts. What GitLab does that the tools meet: null for a project, group or work
// item the caller cannot see (types' `authorize`); RESOURCE_ACCESS_ERROR for a mutation on one;
// mutation failures in the payload's `errors` (app/graphql/mutations/work_items/*.rb); fields the caller
// may not set (labels, assignees, milestone, weight below Reporter) dropped silently; paid widgets only
// on a paid tier; epics as work items from GitLab 17.7 (the work_item_epics flag, on by default then);
// custom statuses from 18.2; a status of the done or canceled category closes the item.
import { GraphQLError } from 'graphql';
import { atLeast, paidTier } from '../edition';
import { ACCESS, type ForgeModel, type User } from '../model';
import { ALLOWED_CHILDREN, SYSTEM_STATUSES, WORK_ITEM_TYPES, type WorkItem, type WorkItemNamespace, type WorkItemTypeInfo } from '../model-work-items';

export const RESOURCE_ACCESS_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

interface Ctx {
  model: ForgeModel;
  user: User | null;
}

type Args = Record<string, unknown>;
type Obj = Record<string, unknown>;

const gid = (model: string, id: number | string) => `gid://gitlab/${model}/${id}`;

/** GitLab's GlobalIDType: the id must name a record of the expected model (a WorkItemID also takes an Issue's). */
function parseGid(value: unknown, models: readonly string[]): number {
  const m = typeof value === 'string' ? /^gid:\/\/gitlab\/([A-Za-z:]+)\/(\d+)$/.exec(value) : null;
  if (!m) throw new GraphQLError(`${JSON.stringify(value)} is not a valid GitLab ID.`);
  if (!models.includes(m[1])) throw new GraphQLError(`${JSON.stringify(value)} does not represent an instance of ${models[0]}`);
  return Number(m[2]);
}

const statusesOn = (m: ForgeModel) => paidTier(m) && atLeast(m, 18, 2);
const epicsOn = (m: ForgeModel) => paidTier(m) && atLeast(m, 17, 7);

/** The types a namespace offers: epics in groups only; paid types on a paid tier. */
function typesIn(m: ForgeModel, kind: 'project' | 'group'): WorkItemTypeInfo[] {
  if (kind === 'group') return epicsOn(m) ? WORK_ITEM_TYPES.filter((t) => t.name === 'Epic') : [];
  return WORK_ITEM_TYPES.filter((t) => t.name !== 'Epic' && (!t.paid || paidTier(m)));
}

function widgetTypes(m: ForgeModel, type: string): string[] {
  const widgets = ['ASSIGNEES', 'DESCRIPTION', 'HIERARCHY', 'LABELS', 'LINKED_ITEMS', 'MILESTONE', 'NOTES', 'START_AND_DUE_DATE'];
  if (paidTier(m)) widgets.push('WEIGHT', 'ITERATION');
  if (statusesOn(m) && ['Issue', 'Task', 'Epic'].includes(type)) widgets.push('STATUS');
  return widgets;
}

function namespaceOf(ctx: Ctx, fullPath: unknown): { ns: WorkItemNamespace; level: number; visible: boolean } | undefined {
  if (typeof fullPath !== 'string' || /^\d+$/.test(fullPath)) return undefined;
  const uid = ctx.user?.id ?? -1;
  const p = ctx.model.findProject(fullPath);
  if (p) return { ns: { kind: 'project', id: p.id, fullPath: p.path_with_namespace }, level: ctx.model.accessLevel(p, uid), visible: ctx.model.canSee(p, uid) };
  const g = ctx.model.findGroup(fullPath);
  if (!g) return undefined;
  const level = ctx.model.groupAccessLevel(g, uid);
  return { ns: { kind: 'group', id: g.id, fullPath: g.full_path }, level, visible: level > 0 || g.visibility !== 'private' };
}

function itemAccess(ctx: Ctx, wi: WorkItem): { level: number; visible: boolean } {
  const found = namespaceOf(ctx, wi.namespace.fullPath);
  return found ?? { level: 0, visible: false };
}

function userView(m: ForgeModel, id: number): Obj | null {
  const u = m.users.get(id);
  return u ? { id: gid('User', u.id), username: u.username, name: u.name } : null;
}

const page = <T>(all: T[], args: Args, view: (t: T) => unknown) => {
  const first = Math.min(typeof args.first === 'number' && args.first >= 0 ? args.first : 100, 100);
  let offset = 0;
  if (typeof args.after === 'string') {
    try {
      offset = JSON.parse(Buffer.from(args.after, 'base64url').toString()).offset;
    } catch {
      throw new GraphQLError('Please provide a valid cursor');
    }
  }
  const slice = all.slice(offset, offset + first);
  const hasNextPage = offset + first < all.length;
  return {
    count: all.length,
    nodes: slice.map(view),
    pageInfo: {
      hasNextPage,
      hasPreviousPage: offset > 0,
      startCursor: null,
      endCursor: slice.length ? Buffer.from(JSON.stringify({ offset: offset + slice.length })).toString('base64url') : null,
    },
  };
};

function milestoneView(m: ForgeModel, id: number | null): Obj | null {
  if (id === null) return null;
  for (const p of m.projects.values())
    for (const ms of p.milestones) if (ms.id === id) return { id: gid('Milestone', id), title: ms.title, dueDate: ms.due_date };
  for (const g of m.groups.values())
    for (const ms of g.milestones) if (ms.id === id) return { id: gid('Milestone', id), title: ms.title, dueDate: ms.due_date };
  return null;
}

function itemView(ctx: Ctx, wi: WorkItem): Obj {
  const m = ctx.model;
  const type = WORK_ITEM_TYPES.find((t) => t.name === wi.type)!;
  const groupLevel = wi.namespace.kind === 'group';
  const visibleChildren = () => m.workItems.children(wi).filter((c) => itemAccess(ctx, c).visible);
  const widgets = () =>
    widgetTypes(m, wi.type).map((w): Obj => {
      switch (w) {
        case 'ASSIGNEES':
          return {
            __typename: 'WorkItemWidgetAssignees',
            type: w,
            allowsMultipleAssignees: paidTier(m),
            assignees: (a: Args) => page(wi.assigneeIds, a, (id) => userView(m, id)),
          };
        case 'DESCRIPTION':
          return { __typename: 'WorkItemWidgetDescription', type: w, description: wi.description, edited: false };
        case 'HIERARCHY': {
          const parent = wi.parentId === null ? undefined : m.workItems.items.get(wi.parentId);
          return {
            __typename: 'WorkItemWidgetHierarchy',
            type: w,
            parent: parent && itemAccess(ctx, parent).visible ? itemView(ctx, parent) : null,
            hasParent: parent !== undefined,
            hasChildren: m.workItems.children(wi).length > 0,
            children: (a: Args) => page(visibleChildren(), a, (c) => itemView(ctx, c)),
          };
        }
        case 'LABELS':
          return { __typename: 'WorkItemWidgetLabels', type: w, labels: (a: Args) => page(wi.labels, a, (title) => ({ id: gid('ProjectLabel', 1), title })) };
        case 'LINKED_ITEMS':
          return {
            __typename: 'WorkItemWidgetLinkedItems',
            type: w,
            linkedItems: (a: Args) =>
              page(
                wi.links.map((l) => ({ l, t: m.workItems.items.get(l.targetId) })).filter((x) => x.t && itemAccess(ctx, x.t).visible),
                a,
                (x) => ({ linkType: x.l.linkType, workItem: itemView(ctx, x.t!) }),
              ),
          };
        case 'MILESTONE':
          return { __typename: 'WorkItemWidgetMilestone', type: w, milestone: milestoneView(m, wi.milestoneId) };
        case 'NOTES':
          return {
            __typename: 'WorkItemWidgetNotes',
            type: w,
            discussions: (a: Args) => {
              const ids = [...new Set(wi.notes.map((n) => n.discussionId))];
              return page(ids, a, (d) => ({
                id: gid('Discussion', d),
                notes: (na: Args) =>
                  page(
                    wi.notes.filter((n) => n.discussionId === d),
                    na,
                    (n) => ({
                      id: gid('Note', n.id),
                      body: n.body,
                      author: userView(m, n.authorId),
                      createdAt: n.createdAt,
                      system: false,
                      internal: n.internal,
                      discussion: { id: gid('Discussion', d) },
                    }),
                  ),
              }));
            },
          };
        case 'START_AND_DUE_DATE':
          return { __typename: 'WorkItemWidgetStartAndDueDate', type: w, startDate: wi.startDate, dueDate: wi.dueDate };
        case 'WEIGHT':
          return { __typename: 'WorkItemWidgetWeight', type: w, weight: wi.weight };
        case 'ITERATION':
          return {
            __typename: 'WorkItemWidgetIteration',
            type: w,
            iteration: wi.iterationId === null ? null : { id: gid('Iteration', wi.iterationId), title: `Sprint ${wi.iterationId}` },
          };
        default: {
          const s = SYSTEM_STATUSES.find((x) => x.id === (wi.statusId ?? (wi.state === 'CLOSED' ? 3 : 1)))!;
          return {
            __typename: 'WorkItemWidgetStatus',
            type: w,
            status: { id: gid('WorkItems::Statuses::SystemDefined::Status', s.id), name: s.name, category: s.category },
          };
        }
      }
    });
  return {
    id: gid('WorkItem', wi.id),
    iid: String(wi.iid),
    title: wi.title,
    state: wi.state,
    confidential: wi.confidential,
    createdAt: wi.createdAt,
    updatedAt: wi.updatedAt,
    closedAt: wi.closedAt,
    webUrl: `${m.webBase}/${groupLevel ? 'groups/' : ''}${wi.namespace.fullPath}/-/work_items/${wi.iid}`,
    reference: (a: Args) => `${a.full ? wi.namespace.fullPath : ''}${groupLevel ? '&' : '#'}${wi.iid}`,
    author: userView(m, wi.authorId),
    namespace: { id: gid(groupLevel ? 'Group' : 'Namespaces::ProjectNamespace', wi.namespace.id), fullPath: wi.namespace.fullPath },
    workItemType: typeView(m, type),
    widgets,
  };
}

function typeView(m: ForgeModel, t: WorkItemTypeInfo): Obj {
  return {
    id: gid('WorkItems::Type', t.id),
    name: t.name,
    iconName: `issue-type-${t.enum.toLowerCase()}`,
    widgetDefinitions: widgetTypes(m, t.name).map((type) =>
      type === 'STATUS'
        ? {
            __typename: 'WorkItemWidgetDefinitionStatus',
            type,
            allowedStatuses: SYSTEM_STATUSES.map((s) => ({ id: gid('WorkItems::Statuses::SystemDefined::Status', s.id), name: s.name, category: s.category })),
          }
        : { __typename: 'WorkItemWidgetDefinitionGeneric', type },
    ),
  };
}

const within = (value: unknown, after: unknown, before: unknown) =>
  (typeof after !== 'string' || String(value) >= after) && (typeof before !== 'string' || String(value) <= before);

function namespaceView(ctx: Ctx, ns: WorkItemNamespace): Obj {
  const m = ctx.model;
  const types = typesIn(m, ns.kind);
  return {
    id: gid(ns.kind === 'group' ? 'Group' : 'Project', ns.id),
    fullPath: ns.fullPath,
    workItemTypes: (a: Args) =>
      page(
        types.filter((t) => !a.name || t.enum === a.name),
        a,
        (t) => typeView(m, t),
      ),
    workItems: (a: Args) => {
      const below = (other: WorkItemNamespace) =>
        a.includeDescendants === true && ns.kind === 'group' && other.fullPath.toLowerCase().startsWith(`${ns.fullPath.toLowerCase()}/`);
      const offered = new Set<string>(WORK_ITEM_TYPES.filter((t) => typesIn(m, t.name === 'Epic' ? 'group' : 'project').includes(t)).map((t) => t.name));
      let all = [...m.workItems.items.values()].filter(
        (wi) => ((wi.namespace.kind === ns.kind && wi.namespace.id === ns.id) || below(wi.namespace)) && offered.has(wi.type) && itemAccess(ctx, wi).visible,
      );
      const typeNames = Array.isArray(a.types) ? WORK_ITEM_TYPES.filter((t) => (a.types as string[]).includes(t.enum)).map((t): string => t.name) : undefined;
      const search = typeof a.search === 'string' ? a.search.toLowerCase() : undefined;
      all = all.filter(
        (wi) =>
          (a.iid === undefined || a.iid === null || String(wi.iid) === a.iid) &&
          (!typeNames || typeNames.includes(wi.type)) &&
          (a.state === undefined || a.state === null || a.state === 'all' || (a.state === 'opened') === (wi.state === 'OPEN')) &&
          (!search || wi.title.toLowerCase().includes(search) || wi.description.toLowerCase().includes(search)) &&
          (!Array.isArray(a.labelName) || (a.labelName as string[]).every((l) => wi.labels.includes(l))) &&
          (!Array.isArray(a.assigneeUsernames) ||
            (a.assigneeUsernames as string[]).every((u) => wi.assigneeIds.some((id) => m.users.get(id)?.username === u))) &&
          (typeof a.authorUsername !== 'string' || m.users.get(wi.authorId)?.username === a.authorUsername) &&
          (!Array.isArray(a.milestoneTitle) || (a.milestoneTitle as string[]).includes(String(milestoneView(m, wi.milestoneId)?.title))) &&
          within(wi.createdAt, a.createdAfter, a.createdBefore) &&
          within(wi.updatedAt, a.updatedAfter, a.updatedBefore),
      );
      const sort = String(a.sort ?? 'CREATED_DESC');
      const key = sort.startsWith('TITLE')
        ? (wi: WorkItem) => wi.title
        : sort.startsWith('UPDATED')
          ? (wi: WorkItem) => wi.updatedAt
          : (wi: WorkItem) => wi.createdAt;
      all.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : x.id - y.id) * (sort.endsWith('DESC') ? -1 : 1));
      return page(all, a, (wi) => itemView(ctx, wi));
    },
  };
}

function findItem(ctx: Ctx, id: unknown): WorkItem | undefined {
  const wi = ctx.model.workItems.items.get(parseGid(id, ['WorkItem', 'Issue']));
  return wi && itemAccess(ctx, wi).visible ? wi : undefined;
}

/** A work item the caller may change (Reporter or more), or GitLab's RESOURCE_ACCESS_ERROR. */
function writable(ctx: Ctx, id: unknown): WorkItem {
  const wi = findItem(ctx, id);
  if (!wi || itemAccess(ctx, wi).level < ACCESS.reporter) throw new GraphQLError(RESOURCE_ACCESS_ERROR);
  return wi;
}

/** A work item's to_reference with nothing to be relative to, as GitLab's hierarchy errors name one (`#12`). */
const reference = (wi: WorkItem) => `${wi.namespace.kind === 'group' ? '&' : '#'}${wi.iid}`;

function labelTitles(m: ForgeModel, ids: unknown): string[] {
  if (!Array.isArray(ids)) return [];
  const all = [...m.discovery.labels.values()].flat();
  return ids.map((id) => {
    const n = parseGid(id, ['Label', 'ProjectLabel', 'GroupLabel']);
    const label = all.find((l) => l.id === n);
    if (!label) throw new GraphQLError(RESOURCE_ACCESS_ERROR);
    return label.name;
  });
}

/** Applies the widgets of a create or update input; returns the payload's errors (nothing is changed when there are any). */
function applyWidgets(ctx: Ctx, wi: WorkItem, input: Obj, level: number): string[] {
  const m = ctx.model;
  const errors: string[] = [];
  const next: Partial<WorkItem> = {};
  const hierarchy = input.hierarchyWidget as Obj | undefined;
  // One of parent and children per call (app/services/work_items/callbacks/hierarchy.rb).
  if (hierarchy && 'parentId' in hierarchy && Array.isArray(hierarchy.childrenIds)) return ['One and only one of children, parent or remove_child is required'];
  if (hierarchy && 'parentId' in hierarchy) {
    if (hierarchy.parentId === null) next.parentId = null;
    else {
      const parent = findItem(ctx, hierarchy.parentId);
      if (!parent) return [RESOURCE_ACCESS_ERROR];
      const problem = m.workItems.parentProblem(parent, wi);
      // GitLab names the parent here, not the child (update_work_item_parent rewrites the reference).
      if (problem) return [`${reference(parent)} cannot be added: ${problem}`];
      next.parentId = parent.id;
    }
  }
  if (hierarchy && Array.isArray(hierarchy.childrenIds)) {
    // IssuableLinks::CreateService: ids that name nothing the caller can reach are passed over, and
    // refused only when none is left; each refusal is "<ref> cannot be added: …", all in one message
    // joined by ". ".
    const children = hierarchy.childrenIds.map((childId) => findItem(ctx, childId)).filter((c): c is WorkItem => c !== undefined);
    if (children.length === 0) return ['No matching work item found. Make sure that you are adding a valid work item ID.'];
    for (const child of children) {
      const problem = m.workItems.parentProblem(wi, child);
      if (problem) errors.push(`${reference(child)} cannot be added: ${problem}`);
    }
    if (errors.length) return [errors.join('. ')];
    for (const child of children) child.parentId = wi.id;
  }
  const description = input.descriptionWidget as Obj | undefined;
  if (description && typeof description.description === 'string') next.description = description.description;
  // Fields below Reporter are dropped without a word, as GitLab does.
  if (level >= ACCESS.reporter) {
    const labels = input.labelsWidget as Obj | undefined;
    if (labels?.labelIds) next.labels = labelTitles(m, labels.labelIds);
    if (labels?.addLabelIds || labels?.removeLabelIds) {
      const remove = labelTitles(m, labels.removeLabelIds);
      next.labels = [...new Set([...wi.labels, ...labelTitles(m, labels.addLabelIds)])].filter((l) => !remove.includes(l));
    }
    const assignees = input.assigneesWidget as Obj | undefined;
    if (Array.isArray(assignees?.assigneeIds)) next.assigneeIds = assignees.assigneeIds.map((id) => parseGid(id, ['User'])).slice(0, paidTier(m) ? 100 : 1);
    const milestone = input.milestoneWidget as Obj | undefined;
    if (milestone && 'milestoneId' in milestone) next.milestoneId = milestone.milestoneId === null ? null : parseGid(milestone.milestoneId, ['Milestone']);
    const weight = input.weightWidget as Obj | undefined;
    if (weight && 'weight' in weight && paidTier(m)) next.weight = (weight.weight as number | null) ?? null;
    const iteration = input.iterationWidget as Obj | undefined;
    if (iteration && 'iterationId' in iteration && paidTier(m))
      next.iterationId = iteration.iterationId === null ? null : parseGid(iteration.iterationId, ['Iteration']);
  }
  const dates = input.startAndDueDateWidget as Obj | undefined;
  if (dates) {
    if ('startDate' in dates) next.startDate = (dates.startDate as string | null) ?? null;
    if ('dueDate' in dates) next.dueDate = (dates.dueDate as string | null) ?? null;
  }
  const status = input.statusWidget as Obj | undefined;
  if (status?.status) {
    const s = SYSTEM_STATUSES.find((x) => x.id === parseGid(status.status, ['WorkItems::Statuses::SystemDefined::Status']));
    // The input's prepare refuses an unknown status before the mutation runs, as a top-level error
    // (ee/app/graphql/types/work_items/widgets/status_input_type.rb).
    if (!s) throw new GraphQLError("Status doesn't exist.");
    next.statusId = s.id;
    next.state = s.category === 'done' || s.category === 'canceled' ? 'CLOSED' : 'OPEN';
  }
  Object.assign(wi, next);
  return [];
}

function stamp(ctx: Ctx, wi: WorkItem): void {
  wi.updatedAt = ctx.model.now();
  if (wi.state === 'CLOSED' && wi.closedAt === null) wi.closedAt = wi.updatedAt;
  if (wi.state === 'OPEN') wi.closedAt = null;
}

const payload = (ctx: Ctx, wi: WorkItem | null, errors: string[]) => ({ errors, workItem: wi && errors.length === 0 ? itemView(ctx, wi) : null });

export function rootFor(ctx: Ctx): Obj {
  const m = ctx.model;
  return {
    project: (a: Args) => {
      const found = namespaceOf(ctx, a.fullPath);
      return found?.visible && found.ns.kind === 'project' ? namespaceView(ctx, found.ns) : null;
    },
    group: (a: Args) => {
      const found = namespaceOf(ctx, a.fullPath);
      return found?.visible && found.ns.kind === 'group' ? namespaceView(ctx, found.ns) : null;
    },
    workItem: (a: Args) => {
      const wi = findItem(ctx, a.id);
      return wi ? itemView(ctx, wi) : null;
    },
    workItemCreate: ({ input }: { input: Obj }) => {
      const found = namespaceOf(ctx, input.namespacePath);
      if (!found?.visible || found.level < ACCESS.guest) throw new GraphQLError(RESOURCE_ACCESS_ERROR);
      const typeId = parseGid(input.workItemTypeId, ['WorkItems::Type']);
      const type = typesIn(m, found.ns.kind).find((t) => t.id === typeId);
      if (!type) return { errors: [`${WORK_ITEM_TYPES.find((t) => t.id === typeId)?.name ?? 'This'} type is not allowed in this namespace`], workItem: null };
      const wi = m.workItems.add(
        { namespace: found.ns, type: type.name, title: String(input.title), authorId: ctx.user!.id, confidential: input.confidential === true },
        m.now(),
      );
      const errors = applyWidgets(ctx, wi, input, found.level);
      if (errors.length) m.workItems.items.delete(wi.id);
      return payload(ctx, wi, errors);
    },
    workItemUpdate: ({ input }: { input: Obj }) => {
      const wi = writable(ctx, input.id);
      const saved = { ...wi };
      if (typeof input.title === 'string') wi.title = input.title;
      if (typeof input.confidential === 'boolean') wi.confidential = input.confidential;
      if (input.stateEvent === 'CLOSE') wi.state = 'CLOSED';
      if (input.stateEvent === 'REOPEN') wi.state = 'OPEN';
      const errors = applyWidgets(ctx, wi, input, itemAccess(ctx, wi).level);
      if (errors.length) Object.assign(wi, saved);
      else stamp(ctx, wi);
      return payload(ctx, wi, errors);
    },
    workItemConvert: ({ input }: { input: Obj }) => {
      const wi = writable(ctx, input.id);
      const typeId = parseGid(input.workItemTypeId, ['WorkItems::Type']);
      const type = typesIn(m, wi.namespace.kind).find((t) => t.id === typeId);
      // app/graphql/mutations/work_items/convert.rb refuses a type the caller may not create there as a
      // resource error; app/models/work_item.rb (allowed_work_item_type_change) words the rest.
      if (!type) {
        const name = WORK_ITEM_TYPES.find((t) => t.id === typeId)?.name ?? String(typeId);
        throw new GraphQLError(`You are not allowed to change the Work Item type to ${name}.`);
      }
      const parent = wi.parentId === null ? undefined : m.workItems.items.get(wi.parentId);
      if (parent && !(ALLOWED_CHILDREN[parent.type] ?? []).includes(type.name)) {
        return payload(ctx, wi, [`Work item type cannot be changed to ${type.name.toLowerCase()} when linked to a parent ${parent.type.toLowerCase()}.`]);
      }
      if (m.workItems.children(wi).some((c) => !(ALLOWED_CHILDREN[type.name] ?? []).includes(c.type))) {
        return payload(ctx, wi, [`Work item type cannot be changed to ${type.name} with these child item types.`]);
      }
      wi.type = type.name;
      stamp(ctx, wi);
      return payload(ctx, wi, []);
    },
    createNote: ({ input }: { input: Obj }) => {
      const wi = findItem(ctx, input.noteableId);
      if (!wi || !ctx.user) throw new GraphQLError(RESOURCE_ACCESS_ERROR);
      let discussionId: string | undefined;
      if (input.discussionId !== undefined && input.discussionId !== null) {
        const m2 = /^gid:\/\/gitlab\/Discussion\/([0-9a-f]{40})$/.exec(String(input.discussionId));
        discussionId = m2?.[1];
        // app/graphql/mutations/notes/create/note.rb (authorize_discussion!) words its own refusal.
        if (!discussionId || !wi.notes.some((n) => n.discussionId === discussionId))
          throw new GraphQLError("The discussion does not exist or you don't have permission to perform this action");
      }
      const note = m.workItems.note(wi, String(input.body), ctx.user.id, m.now(), discussionId, input.internal === true);
      return {
        errors: [],
        note: {
          id: gid('Note', note.id),
          body: note.body,
          author: userView(m, note.authorId),
          createdAt: note.createdAt,
          system: false,
          internal: note.internal,
          discussion: { id: gid('Discussion', note.discussionId) },
        },
      };
    },
  };
}
