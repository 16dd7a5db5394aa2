// Comments and comment threads.
import { compact, flag, isRecord, user, type Rec } from './helpers';
import type { RecordKind } from './kind';

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

export const note: RecordKind = { about: 'A comment.', lean: leanNote };

export const discussion: RecordKind = {
  about: 'A comment thread: its id (discussion_id) and its comments.',
  lean: (r) =>
    compact({ id: r.id, individual_note: r.individual_note, notes: Array.isArray(r.notes) ? r.notes.map((n) => (isRecord(n) ? leanNote(n) : n)) : undefined }),
};
