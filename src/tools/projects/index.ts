// The projects group (opt-in, D13): finding projects, groups and namespaces by name, who belongs to
// them, and what happened lately — what an agent needs before it knows an id.
import { getProjectEvents, listEvents } from './events';
import { getGroup, getNamespace, listGroups, listNamespaces } from './groups';
import { listGroupMembers, listProjectMembers } from './members';
import { getProject, listGroupProjects, listProjects } from './projects';

export const projectGroupTools = [
  listProjects,
  getProject,
  listGroupProjects,
  listGroups,
  getGroup,
  listNamespaces,
  getNamespace,
  listProjectMembers,
  listGroupMembers,
  listEvents,
  getProjectEvents,
];
