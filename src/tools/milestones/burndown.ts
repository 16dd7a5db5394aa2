// Burndown events exist on GitLab's paid tiers only. A free instance has no such route (404) and
// an unlicensed paid build answers 405; both become an error that names the tier, once a 404 is
// known not to mean that the milestone itself is missing.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool, type ToolDefinition } from '../define';
import { ToolError } from '../errors';
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
    // GitLab answers every event at once (ee/lib/ee/api/milestones.rb and milestone_responses.rb: no pagination params, Burndown#as_json presented whole): no page parameters.
    input: Type.Object({ ...parentParam(scope), milestone_id: milestoneId() }, { additionalProperties: false }),
    async handler(args, { forge }) {
      const values = args as Record<string, unknown>;
      try {
        return await forge.list({ method: 'GET', path: fillPath(eventsPath, values) });
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
