// The GraphQL documents the work item tools send (D45): constants, composed once at load from
// fixed fragments, never from arguments; every value travels as a variable. Each asks only for what
// the lean work item record keeps. GitLab declares the weight, iteration and status widgets only in
// its ee/ code, and a document naming a type the schema lacks is refused whole ("No such type"), so
// the reads come in three variants: `free` (the Community Edition, or an instance that would not
// say), `paid` (the Enterprise Edition) and `status` (the Enterprise Edition from 18.2, with custom
// statuses). test/work-items-documents.test.ts validates each against test/fixtures/gitlab-schema.graphql.
import { graphqlDocument, type GraphqlDocument } from '../../forge/graphql';

export type SchemaVariant = 'free' | 'paid' | 'status';

const REF = 'id iid title state webUrl workItemType { name }';

const FREE_WIDGETS = `
      ... on WorkItemWidgetAssignees { assignees(first: 20) { nodes { id username name } } }
      ... on WorkItemWidgetLabels { labels(first: 50) { nodes { title } } }
      ... on WorkItemWidgetMilestone { milestone { id title } }
      ... on WorkItemWidgetStartAndDueDate { startDate dueDate }
      ... on WorkItemWidgetHierarchy { parent { ${REF} } hasChildren }`;
const PAID_WIDGETS = `${FREE_WIDGETS}
      ... on WorkItemWidgetWeight { weight }
      ... on WorkItemWidgetIteration { iteration { id title } }`;
const STATUS_WIDGETS = `${PAID_WIDGETS}
      ... on WorkItemWidgetStatus { status { id name category } }`;

const WIDGETS: Record<SchemaVariant, string> = { free: FREE_WIDGETS, paid: PAID_WIDGETS, status: STATUS_WIDGETS };

/** A work item in a list: what it is, where it stands, who and what it belongs to. */
const summary = (variant: SchemaVariant) => `fragment WorkItemSummary on WorkItem {
    ${REF} confidential createdAt updatedAt closedAt
    author { id username name }
    widgets {
      type${WIDGETS[variant]}
    }
  }`;

/** One work item whole: its description, children with their state, and linked items. */
const whole = (variant: SchemaVariant) => `fragment WorkItemWhole on WorkItem {
    ${REF} confidential createdAt updatedAt closedAt reference(full: true)
    author { id username name }
    widgets {
      type
      ... on WorkItemWidgetDescription { description }${WIDGETS[variant]}
      ... on WorkItemWidgetHierarchy { children(first: 100) { count nodes { ${REF} } pageInfo { hasNextPage endCursor } } }
      ... on WorkItemWidgetLinkedItems { linkedItems(first: 50) { nodes { linkType workItem { ${REF} } } } }
    }
  }`;

// The iteration filter is declared in ee/ only (ee/app/graphql/ee/resolvers/work_items_resolver.rb):
// the Community Edition refuses a document that passes it, so the free variant leaves it out.
const listArgs = (variant: SchemaVariant) => `iid: $iid, types: $types, state: $state, search: $search, labelName: $labelName,
      assigneeUsernames: $assigneeUsernames, authorUsername: $authorUsername, milestoneTitle: $milestoneTitle,${variant === 'free' ? '' : ' iterationId: $iterationId,'}
      createdAfter: $createdAfter, createdBefore: $createdBefore, updatedAfter: $updatedAfter, updatedBefore: $updatedBefore, sort: $sort, first: $first, after: $after`;
const listVars = (variant: SchemaVariant) => `$fullPath: ID!, $iid: String, $types: [IssueType!], $state: IssuableState, $search: String, $labelName: [String!],
  $assigneeUsernames: [String!], $authorUsername: String, $milestoneTitle: [String!],${variant === 'free' ? '' : ' $iterationId: [ID],'} $createdAfter: Time,
  $createdBefore: Time, $updatedAfter: Time, $updatedBefore: Time, $sort: WorkItemSort, $first: Int!, $after: String, $includeDescendants: Boolean`;
const PAGE = 'count pageInfo { hasNextPage endCursor }';

/** A project's or a group's work items: the path names one or the other, so both are asked and one answers. */
const list = (variant: SchemaVariant, fragment: string, name: string) =>
  graphqlDocument(`query ${name}(${listVars(variant)}) {
  project(fullPath: $fullPath) { workItems(${listArgs(variant)}) { ${PAGE} nodes { ...${fragment} } } }
  group(fullPath: $fullPath) { workItems(${listArgs(variant)}, includeDescendants: $includeDescendants) { ${PAGE} nodes { ...${fragment} } } }
}
${fragment === 'WorkItemSummary' ? summary(variant) : whole(variant)}`);

const byVariant = (make: (variant: SchemaVariant) => GraphqlDocument): Record<SchemaVariant, GraphqlDocument> => ({
  free: make('free'),
  paid: make('paid'),
  status: make('status'),
});

export const LIST_WORK_ITEMS = byVariant((v) => list(v, 'WorkItemSummary', 'listWorkItems'));

/** One work item by its iid in a project or group (GitLab finds by iid through the list's `iid` filter). */
export const GET_WORK_ITEM_BY_IID = byVariant((v) => list(v, 'WorkItemWhole', 'getWorkItemByIid'));

export const GET_WORK_ITEM = byVariant((v) =>
  graphqlDocument(`query getWorkItem($id: WorkItemID!) {
  workItem(id: $id) { ...WorkItemWhole }
}
${whole(v)}`),
);

/** The children of one work item, a page at a time (list_work_items with parent_id). */
export const LIST_WORK_ITEM_CHILDREN = byVariant((v) =>
  graphqlDocument(`query listWorkItemChildren($id: WorkItemID!, $first: Int!, $after: String) {
  workItem(id: $id) {
    id
    widgets { type ... on WorkItemWidgetHierarchy { children(first: $first, after: $after) { ${PAGE} nodes { ...WorkItemSummary } } } }
  }
}
${summary(v)}`),
);

/** A work item's global id from its iid (writes take the global id). */
export const RESOLVE_WORK_ITEM = graphqlDocument(`query resolveWorkItem($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) { workItems(iid: $iid, first: 1) { nodes { id } } }
  group(fullPath: $fullPath) { workItems(iid: $iid, first: 1) { nodes { id } } }
}`);

/** The direct children's ids of a work item (remove_work_item_children checks each is one). */
export const WORK_ITEM_CHILD_IDS = graphqlDocument(`query workItemChildIds($id: WorkItemID!, $after: String) {
  workItem(id: $id) {
    id
    widgets { type ... on WorkItemWidgetHierarchy { children(first: 100, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } } }
  }
}`);

/** The project or group a work item is in (convert_work_item_type asks its types there). */
export const WORK_ITEM_NAMESPACE = graphqlDocument(`query workItemNamespace($id: WorkItemID!) {
  workItem(id: $id) { id namespace { fullPath } }
}`);

const TYPE_FIELDS = 'id name widgetDefinitions { type }';
const STATUS_TYPE_FIELDS = 'id name widgetDefinitions { type ... on WorkItemWidgetDefinitionStatus { allowedStatuses { id name category } } }';

export const WORK_ITEM_TYPES = graphqlDocument(`query workItemTypes($fullPath: ID!, $name: IssueType) {
  project(fullPath: $fullPath) { workItemTypes(name: $name) { nodes { ${TYPE_FIELDS} } } }
  group(fullPath: $fullPath) { workItemTypes(name: $name) { nodes { ${TYPE_FIELDS} } } }
}`);

export const WORK_ITEM_STATUSES = graphqlDocument(`query workItemStatuses($fullPath: ID!, $name: IssueType) {
  project(fullPath: $fullPath) { workItemTypes(name: $name) { nodes { ${STATUS_TYPE_FIELDS} } } }
  group(fullPath: $fullPath) { workItemTypes(name: $name) { nodes { ${STATUS_TYPE_FIELDS} } } }
}`);

const PAYLOAD = (variant: SchemaVariant) => `errors workItem { ...WorkItemSummary } }
}
${summary(variant)}`;

export const CREATE_WORK_ITEM = byVariant((v) =>
  graphqlDocument(`mutation createWorkItem($input: WorkItemCreateInput!) {
  workItemCreate(input: $input) { ${PAYLOAD(v)}`),
);

export const UPDATE_WORK_ITEM = byVariant((v) =>
  graphqlDocument(`mutation updateWorkItem($input: WorkItemUpdateInput!) {
  workItemUpdate(input: $input) { ${PAYLOAD(v)}`),
);

export const CONVERT_WORK_ITEM = byVariant((v) =>
  graphqlDocument(`mutation convertWorkItem($input: WorkItemConvertInput!) {
  workItemConvert(input: $input) { ${PAYLOAD(v)}`),
);

const NOTE = 'id body system internal createdAt author { id username name } discussion { id }';

export const LIST_WORK_ITEM_NOTES = graphqlDocument(`query listWorkItemNotes($id: WorkItemID!, $first: Int!, $after: String) {
  workItem(id: $id) {
    id
    widgets {
      type
      ... on WorkItemWidgetNotes { discussions(first: $first, after: $after) { pageInfo { hasNextPage endCursor } nodes { id notes(first: 100) { nodes { ${NOTE} } } } } }
    }
  }
}`);

export const CREATE_WORK_ITEM_NOTE = graphqlDocument(`mutation createWorkItemNote($input: CreateNoteInput!) {
  createNote(input: $input) { errors note { ${NOTE} } }
}`);

/** Every document, for the test that validates them against GitLab's schema. */
export const ALL_DOCUMENTS: readonly GraphqlDocument[] = [
  ...Object.values(LIST_WORK_ITEMS),
  ...Object.values(GET_WORK_ITEM_BY_IID),
  ...Object.values(GET_WORK_ITEM),
  ...Object.values(LIST_WORK_ITEM_CHILDREN),
  RESOLVE_WORK_ITEM,
  WORK_ITEM_CHILD_IDS,
  WORK_ITEM_NAMESPACE,
  WORK_ITEM_TYPES,
  WORK_ITEM_STATUSES,
  ...Object.values(CREATE_WORK_ITEM),
  ...Object.values(UPDATE_WORK_ITEM),
  ...Object.values(CONVERT_WORK_ITEM),
  LIST_WORK_ITEM_NOTES,
  CREATE_WORK_ITEM_NOTE,
];
