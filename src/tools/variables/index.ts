// The variables group (opt-in, and never part of `all`: a variable's value is a secret, D13):
// project variable tools, then group variable tools.
import { GROUP_VARIABLES, PROJECT_VARIABLES } from './scope';
import { variableTools } from './variables';

const project = variableTools(PROJECT_VARIABLES);
const group = variableTools(GROUP_VARIABLES);

export const variableGroupTools = [
  project.list,
  project.get,
  project.create,
  project.update,
  project.delete,
  group.list,
  group.get,
  group.create,
  group.update,
  group.delete,
];
