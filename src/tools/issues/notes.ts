// Comments: add one to an issue (top-level or as a reply in a thread), edit or resolve one, list
// an issue's threads, and comment on an issue or a merge request.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { discussionId, isoDateTime, noteBody, numericId, pagination, projectId, userText } from '../params';
import { restTool } from '../rest';
import { requireRelease } from '../tiers';
import { issueIid } from './params';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';

export const createIssueNote = defineTool({
  name: 'create_issue_note',
  attachments: true,
  title: 'Comment on issue',
  description: 'Comment on an issue, or reply in a thread.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${ISSUE_PATH}/notes or POST ${ISSUE_PATH}/discussions/{discussion_id}/notes`,
  input: Type.Object(
    {
      project_id: projectId(),
      issue_iid: issueIid(),
      body: userText(noteBody()),
      discussion_id: Type.Optional(discussionId('Thread to reply in')),
      created_at: isoDateTime('Back-date (Owner or admin)'),
    },
    { additionalProperties: false },
  ),
  handler(args, { forge }) {
    const path = args.discussion_id === undefined ? `${ISSUE_PATH}/notes` : `${ISSUE_PATH}/discussions/{discussion_id}/notes`;
    return forge.json({ method: 'POST', path: fillPath(path, args), body: { body: args.body, created_at: args.created_at } });
  },
});

const NOT_RESOLVABLE =
  'GitLab resolves only threads (a stand-alone comment, individual_note, is not resolvable), ' +
  "and only for the issue's author or members who may resolve threads";

export const updateIssueNote = defineTool({
  name: 'update_issue_note',
  attachments: true,
  title: 'Edit or resolve issue comment',
  description: "Edit a comment's body, or (un)resolve a whole thread (GitLab 16.3+); not both.",
  group: 'issues',
  mode: 'write',
  idempotent: true,
  endpoint: `PUT ${ISSUE_PATH}/notes/{note_id}, PUT ${ISSUE_PATH}/discussions/{discussion_id}/notes/{note_id} or PUT ${ISSUE_PATH}/discussions/{discussion_id}`,
  input: Type.Object(
    {
      project_id: Type.Optional(projectId()),
      issue_iid: Type.Optional(issueIid()),
      discussion_id: Type.Optional(discussionId()),
      note_id: Type.Optional(numericId(undefined, 'Comment id, to edit body')),
      body: Type.Optional(userText(noteBody())),
      resolved: Type.Optional(Type.Boolean({ description: 'With discussion_id: (un)resolve it' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    for (const name of ['project_id', 'issue_iid'] as const) {
      if (args[name] === undefined) throw invalidArgument(name, 'is required');
    }
    if (args.body !== undefined && args.resolved !== undefined)
      throw invalidArgument('resolved', 'cannot be combined with body; edit the text or resolve, one per call');
    if (args.body === undefined && args.resolved === undefined)
      throw invalidArgument('body', 'is required (or give resolved to resolve or unresolve the thread)');
    if (args.body !== undefined && args.note_id === undefined) throw invalidArgument('note_id', 'is required to edit a comment');
    if (args.resolved !== undefined && args.discussion_id === undefined)
      throw invalidArgument('discussion_id', 'is required to resolve or unresolve (a thread is resolved as a whole)');
  },
  async handler(args, ctx) {
    const { forge } = ctx;
    if (args.resolved !== undefined) {
      // GitLab resolves a whole issue thread from 16.3 (lib/api/discussions.rb: PUT …/discussions/:discussion_id
      // for resolvable noteables; app/models/concerns/noteable.rb). Resolving one note would leave the rest open.
      await requireRelease(ctx, 'resolved', 'resolving an issue thread', 16, 3);
      try {
        return await forge.json({ method: 'PUT', path: fillPath(`${ISSUE_PATH}/discussions/{discussion_id}`, args), body: { resolved: args.resolved } });
      } catch (error) {
        // A release without the route answers the router's bare 404, unlike a missing issue or thread.
        if (error instanceof ToolError && error.status === 404 && error.message === '404 Not Found') {
          throw new ToolError('not_found', 'this GitLab cannot resolve issue threads (it needs 16.3 or later), or the thread does not exist', 404);
        }
        // GitLab refuses a thread that cannot be resolved with the same bare 403 as a caller who may not resolve it.
        if (error instanceof ToolError && error.status === 403) throw new ToolError('permission', `${error.message}: ${NOT_RESOLVABLE}`, 403);
        throw error;
      }
    }
    if (args.discussion_id === undefined) {
      return forge.json({ method: 'PUT', path: fillPath(`${ISSUE_PATH}/notes/{note_id}`, args), body: { body: args.body } });
    }
    return forge.json({ method: 'PUT', path: fillPath(`${ISSUE_PATH}/discussions/{discussion_id}/notes/{note_id}`, args), body: { body: args.body } });
  },
});

export const listIssueDiscussions = restTool({
  name: 'list_issue_discussions',
  attachments: true,
  title: 'List issue threads',
  description: "List an issue's comment threads, oldest first; thread id = discussion_id.",
  group: 'issues',
  mode: 'read',
  record: 'discussion',
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${ISSUE_PATH}/discussions`, list: true },
});

const NOTEABLE_PATHS = {
  issue: '/projects/{project_id}/issues/{noteable_iid}/notes',
  merge_request: '/projects/{project_id}/merge_requests/{noteable_iid}/notes',
};

export const createNote = defineTool({
  name: 'create_note',
  attachments: true,
  title: 'Comment on issue or merge request',
  description: 'Comment on an issue or merge request.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${NOTEABLE_PATHS.issue} or POST ${NOTEABLE_PATHS.merge_request}`,
  input: Type.Object(
    {
      project_id: projectId(),
      noteable_type: Type.Union([Type.Literal('issue'), Type.Literal('merge_request')], { description: 'What noteable_iid is' }),
      noteable_iid: numericId(undefined, 'Its iid'),
      body: userText(noteBody()),
    },
    { additionalProperties: false },
  ),
  handler: (args, { forge }) => forge.json({ method: 'POST', path: fillPath(NOTEABLE_PATHS[args.noteable_type], args), body: { body: args.body } }),
});
