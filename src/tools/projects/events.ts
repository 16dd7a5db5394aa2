// Recent activity: the caller's own (GET /events) or a project's (GET /projects/:id/events),
// lib/api/events.rb.
import { Type } from '@sinclair/typebox';
import { pagination, projectId } from '../params';
import { restTool } from '../rest';
import { eventFilters } from './params';

export const listEvents = restTool({
  name: 'list_events',
  title: 'List your events',
  description: "List the caller's own recent activity (pushes, comments, issues and merge requests opened or closed), newest first.",
  group: 'projects',
  mode: 'read',
  record: 'event',
  input: Type.Object({ ...eventFilters, ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/events', list: true },
});

export const getProjectEvents = restTool({
  name: 'get_project_events',
  title: 'List project events',
  description: "List a project's recent activity, newest first: who pushed, commented, opened, closed or merged what.",
  group: 'projects',
  mode: 'read',
  record: 'event',
  input: Type.Object({ project_id: projectId(), ...eventFilters, ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/events', list: true },
});
