// The milestones group (opt-in, D13): project milestone tools, promotion, then group milestone
// tools, in docs/spec.md's order.
import { burndownTool } from './burndown';
import { milestoneTools } from './milestones';
import { promoteMilestone } from './promote';
import { GROUP_SCOPE, PROJECT_SCOPE } from './scope';

const project = milestoneTools(PROJECT_SCOPE);
const group = milestoneTools(GROUP_SCOPE);

export const milestoneGroupTools = [
  project.list,
  project.get,
  project.create,
  project.edit,
  project.delete,
  project.issues,
  project.mergeRequests,
  promoteMilestone,
  burndownTool(PROJECT_SCOPE),
  group.list,
  group.get,
  group.create,
  group.edit,
  group.delete,
  group.issues,
  group.mergeRequests,
  burndownTool(GROUP_SCOPE),
];
