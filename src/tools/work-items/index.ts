// The work_items group (opt-in, D13, D45): GitLab's planning model through its GraphQL API.
import { workItemReadTools } from './read';
import { workItemWriteTools } from './write';

export const workItemGroupTools = [...workItemReadTools, ...workItemWriteTools];
