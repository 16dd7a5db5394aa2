// Comments and comment threads.
import { compact, flag, isRecord, user, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { ATTACHMENTS, B, fields, I, S, list, USER } from './schema-parts';

export function leanNote(r: Rec): Rec {
  const resolvable = r.resolvable === true;
  return compact({
    id: r.id,
    type: r.type,
    body: r.body,
    author: user(r.author),
    created_at: r.created_at,
    updated_at: r.updated_at !== r.created_at ? r.updated_at : undefined,
    system: flag(r.system),
    internal: flag(r.internal ?? r.confidential),
    resolvable: flag(resolvable),
    resolved: resolvable ? r.resolved : undefined,
    resolved_by: resolvable ? user(r.resolved_by) : undefined,
    resolved_at: resolvable ? r.resolved_at : undefined,
  });
}

/** leanNote's fields, for a merge request's notes too (merge-request-review.ts). */
export const NOTE_FIELDS = {
  id: I,
  type: S,
  body: S,
  attachments: ATTACHMENTS,
  author: USER,
  created_at: S,
  updated_at: S,
  system: B,
  internal: B,
  resolvable: B,
  resolved: B,
  resolved_by: USER,
  resolved_at: S,
};

export const note: RecordKind = { about: 'A comment.', lean: leanNote, schema: fields(NOTE_FIELDS) };

export const discussion: RecordKind = {
  about: 'A comment thread: its id (discussion_id) and its comments.',
  schema: fields({ id: S, individual_note: B, notes: list(fields(NOTE_FIELDS)) }),
  lean: (r) =>
    compact({ id: r.id, individual_note: r.individual_note, notes: Array.isArray(r.notes) ? r.notes.map((n) => (isRecord(n) ? leanNote(n) : n)) : undefined }),
};
