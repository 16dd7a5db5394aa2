// The fake forge's GraphQL schema per edition and release (issue 39): test/fixtures/gitlab-schema.graphql
// whole on an Enterprise build from 18.2; without the custom status types before 18.2 (the fake does
// not model the older requirement status widget of that name); and without every type GitLab declares
// only in ee/ on the Community Edition, where a document naming one is refused as GitLab refuses it
// ("No such type …"), along with the input fields that take them.
import { readFileSync } from 'node:fs';
import { buildASTSchema, GraphQLEnumType, GraphQLError, Kind, parse, visit, type DocumentNode, type GraphQLSchema, type TypeNode } from 'graphql';
import { atLeast, enterpriseCode } from '../edition';
import type { ForgeModel } from '../model';

export const SCHEMA_SDL = readFileSync(new URL('../../../fixtures/gitlab-schema.graphql', import.meta.url), 'utf8');

/** Declared in GitLab's ee/ only. */
const EE_TYPES = [
  'WorkItemWidgetWeight',
  'WorkItemWidgetIteration',
  'WorkItemWidgetProgress',
  'WorkItemWidgetWeightInput',
  'WorkItemWidgetIterationInput',
  'Iteration',
];
/**
 * Arguments declared in ee/ only: the iteration filter of `workItems` comes from
 * ee/app/graphql/ee/resolvers/work_items_resolver.rb, so the Community Edition refuses a document that
 * passes it ("Field 'workItems' doesn't accept argument 'iterationId'").
 */
const EE_ARGUMENTS = ['iterationId'];
/**
 * Input fields declared in ee/ only: `isFixed` of the dates input comes from ee/app/graphql/ee/types/
 * work_items/widgets/start_and_due_date_update_input_type.rb, so the Community Edition refuses a
 * variable that carries it ("… was provided invalid value for startAndDueDateWidget.isFixed").
 */
const EE_INPUT_FIELDS = ['WorkItemWidgetStartAndDueDateUpdateInput.isFixed'];
/** Fields by the release that added them: a group's work items (app/graphql/types/group_type.rb), a type's widget definitions (app/graphql/types/work_items/type_type.rb). */
const FIELDS_SINCE: readonly (readonly [string, number, number])[] = [
  ['Group.workItems', 16, 3],
  ['WorkItemType.widgetDefinitions', 16, 7],
];
/** WorkItemSort values GitLab added as experiments in 17.9 (WorkItems::Widgets::StartAndDueDate.sorting_keys). */
const SORTS_FROM_17_9 = ['DUE_DATE_ASC', 'DUE_DATE_DESC'];
/** Custom statuses (GitLab 18.2). */
const STATUS_TYPES = [
  'WorkItemWidgetStatus',
  'WorkItemStatus',
  'WorkItemStatusCategoryEnum',
  'WorkItemWidgetDefinitionStatus',
  'WorkItemWidgetStatusInput',
  'WorkItemsStatusesStatusID',
];

const named = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : named(type.type));

/** The document without the types in `drop` and the members in `arguments_` (field arguments by name, fields and input fields as `Type.field`). */
function without(document: DocumentNode, drop: ReadonlySet<string>, arguments_: ReadonlySet<string>): DocumentNode {
  const gone = (node: { name: { value: string } }) => (drop.has(node.name.value) ? null : undefined);
  const typed = (node: { type: TypeNode }) => (drop.has(named(node.type)) ? null : undefined);
  return visit(document, {
    ObjectTypeDefinition: {
      enter: gone,
      leave: (node) =>
        node.fields?.some((f) => arguments_.has(`${node.name.value}.${f.name.value}`))
          ? { ...node, fields: node.fields.filter((f) => !arguments_.has(`${node.name.value}.${f.name.value}`)) }
          : undefined,
    },
    InputObjectTypeDefinition: {
      enter: gone,
      leave: (node) =>
        node.fields?.some((f) => arguments_.has(`${node.name.value}.${f.name.value}`))
          ? { ...node, fields: node.fields.filter((f) => !arguments_.has(`${node.name.value}.${f.name.value}`)) }
          : undefined,
    },
    InterfaceTypeDefinition: gone,
    ScalarTypeDefinition: gone,
    EnumTypeDefinition: gone,
    FieldDefinition: {
      enter: typed,
      leave: (node) => (node.arguments?.length ? { ...node, arguments: node.arguments.filter((a) => !arguments_.has(a.name.value)) } : undefined),
    },
    InputValueDefinition: typed,
    EnumValueDefinition: gone,
  });
}

const FULL = parse(SCHEMA_SDL);

/**
 * GitLab's WorkItemStatusCategoryEnum answers the category as stored (`to_do`), not as the enum's
 * name: its coerce_result is overridden to `value.to_s` (ee/app/graphql/types/work_items/
 * status_category_enum.rb). The fake answers the same, and refuses anything that is no category.
 */
function withStoredCategories(schema: GraphQLSchema): GraphQLSchema {
  const category = schema.getType('WorkItemStatusCategoryEnum');
  if (category instanceof GraphQLEnumType) {
    const stored = new Set(category.getValues().map((v) => v.name.toLowerCase()));
    category.serialize = (value: unknown) => {
      if (typeof value === 'string' && stored.has(value)) return value;
      throw new GraphQLError(`Enum "WorkItemStatusCategoryEnum" cannot represent value: ${JSON.stringify(value)}`);
    };
  }
  return schema;
}
const cache = new Map<string, GraphQLSchema>();

export function schemaFor(m: ForgeModel): GraphQLSchema {
  const drop = new Set<string>();
  if (!enterpriseCode(m)) for (const t of EE_TYPES) drop.add(t);
  if (!enterpriseCode(m) || !atLeast(m, 18, 2)) for (const t of STATUS_TYPES) drop.add(t);
  if (!atLeast(m, 17, 9)) for (const v of SORTS_FROM_17_9) drop.add(v);
  const args = new Set(enterpriseCode(m) ? [] : [...EE_ARGUMENTS, ...EE_INPUT_FIELDS]);
  for (const [member, major, minor] of FIELDS_SINCE) if (!atLeast(m, major, minor)) args.add(member);
  const key = [...drop, ...args].join(',');
  let schema = cache.get(key);
  if (!schema) cache.set(key, (schema = withStoredCategories(buildASTSchema(without(FULL, drop, args)))));
  return schema;
}
