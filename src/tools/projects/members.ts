// Members of a project or group, inherited ones included by default (lib/api/members.rb: /members/all).
import { Type } from '@sinclair/typebox';
import { defineTool, type ToolDefinition } from '../define';
import { groupId, integerId, listOf, pagination, projectId, shortName } from '../params';
import { callRest, type RestSpec } from '../rest';

type Parent = { name: string; noun: 'project' | 'group'; idParam: 'project_id' | 'group_id' };

function membersTool({ name, noun, idParam }: Parent): ToolDefinition {
  const base = noun === 'project' ? '/projects/{project_id}' : '/groups/{group_id}';
  const direct: RestSpec = { method: 'GET', path: `${base}/members`, list: true };
  const inherited: RestSpec = { method: 'GET', path: `${base}/members/all`, list: true };
  return defineTool({
    name,
    title: `List ${noun} members`,
    description: `List a ${noun}'s members with their access level (number and name), members inherited from parent groups included.`,
    group: 'projects',
    mode: 'read',
    record: 'member',
    input: Type.Object(
      {
        [idParam]: noun === 'project' ? projectId() : groupId(),
        query: Type.Optional(shortName({ description: 'Part of a username or name.' })),
        user_ids: Type.Optional(listOf(integerId(), 'Only these users')),
        include_inheritance: Type.Optional(Type.Boolean({ description: 'Default true; false: direct only' })),
        ...pagination,
      },
      { additionalProperties: false },
    ),
    endpoint: `${inherited.method} ${inherited.path} or ${direct.path}`,
    handler: (args, ctx) => {
      const { include_inheritance, ...rest } = args as Record<string, unknown>;
      return callRest(include_inheritance === false ? direct : inherited, rest, ctx.forge);
    },
  });
}

export const listProjectMembers = membersTool({ name: 'list_project_members', noun: 'project', idParam: 'project_id' });
export const listGroupMembers = membersTool({ name: 'list_group_members', noun: 'group', idParam: 'group_id' });
