// What a work item call may ask of the forge it reaches (docs/forge-editions.md, D45), from the
// instance facts already cached (src/forge/instance.ts): which document variant its schema takes,
// and the types and widgets refused before anything is sent. Epics, objectives, key results, test
// cases and requirements, weights and iterations are paid-tier; epics are work items from GitLab 17.7
// (the work_item_epics flag was on by default from then, and removed in 18.1); custom statuses need
// 18.2. On an Enterprise build whose licence the API does not tell, and on an instance that would not
// say, GitLab decides.
import { Type } from '@sinclair/typebox';
import { ToolError } from '../../forge/errors';
import type { GraphqlDocument } from '../../forge/graphql';
import type { ToolContext } from '../define';
import { instanceOf, older, refusePaidOnCommunityEdition, requireRelease } from '../tiers';
import type { SchemaVariant } from './documents';

/** GitLab's type names as the IssueType enum spells them. */
const TYPES = ['ISSUE', 'TASK', 'EPIC', 'INCIDENT', 'OBJECTIVE', 'KEY_RESULT', 'TEST_CASE', 'REQUIREMENT', 'TICKET'] as const;
export type TypeName = (typeof TYPES)[number];
const PAID_TYPES: readonly TypeName[] = ['EPIC', 'OBJECTIVE', 'KEY_RESULT', 'TEST_CASE', 'REQUIREMENT'];

/**
 * The first release whose schema has every field these documents ask for: a group's `workItems`
 * came in 16.3 (app/graphql/types/group_type.rb) and a type's `widgetDefinitions` in 16.7
 * (app/graphql/types/work_items/type_type.rb). An older GitLab refuses the documents whole.
 */
const WORK_ITEMS_API = [16, 7] as const;
const EPICS_AS_WORK_ITEMS = [17, 7] as const;
const CUSTOM_STATUSES = [18, 2] as const;

/**
 * The document variant the forge's schema takes: the Community Edition's schema lacks ee/'s widget
 * types, and a document naming one is refused whole; an instance that will not say gets the variant
 * every edition takes.
 */
export async function schemaVariant(ctx: ToolContext): Promise<SchemaVariant> {
  const info = await instanceOf(ctx);
  if (info.edition !== 'ee') return 'free';
  return info.version !== null && !older(info, ...CUSTOM_STATUSES) ? 'status' : 'paid';
}

/**
 * A work item document sent to the forge, once the forge is known to have the fields it asks for:
 * before 16.7 every tool of the group is refused naming the release; an unknown release is asked.
 */
export async function workItemGraphql<T = unknown>(ctx: ToolContext, document: GraphqlDocument, variables: Record<string, unknown>): Promise<T> {
  const info = await instanceOf(ctx);
  if (older(info, ...WORK_ITEMS_API)) {
    throw new ToolError(
      'validation',
      `the work item tools need GitLab ${WORK_ITEMS_API.join('.')} or later (GitLab's GraphQL API lacks fields they ask for before then); this forge runs ${info.versionText}`,
    );
  }
  return ctx.forge.graphql<T>(document, variables);
}

/** Refuses types the forge cannot have: paid types on the Community Edition, epics before 17.7. */
export async function refuseTypes(ctx: ToolContext, parameter: string, types: readonly TypeName[] | undefined): Promise<void> {
  if (!types || types.length === 0) return;
  const paid = types.find((t) => PAID_TYPES.includes(t));
  await refusePaidOnCommunityEdition(ctx, [{ parameter, used: paid !== undefined, what: `the work item type ${paid}` }]);
  if (types.includes('EPIC')) {
    await requireRelease(ctx, parameter, 'epics as work items (earlier releases keep epics apart, in the REST epics API)', ...EPICS_AS_WORK_ITEMS);
  }
}

/** Refuses custom statuses where the forge has none. */
export async function refuseStatuses(ctx: ToolContext, parameter: string): Promise<void> {
  await refusePaidOnCommunityEdition(ctx, [{ parameter, used: true, what: 'custom work item statuses' }]);
  await requireRelease(ctx, parameter, 'custom work item statuses', ...CUSTOM_STATUSES);
}

/** Refuses weight and iteration on the Community Edition, where GitLab has neither widget. */
export async function refusePaidWidgets(ctx: ToolContext, args: { weight?: unknown; iteration_id?: unknown }): Promise<void> {
  await refusePaidOnCommunityEdition(ctx, [
    { parameter: 'weight', used: args.weight !== undefined },
    { parameter: 'iteration_id', used: args.iteration_id !== undefined },
  ]);
}

/** A work item type by GitLab's enum name. */
export const typeName = (description?: string) =>
  Type.Union(
    TYPES.map((t) => Type.Literal(t)),
    description ? { description } : {},
  );
