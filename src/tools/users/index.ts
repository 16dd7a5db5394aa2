// The users group (opt-in, D13): who the caller is, and who someone else is (lib/api/users.rb).
import { Type } from '@sinclair/typebox';
import { numericId, pagination, search, shortName, input } from '../params';
import { defineTool } from '../define';
import { restTool } from '../rest';

const WHO = ['id', 'username', 'name', 'state', 'bot'] as const;

const whoami = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description: "The user the caller's token acts as: id, username, name, state, bot or not.",
  group: 'users',
  mode: 'read',
  record: 'user',
  input: input({}),
  endpoint: 'GET /user (answered from the credential check when it knows)',
  async handler(_args, ctx) {
    // The server checked the credential with GET /user already (D7): its answer, while remembered,
    // costs no request. full_response asks GitLab for the whole record.
    const known = ctx.fullResponse ? undefined : ctx.knownCaller?.();
    const user = known ?? (await ctx.forge.json<Record<string, unknown>>({ method: 'GET', path: '/user' }));
    if (ctx.fullResponse) return user;
    return Object.fromEntries(WHO.filter((k) => user[k] !== undefined).map((k) => [k, user[k]]));
  },
});

const getUsers = restTool({
  name: 'get_users',
  title: 'Find users',
  description: 'Find users by exact username or by search over usernames and names; blocked users and bots say so.',
  group: 'users',
  mode: 'read',
  record: 'user',
  input: input({
    username: Type.Optional(shortName({ description: 'Exact username' })),
    search: search('In username or name'),
    active: Type.Optional(Type.Boolean({ description: 'Only active users.' })),
    without_project_bots: Type.Optional(Type.Boolean({ description: 'Leave bots out' })),
    ...pagination,
  }),
  rest: { method: 'GET', path: '/users', list: true },
});

const getUser = restTool({
  name: 'get_user',
  title: 'Get user',
  description: 'Get a user by numeric id.',
  group: 'users',
  mode: 'read',
  record: 'user',
  input: input({ user_id: numericId(undefined, 'Numeric id') }),
  rest: { method: 'GET', path: '/users/{user_id}' },
});

export const userGroupTools = [whoami, getUsers, getUser];
