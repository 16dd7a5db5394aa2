// promote_milestone: a project milestone becomes a milestone of the project's group. GitLab answers
// without the new milestone, whose id differs from the old one, so the tool finds it by title
// among the milestones the project sees. The promotion cannot be undone.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { projectId } from '../params';
import { ancestorsParameter, milestoneId } from './scope';

interface Milestone {
  id: number;
  iid: number;
  project_id?: number;
  group_id?: number;
  title: string;
}

export const promoteMilestone = defineTool({
  name: 'promote_milestone',
  title: 'Promote milestone to group',
  description:
    'One-way: move a project milestone to its group (new id, returned); issues and MRs follow, same-titled project milestones are deleted.',
  group: 'milestones',
  mode: 'write',
  destructive: true,
  endpoint:
    'GET /projects/{project_id}/milestones/{milestone_id}, POST /projects/{project_id}/milestones/{milestone_id}/promote, ' +
    'then GET /projects/{project_id}/milestones to find the new group milestone',
  input: Type.Object({ project_id: projectId(), milestone_id: milestoneId() }, { additionalProperties: false }),
  async handler(args, ctx) {
    const { forge } = ctx;
    const path = fillPath('/projects/{project_id}/milestones/{milestone_id}', args);
    const source = await forge.json<Milestone>({ method: 'GET', path });
    await forge.json({ method: 'POST', path: `${path}/promote` });
    const promoted = { promoted: true, project_milestone: { id: source.id, iid: source.iid, title: source.title } };
    // Titles are unique in a hierarchy, so the group milestone with this title is the promoted one.
    try {
      const seen = await forge.list<Milestone>({
        method: 'GET',
        path: fillPath('/projects/{project_id}/milestones', { project_id: source.project_id }),
        query: { title: source.title, [await ancestorsParameter(ctx)]: true },
      });
      const group_milestone = seen.items.find((m) => m.group_id !== undefined && m.group_id !== null);
      if (group_milestone) return { ...promoted, group_milestone };
      return { ...promoted, group_milestone: null, note: `promoted, but no group milestone titled "${source.title}" is visible; see list_group_milestones` };
    } catch (error) {
      // The promotion happened: report it, not the failed look-up.
      if (!(error instanceof ToolError)) throw error;
      return { ...promoted, group_milestone: null, note: `promoted, but finding the new group milestone failed (${error.kind}: ${error.message}); see list_group_milestones` };
    }
  },
});
