// Finding a project: list_projects over everything the caller may read, get_project by id, path or
// web URL, list_group_projects within a group (lib/api/projects.rb, lib/api/groups.rb).
import { Type } from '@sinclair/typebox';
import { defineTool, type ToolContext } from '../define';
import { invalidArgument } from '../errors';
import { groupId, pagination, projectId, search, input } from '../params';
import { callRest, type RestSpec } from '../rest';
import { projectUrl } from '../web-url';
import { flag, minAccessLevel, projectOrder, sort, topic, visibility } from './params';

const filters = {
  search: search('In name, path or description'),
  archived: flag('true: archived only; false: no archived'),
  visibility,
  topic,
  owned: flag("Caller's own only"),
  starred: flag('Starred by the caller only'),
  order_by: projectOrder,
  sort,
};

/** The most recently active first unless the agent orders otherwise (GitLab's own default is created_at). */
const byActivity = (args: Record<string, unknown>) => ({ order_by: 'last_activity_at', ...args });

const listSpec: RestSpec = { method: 'GET', path: '/projects', list: true };

export const listProjects = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description: 'Find projects, most recently active first.',
  group: 'projects',
  mode: 'read',
  record: 'project',
  input: input({
    ...filters,
    membership: flag('Default true: member of; false: every readable'),
    search_namespaces: Type.Optional(Type.Boolean({ description: 'search also matches the namespace path.' })),
    min_access_level: minAccessLevel,
    ...pagination,
  }),
  endpoint: `${listSpec.method} ${listSpec.path}`,
  handler: (args, ctx) => callRest(listSpec, byActivity({ membership: true, ...args }), ctx.forge),
});

const groupSpec: RestSpec = { method: 'GET', path: '/groups/{group_id}/projects', list: true };

export const listGroupProjects = defineTool({
  name: 'list_group_projects',
  title: 'List group projects',
  description: 'List the projects of a group, most recently active first.',
  group: 'projects',
  mode: 'read',
  record: 'project',
  input: input({ group_id: groupId(), include_subgroups: flag("Also its subgroups'"), ...filters, ...pagination }),
  endpoint: `${groupSpec.method} ${groupSpec.path}`,
  handler: (args, ctx) => callRest(groupSpec, byActivity(args), ctx.forge),
});

/** The forge's web origin and path prefix: its API URL without /api/v4. */
function webBase(ctx: ToolContext): { origin: string; prefix: string } {
  const api = new URL(ctx.forge.endpoint.apiUrl);
  return { origin: api.origin, prefix: api.pathname.replace(/\/api\/v4\/?$/, '').replace(/^\/+|\/+$/g, '') };
}

/** project_id as GitLab takes it: a web URL of this forge becomes the project's path. */
function projectIdOf(value: string, ctx: ToolContext): string {
  const url = projectUrl(value);
  if (!url) return value;
  if (url.userinfo) throw invalidArgument('project_id', "is a URL with a user name or password in it; give the project's URL without them, or its path");
  const forge = webBase(ctx);
  if (url.origin !== forge.origin) {
    throw invalidArgument(
      'project_id',
      `is a URL of ${url.origin.replace(/^https?:\/\//, '')}, not of this forge (${new URL(forge.origin).host}); give the project's id or path`,
    );
  }
  const path = forge.prefix && url.path.startsWith(`${forge.prefix}/`) ? url.path.slice(forge.prefix.length + 1) : url.path;
  if (!path.includes('/')) throw invalidArgument('project_id', "is a URL that names no project (a project's URL ends in namespace/project)");
  return path;
}

const getSpec: RestSpec = { method: 'GET', path: '/projects/{project_id}' };

export const getProject = defineTool({
  name: 'get_project',
  title: 'Get project',
  description:
    'Get a project by id, full path or web URL: path, default branch, description, visibility, topics, fork parent, open issues, last activity, your access level.',
  group: 'projects',
  mode: 'read',
  record: 'project',
  input: input({ project_id: { ...projectId(), webUrl: true }, license: flag('Add its license'), statistics: flag('Add storage sizes') }),
  endpoint: `${getSpec.method} ${getSpec.path}`,
  handler: (args, ctx) => callRest(getSpec, { ...args, project_id: projectIdOf(String(args.project_id), ctx) }, ctx.forge),
});
