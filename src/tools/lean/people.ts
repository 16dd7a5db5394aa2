// Users, members and events (D33): who someone is, what access they have, what they did.
import { compact, flag, isRecord, pick, user, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S, USER } from './schema-parts';

/** GitLab's access level names (doc/api/members.md: valid access levels). */
const ACCESS_NAMES: Record<number, string> = {
  0: 'No access',
  5: 'Minimal access',
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

/** A user record's own facts; an active human shows no state and no bot flag. */
function person(r: Rec): Rec {
  return compact({ id: r.id, username: r.username, name: r.name, state: r.state !== 'active' ? r.state : undefined, bot: flag(r.bot) });
}

const PERSON = { id: I, username: S, name: S, state: S, bot: B };

export const userRecord: RecordKind = {
  about: 'A user: id, username and name; state when not active (blocked, deactivated) and bot: true for bots.',
  schema: fields({ ...PERSON, job_title: S, created_at: S }),
  lean: (r) => compact({ ...person(r), job_title: r.job_title, created_at: r.created_at }),
};

export const member: RecordKind = {
  about: 'A member of a project or group, with the access level as a number and as its name (inherited members included where the tool says so).',
  schema: fields({ ...PERSON, access_level: I, access_level_name: S, expires_at: S }),
  lean: (r) =>
    compact({
      ...person(r),
      access_level: r.access_level,
      access_level_name: typeof r.access_level === 'number' ? ACCESS_NAMES[r.access_level] : undefined,
      expires_at: r.expires_at,
    }),
};

export const event: RecordKind = {
  about: 'An activity event: who did what to which issue, merge request, comment or branch, and when.',
  schema: fields({
    id: I,
    created_at: S,
    project_id: I,
    action_name: S,
    author: USER,
    target_type: S,
    target_iid: I,
    target_title: S,
    push_data: fields({ action: S, ref_type: S, ref: S, commit_count: I, commit_to: S, commit_title: S }),
    note: fields({ id: I, body: S, noteable_type: S, noteable_iid: I }),
  }),
  lean: (r) =>
    compact({
      id: r.id,
      created_at: r.created_at,
      project_id: r.project_id,
      action_name: r.action_name,
      author: user(r.author),
      target_type: r.target_type,
      target_iid: r.target_iid,
      target_title: r.target_title,
      push_data: isRecord(r.push_data) ? pick(r.push_data, ['action', 'ref_type', 'ref', 'commit_count', 'commit_to', 'commit_title']) : undefined,
      note: isRecord(r.note) ? pick(r.note, ['id', 'body', 'noteable_type', 'noteable_iid']) : undefined,
    }),
};
