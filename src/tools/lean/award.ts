// Emoji reactions.
import { compact, user } from './helpers';
import type { RecordKind } from './kind';
import { fields, I, S, USER } from './schema-parts';

export const awardEmoji: RecordKind = {
  about: 'An emoji reaction: which, by whom (award_id is its id).',
  schema: fields({ id: I, name: S, user: USER, created_at: S, awardable_type: S, awardable_id: I }),
  lean: (r) =>
    compact({ id: r.id, name: r.name, user: user(r.user), created_at: r.created_at, awardable_type: r.awardable_type, awardable_id: r.awardable_id }),
};
