// Emoji reactions on issues and on issue comments. GitLab addresses a comment by note id directly
// under the issue, thread replies included; discussion_id is accepted for replies and, when given,
// checked to contain the note, so a reaction never lands on a different comment than meant.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { discussionId as threadId, numericId, projectId, shortName } from '../params';
import { restTool } from '../rest';
import { issueIid } from './params';
import { deletedOutput } from '../lean/schema-parts';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';
const NOTE_AWARDS = `${ISSUE_PATH}/notes/{note_id}/award_emoji`;

const emojiName = () => shortName({ pattern: '^:?[^:\\s]+:?$', hint: 'must be an emoji name such as thumbsup', description: 'Emoji name: thumbsup' });
const awardId = () => numericId(undefined, 'Reaction id from the list');
const noteId = () => numericId(undefined, 'Comment id');
const discussionId = () => Type.Optional(threadId());

type NoteArgs = {
  project_id: string;
  issue_iid: string;
  note_id: string;
  discussion_id?: string;
};

/** With discussion_id, the note must belong to that thread (GitLab's REST route itself ignores threads). */
async function checkThread(forge: ForgeClient, args: NoteArgs): Promise<void> {
  if (args.discussion_id === undefined) return;
  const thread = await forge.json<{ notes?: { id: number }[] }>({ method: 'GET', path: fillPath(`${ISSUE_PATH}/discussions/{discussion_id}`, args) });
  if (!thread.notes?.some((n) => String(n.id) === args.note_id)) {
    throw new ToolError('not_found', `note ${args.note_id} is not in discussion ${args.discussion_id}; check note_id, or omit discussion_id`);
  }
}

const withoutColons = (name: string) => name.replace(/^:|:$/g, '');

const listIssueEmojiReactions = defineTool({
  name: 'list_issue_emoji_reactions',
  title: 'List issue reactions',
  description: 'List the emoji reactions on an issue.',
  group: 'issues',
  mode: 'read',
  record: 'award_emoji',
  endpoint: `GET ${ISSUE_PATH}/award_emoji`,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid() }, { additionalProperties: false }),
  handler: (args, { forge }) => forge.allPages({ method: 'GET', path: fillPath(`${ISSUE_PATH}/award_emoji`, args) }),
});

const listIssueNoteEmojiReactions = defineTool({
  name: 'list_issue_note_emoji_reactions',
  title: 'List comment reactions',
  description: 'List the emoji reactions on an issue comment.',
  group: 'issues',
  mode: 'read',
  record: 'award_emoji',
  endpoint: `GET ${NOTE_AWARDS} (GET ${ISSUE_PATH}/discussions/{discussion_id} first with discussion_id)`,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), note_id: noteId(), discussion_id: discussionId() }, { additionalProperties: false }),
  async handler(args, { forge }) {
    await checkThread(forge, args);
    return forge.allPages({ method: 'GET', path: fillPath(NOTE_AWARDS, args) });
  },
});

const createIssueEmojiReaction = defineTool({
  name: 'create_issue_emoji_reaction',
  title: 'React to issue',
  description: 'React to an issue with an emoji.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${ISSUE_PATH}/award_emoji`,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), name: emojiName() }, { additionalProperties: false }),
  handler: (args, { forge }) => forge.json({ method: 'POST', path: fillPath(`${ISSUE_PATH}/award_emoji`, args), body: { name: withoutColons(args.name) } }),
});

const deleteIssueEmojiReaction = restTool({
  name: 'delete_issue_emoji_reaction',
  title: 'Remove issue reaction',
  description: "Remove the caller's reaction to an issue.",
  group: 'issues',
  mode: 'write',
  destructive: true,
  output: deletedOutput('award_id'),
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), award_id: awardId() }, { additionalProperties: false }),
  rest: { method: 'DELETE', path: `${ISSUE_PATH}/award_emoji/{award_id}`, empty: (args) => ({ deleted: true, award_id: args.award_id }) },
});

const createIssueNoteEmojiReaction = defineTool({
  name: 'create_issue_note_emoji_reaction',
  title: 'React to comment',
  description: 'React to an issue comment with an emoji.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${NOTE_AWARDS} (GET ${ISSUE_PATH}/discussions/{discussion_id} first with discussion_id)`,
  input: Type.Object(
    { project_id: projectId(), issue_iid: issueIid(), note_id: noteId(), discussion_id: discussionId(), name: emojiName() },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    await checkThread(forge, args);
    return forge.json({ method: 'POST', path: fillPath(NOTE_AWARDS, args), body: { name: withoutColons(args.name) } });
  },
});

const deleteIssueNoteEmojiReaction = defineTool({
  name: 'delete_issue_note_emoji_reaction',
  title: 'Remove comment reaction',
  description: "Remove the caller's reaction to an issue comment.",
  group: 'issues',
  mode: 'write',
  destructive: true,
  endpoint: `DELETE ${NOTE_AWARDS}/{award_id} (GET ${ISSUE_PATH}/discussions/{discussion_id} first with discussion_id)`,
  output: deletedOutput('award_id'),
  input: Type.Object(
    { project_id: projectId(), issue_iid: issueIid(), note_id: noteId(), discussion_id: discussionId(), award_id: awardId() },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    await checkThread(forge, args);
    await forge.json({ method: 'DELETE', path: fillPath(`${NOTE_AWARDS}/{award_id}`, args) });
    return { deleted: true, award_id: args.award_id };
  },
});

export const reactionTools = [
  listIssueEmojiReactions,
  listIssueNoteEmojiReactions,
  createIssueEmojiReaction,
  deleteIssueEmojiReaction,
  createIssueNoteEmojiReaction,
  deleteIssueNoteEmojiReaction,
];
