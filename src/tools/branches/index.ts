// The branches group: branches, protected branches, commits and commit statuses.
import { branchCrudTools } from './branches';
import { commitTools } from './commits';
import { protectionTools } from './protection';
import { statusTools } from './statuses';

export const branchTools = [...branchCrudTools, ...protectionTools, ...commitTools, ...statusTools];
