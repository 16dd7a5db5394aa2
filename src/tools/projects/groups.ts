// Groups, subgroups and namespaces (lib/api/groups.rb, lib/api/namespaces.rb).
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { groupId, LIMITS, pagination, search, input } from '../params';
import { callRest, restTool, type RestSpec } from '../rest';
import { flag, groupOrder, minAccessLevel, sort } from './params';

const all: RestSpec = { method: 'GET', path: '/groups', list: true };
const subgroups: RestSpec = { method: 'GET', path: '/groups/{group_id}/subgroups', list: true };

export const listGroups = defineTool({
  name: 'list_groups',
  title: 'List groups',
  description: "List the groups the caller belongs to, or a group's subgroups.",
  group: 'projects',
  mode: 'read',
  record: 'group',
  input: input({
    group_id: Type.Optional(groupId('Its subgroups instead')),
    search: search('In name or path'),
    top_level_only: flag('No subgroups'),
    all_available: flag('Every readable group'),
    owned: flag("Caller's own only"),
    min_access_level: minAccessLevel,
    order_by: groupOrder,
    sort,
    ...pagination,
  }),
  endpoint: `${all.method} ${all.path} or ${subgroups.path}`,
  handler: (args, ctx) => callRest(args.group_id === undefined ? all : subgroups, args, ctx.forge),
});

const groupSpec: RestSpec = { method: 'GET', path: '/groups/{group_id}' };

export const getGroup = defineTool({
  name: 'get_group',
  title: 'Get group',
  description: 'Get a group by id or full path (list_group_projects lists its projects).',
  group: 'projects',
  mode: 'read',
  record: 'group',
  input: input({ group_id: groupId() }),
  endpoint: `${groupSpec.method} ${groupSpec.path}`,
  // The group's projects would come along by default (with_projects); list_group_projects pages them.
  handler: (args, ctx) => callRest(groupSpec, { ...args, with_projects: false }, ctx.forge),
});

export const listNamespaces = restTool({
  name: 'list_namespaces',
  title: 'List namespaces',
  description: 'List the namespaces the caller can create projects in: their own and their groups.',
  group: 'projects',
  mode: 'read',
  record: 'namespace',
  input: input({ search: search('In name or path'), owned_only: flag("Caller's own only"), top_level_only: flag('No subgroups'), ...pagination }),
  rest: { method: 'GET', path: '/namespaces', list: true },
});

export const getNamespace = restTool({
  name: 'get_namespace',
  title: 'Get namespace',
  description: "Get a namespace (a group or a user's) by id or full path.",
  group: 'projects',
  mode: 'read',
  record: 'namespace',
  input: input({
    namespace_id: Type.String({
      minLength: 1,
      maxLength: LIMITS.identifier,
      identifier: true,
      stringOrInteger: true,
      description: 'Id or full path',
    }),
  }),
  rest: { method: 'GET', path: '/namespaces/{namespace_id}' },
});
