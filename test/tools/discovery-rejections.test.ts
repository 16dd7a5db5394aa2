// Every tool of the discovery groups (issue 36) turns GitLab's refusal into its failure kind: a token
// GitLab revoked after the session opened gets permission on each, with GitLab's status.
import { expect, test } from 'bun:test';
import { ALL_TOOLS } from '../../src/tools/catalog';
import { useHarness } from '../support/harness';
import { toolError } from '../support/mcp-client';
import { baselineArguments } from './arguments';

const h = useHarness({ FORGE_TOOLSETS: 'projects,users,search,labels' });
const GROUPS = ['projects', 'users', 'search', 'labels'];
const tools = ALL_TOOLS.filter((t) => GROUPS.includes(t.group));

test('the four groups hold the tools issue 36 names', () => {
  expect(tools.map((t) => t.name)).toEqual([
    'list_projects',
    'get_project',
    'list_group_projects',
    'list_groups',
    'get_group',
    'list_namespaces',
    'get_namespace',
    'list_project_members',
    'list_group_members',
    'list_events',
    'get_project_events',
    'whoami',
    'get_users',
    'get_user',
    'search',
    'search_code',
    'list_labels',
    'get_label',
    'create_label',
    'update_label',
    'delete_label',
    'list_group_labels',
  ]);
});

test.each(tools.map((t) => [t.name, t] as const))("%s: a revoked token is GitLab's 401, as permission", async (_, tool) => {
  const c = await h.asRevoked();
  const args = { ...baselineArguments(tool), ...(tool.name.startsWith('search') ? { project_id: '42' } : {}) };
  if (tool.name === 'search') Object.assign(args, { scope: 'issues' });
  // whoami answers from the credential check while it is remembered (accepted when the session
  // opened); full_response asks GitLab.
  if (tool.name === 'whoami') Object.assign(args, { full_response: true });
  const error = toolError(await c.call(tool.name, args));
  expect([tool.name, error.kind, error.status]).toEqual([tool.name, 'permission', 401]);
});
