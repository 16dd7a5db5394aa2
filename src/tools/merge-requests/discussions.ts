// Comments on a merge request: list threads (comments included), start a thread (general or on a diff
// line, the line checked first: position.ts), reply, resolve.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
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
  description: 'Start a thread; with position, on a diff line, checked against the latest diff first (wrong line or path: mismatch; old shas: conflict).',
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
  description: 'Reply in a merge request thread; a reply in a resolved thread leaves it resolved.',
  group: 'merge_requests',
  mode: 'write',
  input: Type.Object({ ...ids(), discussion_id: discussionId(), body: userText(noteBody()) }, { additionalProperties: false }),
  rest: { method: 'POST', path: `${MR_PATH}/discussions/{discussion_id}/notes` },
});

// GitLab answers a thread that cannot be resolved (a stand-alone comment) with the same bare 403 as a
// caller who may not resolve (resolve_discussion: forbidden! unless discussion.can_resolve?,
// lib/api/helpers/notes_helpers.rb): the refusal names both, so the agent does not take it for a role problem only.
const NOT_RESOLVABLE =
  'GitLab resolves only threads (a stand-alone comment, individual_note, is not resolvable), ' +
  "and only for the merge request's author or members who may resolve threads";

/**
 * GitLab answers resolving a thread it does not have with 500, not 404 (resolve_discussion in
 * lib/api/helpers/notes_helpers.rb calls can_resolve? on the nil find_discussion gives back); reading
 * the thread (404 "Discussion Not Found" when absent) tells that apart from a real server error.
 */
async function threadAbsent(forge: ForgeClient, path: string): Promise<boolean> {
  try {
    await forge.json({ method: 'GET', path });
    return false;
  } catch (error) {
    return error instanceof ToolError && error.status === 404;
  }
}

export const resolveMergeRequestThread = defineTool({
  name: 'resolve_merge_request_thread',
  record: 'mr_discussion',
  title: 'Resolve merge request thread',
  description: 'Resolve or reopen a thread.',
  group: 'merge_requests',
  mode: 'write',
  idempotent: true,
  endpoint: `PUT ${MR_PATH}/discussions/{discussion_id} (GET it after a 500)`,
  input: Type.Object({ ...ids(), discussion_id: discussionId(), resolved: Type.Boolean({ description: 'false reopens' }) }, { additionalProperties: false }),
  async handler(args, { forge }) {
    const path = fillPath(`${MR_PATH}/discussions/{discussion_id}`, args);
    try {
      return await forge.json({ method: 'PUT', path, body: { resolved: args.resolved } });
    } catch (error) {
      if (error instanceof ToolError && error.status === 403) throw new ToolError('permission', `${error.message}: ${NOT_RESOLVABLE}`, 403);
      if (error instanceof ToolError && error.status === 500 && (await threadAbsent(forge, path))) {
        throw new ToolError(
          'not_found',
          `thread ${args.discussion_id} does not exist on merge request !${args.merge_request_iid} (GitLab answered its resolve with ${error.message})`,
          404,
        );
      }
      throw error;
    }
  },
});
