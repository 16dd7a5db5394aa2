// Branch tools: create, read, list, delete, and the project's default branch.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { ToolError } from '../errors';
import { pagination, projectId, refName, search } from '../params';
import { restTool } from '../rest';
import { deletedOutput } from '../lean/schema-parts';

const createBranch = defineTool({
  name: 'create_branch',
  title: 'Create branch',
  description: 'Create a branch from ref.',
  group: 'branches',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/repository/branches (GET /projects/{project_id} first when ref is omitted)',
  input: Type.Object(
    {
      project_id: projectId(),
      branch: refName('New branch name'),
      ref: Type.Optional(refName('Default: the default branch')),
    },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    let ref = args.ref;
    if (!ref) {
      const project = await forge.json<{ default_branch?: string | null }>({ method: 'GET', path: fillPath('/projects/{project_id}', args) });
      ref = project?.default_branch ?? undefined;
      if (!ref) throw new ToolError('validation', 'ref: the project has no default branch (empty repository?); give ref explicitly');
    }
    return forge.json({ method: 'POST', path: fillPath('/projects/{project_id}/repository/branches', args), body: { branch: args.branch, ref } });
  },
});

const getBranch = restTool({
  name: 'get_branch',
  title: 'Get branch',
  description: 'Get a branch and its head commit.',
  group: 'branches',
  mode: 'read',
  record: 'branch',
  input: Type.Object({ project_id: projectId(), branch_name: refName() }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/branches/{branch_name}' },
});

const listBranches = restTool({
  name: 'list_branches',
  title: 'List branches',
  description: 'List branches by name; search matches a part (^ and $ anchor).',
  group: 'branches',
  mode: 'read',
  record: 'branch',
  input: Type.Object({ project_id: projectId(), search: search('Part of the name; ^ and $ anchor'), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/branches', list: true },
});

const deleteBranch = restTool({
  name: 'delete_branch',
  title: 'Delete branch',
  description: 'Delete a branch (not protected or default).',
  group: 'branches',
  mode: 'write',
  destructive: true,
  output: deletedOutput('branch_name'),
  input: Type.Object({ project_id: projectId(), branch_name: refName() }, { additionalProperties: false }),
  rest: {
    method: 'DELETE',
    path: '/projects/{project_id}/repository/branches/{branch_name}',
    empty: (args) => ({ deleted: true, branch_name: args.branch_name }),
  },
});

interface Project {
  id: number;
  path_with_namespace: string;
  default_branch: string | null;
  web_url: string;
}

const updateDefaultBranch = defineTool({
  name: 'update_default_branch',
  title: 'Set default branch',
  description: "Make an existing branch the project's default.",
  group: 'branches',
  mode: 'write',
  idempotent: true,
  endpoint: 'PUT /projects/{project_id}',
  input: Type.Object({ project_id: projectId(), default_branch: refName('An existing branch') }, { additionalProperties: false }),
  async handler(args, { forge }) {
    const project = await forge.json<Project>({ method: 'PUT', path: fillPath('/projects/{project_id}', args), body: { default_branch: args.default_branch } });
    if (project.default_branch !== args.default_branch) {
      // Some GitLab versions answer 200 and keep the old default for a branch that does not exist.
      throw new ToolError('validation', `default_branch: the forge kept "${project.default_branch}"; does branch "${args.default_branch}" exist?`, 200);
    }
    return { id: project.id, path_with_namespace: project.path_with_namespace, default_branch: project.default_branch, web_url: project.web_url };
  },
});

export const branchCrudTools = [createBranch, getBranch, listBranches, deleteBranch, updateDefaultBranch];
