// What a work item call may ask of the forge it reaches (docs/forge-editions.md, D45), from the
// instance facts already cached (src/forge/instance.ts): which document variant its schema takes,
// and the types and widgets refused before anything is sent. Epics, objectives, key results, test
// cases and requirements, weights and iterations are paid-tier; epics are work items from GitLab 17.7
// (the work_item_epics flag was on by default from then, and removed in 18.1); custom statuses need
// 18.2. On an Enterprise build whose licence the API does not tell, and on an instance that would not
// say, GitLab decides.
import { Type } from '@sinclair/typebox';
import { UNKNOWN_INSTANCE, type InstanceInfo } from '../../forge/instance';
import type { ToolContext } from '../define';
import { refusePaidOnCommunityEdition, requireRelease } from '../tiers';
import type { SchemaVariant } from './documents';

/** GitLab's type names as the IssueType enum spells them. */
const TYPES = ['ISSUE', 'TASK', 'EPIC', 'INCIDENT', 'OBJECTIVE', 'KEY_RESULT', 'TEST_CASE', 'REQUIREMENT', 'TICKET'] as const;
export type TypeName = (typeof TYPES)[number];
const PAID_TYPES: readonly TypeName[] = ['EPIC', 'OBJECTIVE', 'KEY_RESULT', 'TEST_CASE', 'REQUIREMENT'];

const EPICS_AS_WORK_ITEMS = [17, 7] as const;
const CUSTOM_STATUSES = [18, 2] as const;

const instanceOf = async (ctx: ToolContext): Promise<InstanceInfo> => (ctx.instance ? ctx.instance() : UNKNOWN_INSTANCE);

const atLeast = (info: InstanceInfo, [major, minor]: readonly [number, number]) =>
  info.version !== null && (info.version.major > major || (info.version.major === major && info.version.minor >= minor));

/**
 * The document variant the forge's schema takes: the Community Edition's schema lacks ee/'s widget
 * types, and a document naming one is refused whole; an instance that will not say gets the variant
 * every edition takes.
 */
export async function schemaVariant(ctx: ToolContext): Promise<SchemaVariant> {
  const info = await instanceOf(ctx);
  if (info.edition !== 'ee') return 'free';
  return atLeast(info, CUSTOM_STATUSES) ? 'status' : 'paid';
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
