// The review flow: draft notes the caller alone sees, then all of them published at once (one
// notification for the whole review). A positioned draft is checked like a diff thread (position.ts),
// since GitLab only judges the position when publishing, failing the whole publish (lib/api/draft_notes.rb).
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { discussionId, noteBody, projectId, userText } from '../params';
import { mergeRequestIid, MR_PATH, position } from './params';
import { checkPositionShape, resolvePosition } from './position';
import { B, fields, S } from '../lean/schema-parts';

const ids = () => ({ project_id: projectId(), merge_request_iid: mergeRequestIid() });

export const createDraftNote = defineTool({
  name: 'create_draft_note',
  attachments: true,
  record: 'draft_note',
  title: 'Add review draft',
  description:
    'Add a review comment only the caller sees until bulk_publish_draft_notes: general, on a diff line (position, checked as in ' +
    'create_merge_request_thread) or a reply (resolve_discussion: resolve on publish; without resolve_discussion, publishing re-opens a resolved thread).',
  group: 'merge_requests',
  mode: 'write',
  endpoint: `POST ${MR_PATH}/draft_notes (GET ${MR_PATH}/versions and /versions/:latest first with position)`,
  input: Type.Object(
    {
      ...ids(),
      body: userText(noteBody()),
      position: Type.Optional(position()),
      in_reply_to_discussion_id: Type.Optional(discussionId()),
      resolve_discussion: Type.Optional(Type.Boolean({ description: 'Reply: resolve on publish' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.position && args.in_reply_to_discussion_id !== undefined)
      throw invalidArgument('position', 'cannot be combined with in_reply_to_discussion_id (a reply sits in its thread)');
    if (args.resolve_discussion !== undefined && args.in_reply_to_discussion_id === undefined)
      throw invalidArgument('resolve_discussion', 'needs in_reply_to_discussion_id');
    if (args.position) checkPositionShape(args.position);
  },
  async handler(args, { forge }) {
    const path = fillPath(MR_PATH, args);
    const body: Record<string, unknown> = { note: args.body };
    if (args.position) body.position = await resolvePosition(forge, path, args.position);
    if (args.in_reply_to_discussion_id !== undefined) body.in_reply_to_discussion_id = args.in_reply_to_discussion_id;
    if (args.resolve_discussion !== undefined) body.resolve_discussion = args.resolve_discussion;
    return forge.json({ method: 'POST', path: `${path}/draft_notes`, body });
  },
});

export const bulkPublishDraftNotes = defineTool({
  name: 'bulk_publish_draft_notes',
  title: 'Publish review',
  description: "Publish all the caller's draft notes at once; a draft reply without resolve_discussion re-opens its thread.",
  group: 'merge_requests',
  mode: 'write',
  endpoint: `POST ${MR_PATH}/draft_notes/bulk_publish (GET ${MR_PATH}/draft_notes first)`,
  output: fields({ published: B, message: S }),
  input: Type.Object(ids(), { additionalProperties: false }),
  // GitLab answers 204 whether or not there was anything to publish (lib/api/draft_notes.rb,
  // app/services/draft_notes/publish_service.rb), so the caller's drafts are read first: with none,
  // nothing is sent and the result says so rather than claim a publication.
  async handler(args, { forge }) {
    const path = fillPath(MR_PATH, args);
    const drafts = await forge.json<unknown>({ method: 'GET', path: `${path}/draft_notes`, query: { per_page: 1 } });
    if (Array.isArray(drafts) && drafts.length === 0) return { published: false, message: 'no draft notes to publish' };
    await forge.json({ method: 'POST', path: `${path}/draft_notes/bulk_publish` });
    return { published: true };
  },
});
