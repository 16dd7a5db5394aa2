// Project and group CI/CD variables are one API under two parents (lib/api/ci/variables.rb,
// lib/api/ci/group_variables.rb). A scope names the parent and spells out the tool names.
import { groupId, projectId } from '../params';

export interface VariableScope {
  idParam: 'project_id' | 'group_id';
  basePath: '/projects/{project_id}' | '/groups/{group_id}';
  noun: 'project' | 'group';
  names: { list: string; get: string; create: string; update: string; delete: string };
}

export const PROJECT_VARIABLES: VariableScope = {
  idParam: 'project_id',
  basePath: '/projects/{project_id}',
  noun: 'project',
  names: {
    list: 'list_project_variables',
    get: 'get_project_variable',
    create: 'create_project_variable',
    update: 'update_project_variable',
    delete: 'delete_project_variable',
  },
};

export const GROUP_VARIABLES: VariableScope = {
  idParam: 'group_id',
  basePath: '/groups/{group_id}',
  noun: 'group',
  names: {
    list: 'list_group_variables',
    get: 'get_group_variable',
    create: 'create_group_variable',
    update: 'update_group_variable',
    delete: 'delete_group_variable',
  },
};

export function parentParam(scope: VariableScope) {
  return { [scope.idParam]: scope.noun === 'project' ? projectId() : groupId() };
}
