// Project and group milestones are the same API under two parents (/projects/:id, /groups/:id).
// A scope says which parent, and spells out its tool names literally so each name can be found
// by searching for it.
import type { ToolContext } from '../define';
import { groupId, numericId, projectId } from '../params';
import { releaseBefore } from '../tiers';

interface MilestoneToolNames {
  list: string;
  get: string;
  create: string;
  edit: string;
  delete: string;
  issues: string;
  mergeRequests: string;
  burndown: string;
}

export interface MilestoneScope {
  idParam: 'project_id' | 'group_id';
  basePath: '/projects/{project_id}' | '/groups/{group_id}';
  /** How descriptions and titles name the parent. */
  noun: 'project' | 'group';
  names: MilestoneToolNames;
}

export const PROJECT_SCOPE: MilestoneScope = {
  idParam: 'project_id',
  basePath: '/projects/{project_id}',
  noun: 'project',
  names: {
    list: 'list_milestones',
    get: 'get_milestone',
    create: 'create_milestone',
    edit: 'edit_milestone',
    delete: 'delete_milestone',
    issues: 'get_milestone_issue',
    mergeRequests: 'get_milestone_merge_requests',
    burndown: 'get_milestone_burndown_events',
  },
};

export const GROUP_SCOPE: MilestoneScope = {
  idParam: 'group_id',
  basePath: '/groups/{group_id}',
  noun: 'group',
  names: {
    list: 'list_group_milestones',
    get: 'get_group_milestone',
    create: 'create_group_milestone',
    edit: 'edit_group_milestone',
    delete: 'delete_group_milestone',
    issues: 'get_group_milestone_issue',
    mergeRequests: 'get_group_milestone_merge_requests',
    burndown: 'get_group_milestone_burndown_events',
  },
};

// What group_id and milestone_id take is stated once in the server's instructions.
/** The parent's id parameter, keyed by its name, to spread into an input schema. */
export function parentParam(scope: MilestoneScope) {
  return { [scope.idParam]: scope.noun === 'project' ? projectId() : groupId() };
}

/** Milestones are addressed by their global id; the iid is only unique within the parent. */
export const milestoneId = () => numericId("must be the milestone's numeric id (the id field, not iid)", 'Its id field, not iid');

/**
 * The name under which the forge takes "add the ancestor groups' milestones": include_ancestors
 * from GitLab 16.7, include_parent_milestones before (same meaning). An older release would drop
 * include_ancestors without a word and list the parent's own milestones only (docs/forge-editions.md).
 */
export async function ancestorsParameter(ctx: ToolContext): Promise<'include_ancestors' | 'include_parent_milestones'> {
  return (await releaseBefore(ctx, 16, 7)) ? 'include_parent_milestones' : 'include_ancestors';
}
