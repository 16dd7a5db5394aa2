// Comments on a merge request: list threads (comments included), start a thread (general or on a diff
// line, the line checked first: position.ts), reply, resolve.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { discussionId, noteBody, pagination, projectId, userText } from '../params';
import { restTool } from '../rest';
import { mergeRequestIid, MR_PATH, position } from './params';
import { checkPositionShape, resolvePosition } from './position';

const ids = () => ({ project_id: projectId(), merge_request_iid: mergeRequestIid() });

export const mrDiscussions = restTool({
  name: 'mr_discussions',
  attachments: true,
  record: 'mr_discussion',
  title: 'List merge request threads',
  description: 'List threads and comments, oldest first, with resolved state and diff positions; thread id = discussion_id.',
  group: 'merge_requests',
  mode: 'read',
  input: Type.Object({ ...ids(), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${MR_PATH}/discussions`, list: true },
});

export const createMergeRequestThread = defineTool({
  name: 'create_merge_request_thread',
  attachments: true,
  record: 'mr_discussion',
  title: 'Start merge request thread',
  description:
    'Start a thread; with position, on a diff line, checked against the latest diff first (wrong line or path: mismatch; old shas: conflict).',
  group: 'merge_requests',
  mode: 'write',
  endpoint: `POST ${MR_PATH}/discussions (GET ${MR_PATH}/versions and /versions/:latest first with position)`,
  input: Type.Object({ ...ids(), body: userText(noteBody()), position: Type.Optional(position()) }, { additionalProperties: false }),
  check(args) {
    if (args.position) checkPositionShape(args.position);
  },
  async handler(args, { forge }) {
    const path = fillPath(MR_PATH, args);
    const body: Record<string, unknown> = { body: args.body };
    if (args.position) body.position = await resolvePosition(forge, path, args.position);
    return forge.json({ method: 'POST', path: `${path}/discussions`, body });
  },
});

export const createMergeRequestDiscussionNote = restTool({
  name: 'create_merge_request_discussion_note',
  attachments: true,
  record: 'mr_note',
  title: 'Reply in merge request thread',
  description: 'Reply in a merge request thread.',
  group: 'merge_requests',
  mode: 'write',
  input: Type.Object({ ...ids(), discussion_id: discussionId(), body: userText(noteBody()) }, { additionalProperties: false }),
  rest: { method: 'POST', path: `${MR_PATH}/discussions/{discussion_id}/notes` },
});

// GitLab answers a thread that cannot be resolved (a stand-alone comment) with the same bare 403 as a
// caller who may not resolve (resolve_discussion: forbidden! unless discussion.can_resolve?,
// lib/api/helpers/notes_helpers.rb): the refusal names both, so the agent does not take it for a role problem only.
const NOT_RESOLVABLE = 'GitLab resolves only threads (a stand-alone comment, individual_note, is not resolvable), ' +
  'and only for the merge request\'s author or members who may resolve threads';

export const resolveMergeRequestThread = defineTool({
  name: 'resolve_merge_request_thread',
  record: 'mr_discussion',
  title: 'Resolve merge request thread',
  description: 'Resolve or reopen (resolved: false) a thread.',
  group: 'merge_requests',
  mode: 'write',
  idempotent: true,
  endpoint: `PUT ${MR_PATH}/discussions/{discussion_id}`,
  input: Type.Object({ ...ids(), discussion_id: discussionId(), resolved: Type.Boolean() }, { additionalProperties: false }),
  async handler(args, { forge }) {
    try {
      return await forge.json({ method: 'PUT', path: fillPath(`${MR_PATH}/discussions/{discussion_id}`, args), body: { resolved: args.resolved } });
    } catch (error) {
      if (error instanceof ToolError && error.status === 403) throw new ToolError('permission', `${error.message}: ${NOT_RESOLVABLE}`, 403);
      throw error;
    }
  },
});
