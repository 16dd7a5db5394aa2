// Issue activity of the seed: comments and a thread on issue 1, an issue link, reactions and
// to-dos. Ids are fixed so tests can address them (ISSUE_SEED).
import type { ForgeModel } from './model';
import type { Award, Discussion, Note, Todo } from './model-issues';

export const ISSUE_SEED = {
  /** Issue 1: a stand-alone comment by dev (3001). */
  commentNote: 3001,
  /** Issue 1: a thread started by maria (3002) with a reply by dev (3003); resolvable, unresolved. */
  threadNote: 3002,
  replyNote: 3003,
  /** Issue 2: a comment by maria. */
  issue2Note: 3004,
  /** Issue 5 (confidential): a comment by gus. */
  confidentialNote: 3005,
  /** Issue 1 relates_to issue 2. */
  link: 701,
  /** On issue 1: thumbsup by dev (801), rocket by maria (802); on reply 3003: eyes by maria (803). */
  awards: { devThumbsup: 801, mariaRocket: 802, replyEyes: 803 },
  /** maria: 901 assigned (issue 2, pending), 902 mentioned (issue 1, pending), 903 marked (issue 3, done);
   * dev: 904 assigned (issue 1, pending), 905 directly_addressed (issue 5, pending). */
  todos: { mariaAssigned: 901, mariaMentioned: 902, mariaDone: 903, devAssigned: 904, devAddressed: 905 },
} as const;

const PROJECT = 42;
const at = (day: number, hour: number) => `2024-01-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

function note(id: number, discussionId: string, iid: number, authorId: number, body: string, when: string, threaded: boolean): Note {
  return {
    id,
    discussion_id: discussionId,
    project_id: PROJECT,
    noteable_type: 'Issue',
    noteable_iid: iid,
    type: threaded ? 'DiscussionNote' : null,
    body,
    author_id: authorId,
    created_at: when,
    updated_at: when,
    system: false,
    internal: false,
    resolved: false,
    resolved_by_id: null,
    resolved_at: null,
  };
}

function discussion(m: ForgeModel, iid: number, notes: (id: string) => Note[], individual: boolean): Discussion {
  const id = m.tracker.newDiscussionId();
  return { id, project_id: PROJECT, noteable_type: 'Issue', noteable_iid: iid, individual_note: individual, notes: notes(id) };
}

function award(id: number, name: string, userId: number, type: Award['awardable_type'], awardableId: number): Award {
  return { id, name, user_id: userId, awardable_type: type, awardable_id: awardableId, created_at: at(12, 9), updated_at: at(12, 9) };
}

function todo(id: number, userId: number, authorId: number, action: Todo['action_name'], iid: number, state: Todo['state']): Todo {
  return {
    id,
    user_id: userId,
    author_id: authorId,
    project_id: PROJECT,
    action_name: action,
    target_type: 'Issue',
    target_iid: iid,
    body: `Issue #${iid}`,
    state,
    created_at: at(10 + (id % 10), 8),
    updated_at: at(10 + (id % 10), 8),
  };
}

export function seedIssueActivity(m: ForgeModel): void {
  const t = m.tracker;
  const S = ISSUE_SEED;
  t.discussions.push(
    discussion(m, 1, (d) => [note(S.commentNote, d, 1, 2, 'I can reproduce this with Okta.', at(4, 9), false)], true),
    discussion(
      m,
      1,
      (d) => [
        note(S.threadNote, d, 1, 1, 'Should we retry the SSO handshake?', at(4, 10), true),
        note(S.replyNote, d, 1, 2, 'Yes, once, with a fresh state.', at(4, 11), true),
      ],
      false,
    ),
    discussion(m, 2, (d) => [note(S.issue2Note, d, 2, 1, 'Per user or per token?', at(5, 9), false)], true),
    discussion(m, 5, (d) => [note(S.confidentialNote, d, 5, 3, 'Details are in the incident doc.', at(7, 9), false)], true),
  );
  t.links.push({
    id: S.link,
    source: { project_id: PROJECT, iid: 1 },
    target: { project_id: PROJECT, iid: 2 },
    link_type: 'relates_to',
    created_at: at(6, 9),
    updated_at: at(6, 9),
  });
  t.awards.push(
    award(S.awards.devThumbsup, 'thumbsup', 2, 'Issue', m.projects.get(PROJECT)!.issues.get(1)!.id),
    award(S.awards.mariaRocket, 'rocket', 1, 'Issue', m.projects.get(PROJECT)!.issues.get(1)!.id),
    award(S.awards.replyEyes, 'eyes', 1, 'Note', S.replyNote),
  );
  t.todos.push(
    todo(S.todos.mariaAssigned, 1, 2, 'assigned', 2, 'pending'),
    todo(S.todos.mariaMentioned, 1, 2, 'mentioned', 1, 'pending'),
    todo(S.todos.mariaDone, 1, 1, 'marked', 3, 'done'),
    todo(S.todos.devAssigned, 2, 1, 'assigned', 1, 'pending'),
    todo(S.todos.devAddressed, 2, 3, 'directly_addressed', 5, 'pending'),
  );
  t.nextId = { note: 3100, link: 750, award: 850, todo: 950, discussion: t.nextId.discussion };
}
