// promote_milestone: a project milestone becomes a milestone of the project's group. GitLab answers
// without the new milestone, whose id differs from the old one, so the tool finds it by title
// among the milestones the project sees. The promotion cannot be undone.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import type { ForgeClient } from '../../forge/client';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { projectId } from '../params';
import { ancestorsParameter, milestoneId } from './scope';
import { B, fields, I, orNull, S } from '../lean/schema-parts';

interface Milestone {
  id: number;
  iid: number;
  project_id?: number;
  group_id?: number;
  title: string;
}

/** Fails naming the personal namespace when the project has no group; otherwise returns (the 403 stands). */
async function refuseWithoutGroup(forge: ForgeClient, project_id: string): Promise<void> {
  let project: { path_with_namespace?: string; namespace?: { kind?: string; full_path?: string } };
  try {
    project = await forge.json({ method: 'GET', path: fillPath('/projects/{project_id}', { project_id }) });
  } catch {
    return;
  }
  if (project.namespace?.kind !== 'user') return;
  const where = project.namespace.full_path ? `the personal namespace ${project.namespace.full_path}` : 'a personal namespace';
  throw new ToolError('permission', `${project.path_with_namespace ?? project_id} is in ${where}: it has no group to promote a milestone to`, 403);
}

export const promoteMilestone = defineTool({
  name: 'promote_milestone',
  title: 'Promote milestone to group',
  description: 'One-way: move a project milestone to its group (new id, returned); issues and MRs follow, same-titled project milestones are deleted.',
  group: 'milestones',
  mode: 'write',
  destructive: true,
  endpoint:
    'GET /projects/{project_id}/milestones/{milestone_id}, POST /projects/{project_id}/milestones/{milestone_id}/promote, ' +
    'then GET /projects/{project_id}/milestones to find the new group milestone (GET /projects/{project_id} after a 403)',
  output: fields({ promoted: B, project_milestone: fields({ id: I, iid: I, title: S }), group_milestone: orNull('object'), note: S }),
  input: Type.Object({ project_id: projectId(), milestone_id: milestoneId() }, { additionalProperties: false }),
  async handler(args, ctx) {
    const { forge } = ctx;
    const path = fillPath('/projects/{project_id}/milestones/{milestone_id}', args);
    const source = await forge.json<Milestone>({ method: 'GET', path });
    try {
      await forge.json({ method: 'POST', path: `${path}/promote` });
    } catch (error) {
      // GitLab answers a bare 403 both for a caller without rights on the group and for a project
      // with no group at all (a personal namespace): say which.
      if (error instanceof ToolError && error.status === 403) await refuseWithoutGroup(forge, args.project_id);
      throw error;
    }
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
      return {
        ...promoted,
        group_milestone: null,
        note: `promoted, but finding the new group milestone failed (${error.kind}: ${error.message}); see list_group_milestones`,
      };
    }
  },
});
