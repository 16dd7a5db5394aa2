// Burndown events exist on GitLab's paid tiers only. A free instance has no such route (404) and
// an unlicensed paid build answers 405; both become an error that names the tier, once a 404 is
// known not to mean that the milestone itself is missing.
// GitLab answers every event at once, unpaginated (docs/forge-editions.md), yet docs/spec.md gives
// these tools page and per_page: the events are paged here, from the one answer, so a long
// burndown comes in pages (and a page cut at MAX_RESULT_BYTES can be asked for in smaller ones, D33).
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool, type ToolDefinition } from '../define';
import { ToolError } from '../errors';
import { localPage } from '../local-page';
import { pagination } from '../params';
import { milestoneId, parentParam, type MilestoneScope } from './scope';

export function burndownTool(scope: MilestoneScope): ToolDefinition {
  const milestonePath = `${scope.basePath}/milestones/{milestone_id}`;
  const eventsPath = `${milestonePath}/burndown_events`;
  return defineTool({
    name: scope.names.burndown,
    title: `List ${scope.noun} milestone burndown events`,
    description: `List a ${scope.noun} milestone's burndown chart events.`,
    group: 'milestones',
    mode: 'read',
    record: 'burndown_event',
    endpoint: `GET ${eventsPath} (GET ${milestonePath} after a 404)`,
    input: Type.Object({ ...parentParam(scope), milestone_id: milestoneId(), ...pagination }, { additionalProperties: false }),
    async handler(args, { forge }) {
      const values = args as Record<string, unknown>;
      try {
        const { items } = await forge.list({ method: 'GET', path: fillPath(eventsPath, values) });
        return localPage(items, args.page, args.per_page);
      } catch (error) {
        if (!(error instanceof ToolError) || (error.status !== 404 && error.status !== 405)) throw error;
        // A 404 also means "no such milestone or parent": that plain not-found comes from this lookup.
        if (error.status === 404) await forge.json({ method: 'GET', path: fillPath(milestonePath, values) });
        throw new ToolError(
          'not_found',
          `burndown events need GitLab Premium or Ultimate; this instance answered ${error.status} (${error.message}) for an existing milestone`,
          error.status,
        );
      }
    },
  });
}
