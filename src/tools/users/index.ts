// The users group (opt-in, D13): who the caller is, and who someone else is (lib/api/users.rb).
import { Type } from '@sinclair/typebox';
import { numericId, pagination, search, shortName } from '../params';
import { restTool } from '../rest';

const input = (properties: Parameters<typeof Type.Object>[0]) => Type.Object(properties, { additionalProperties: false });

export const whoami = restTool({
  name: 'whoami',
  title: 'Who am I',
  description: 'The user the caller\'s token acts as: id, username, name, state, bot or not.',
  group: 'users',
  mode: 'read',
  record: 'user',
  input: input({}),
  rest: { method: 'GET', path: '/user' },
});

export const getUsers = restTool({
  name: 'get_users',
  title: 'Find users',
  description: 'Find users by exact username or by search over usernames and names; blocked users and bots say so.',
  group: 'users',
  mode: 'read',
  record: 'user',
  input: input({
    username: Type.Optional(shortName()),
    search: search(),
    active: Type.Optional(Type.Boolean({ description: 'Only active users.' })),
    without_project_bots: Type.Optional(Type.Boolean()),
    ...pagination,
  }),
  rest: { method: 'GET', path: '/users', list: true },
});

export const getUser = restTool({
  name: 'get_user',
  title: 'Get user',
  description: 'Get a user by numeric id.',
  group: 'users',
  mode: 'read',
  record: 'user',
  input: input({ user_id: numericId() }),
  rest: { method: 'GET', path: '/users/{user_id}' },
});

export const userGroupTools = [whoami, getUsers, getUser];
