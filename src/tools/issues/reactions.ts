// Emoji reactions on issues and on issue comments. GitLab addresses a comment by note id directly
// under the issue, thread replies included; discussion_id is accepted for replies and, when given,
// checked to contain the note, so a reaction never lands on a different comment than meant.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { projectId } from '../params';
import { restTool } from '../rest';
import { issueIid, numericId } from './params';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';
const NOTE_AWARDS = `${ISSUE_PATH}/notes/{note_id}/award_emoji`;

const emojiName = () =>
  Type.String({ pattern: '^:?[^:\\s]+:?$', description: 'Emoji name without colons, e.g. thumbsup, rocket, tada.', hint: 'must be an emoji name such as thumbsup' });
const awardId = () => numericId('Id of the reaction (its id in the list_…_emoji_reactions result).');
const noteId = () => numericId('Id of the comment (note).');
const discussionId = () =>
  Type.Optional(Type.String({ minLength: 1, description: 'Thread of the comment, for replies in a thread; omit for top-level comments. When given, the comment must be in it.' }));

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

export const listIssueEmojiReactions = defineTool({
  name: 'list_issue_emoji_reactions',
  title: 'List issue reactions',
  description: 'List every emoji reaction on an issue: id (award_id), name and the user who reacted.',
  group: 'issues',
  mode: 'read',
  endpoint: `GET ${ISSUE_PATH}/award_emoji`,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid() }, { additionalProperties: false }),
  handler: (args, { forge }) => forge.allPages({ method: 'GET', path: fillPath(`${ISSUE_PATH}/award_emoji`, args) }),
});

export const listIssueNoteEmojiReactions = defineTool({
  name: 'list_issue_note_emoji_reactions',
  title: 'List comment reactions',
  description: 'List every emoji reaction on an issue comment: id (award_id), name and the user who reacted. For a reply in a thread, discussion_id may be given too.',
  group: 'issues',
  mode: 'read',
  endpoint: `GET ${NOTE_AWARDS}`,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), note_id: noteId(), discussion_id: discussionId() }, { additionalProperties: false }),
  async handler(args, { forge }) {
    await checkThread(forge, args);
    return forge.allPages({ method: 'GET', path: fillPath(NOTE_AWARDS, args) });
  },
});

export const createIssueEmojiReaction = defineTool({
  name: 'create_issue_emoji_reaction',
  title: 'React to issue',
  description: 'Add an emoji reaction to an issue as the caller. Reacting twice with the same emoji, or with an unknown name, fails (the forge answers not found). Returns the reaction with its id.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${ISSUE_PATH}/award_emoji`,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), name: emojiName() }, { additionalProperties: false }),
  handler: (args, { forge }) => forge.json({ method: 'POST', path: fillPath(`${ISSUE_PATH}/award_emoji`, args), body: { name: withoutColons(args.name) } }),
});

export const deleteIssueEmojiReaction = restTool({
  name: 'delete_issue_emoji_reaction',
  title: 'Remove issue reaction',
  description: 'Remove an emoji reaction from an issue. Only the user who reacted (or an administrator) may; others get kind permission.',
  group: 'issues',
  mode: 'write',
  destructive: true,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), award_id: awardId() }, { additionalProperties: false }),
  rest: { method: 'DELETE', path: `${ISSUE_PATH}/award_emoji/{award_id}`, empty: (args) => ({ deleted: true, award_id: args.award_id }) },
});

export const createIssueNoteEmojiReaction = defineTool({
  name: 'create_issue_note_emoji_reaction',
  title: 'React to comment',
  description:
    'Add an emoji reaction to an issue comment as the caller. For a reply in a thread, discussion_id may be given too. Reacting twice with the same emoji fails. Returns the reaction with its id.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${NOTE_AWARDS}`,
  input: Type.Object(
    { project_id: projectId(), issue_iid: issueIid(), note_id: noteId(), discussion_id: discussionId(), name: emojiName() },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    await checkThread(forge, args);
    return forge.json({ method: 'POST', path: fillPath(NOTE_AWARDS, args), body: { name: withoutColons(args.name) } });
  },
});

export const deleteIssueNoteEmojiReaction = defineTool({
  name: 'delete_issue_note_emoji_reaction',
  title: 'Remove comment reaction',
  description:
    'Remove an emoji reaction from an issue comment. Only the user who reacted (or an administrator) may. For a reply in a thread, discussion_id may be given too.',
  group: 'issues',
  mode: 'write',
  destructive: true,
  endpoint: `DELETE ${NOTE_AWARDS}/{award_id}`,
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
