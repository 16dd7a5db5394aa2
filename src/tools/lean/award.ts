// Emoji reactions.
import { compact, user } from './helpers';
import type { RecordKind } from './kind';

export const awardEmoji: RecordKind = {
  about: 'An emoji reaction: which, by whom (award_id is its id).',
  lean: (r) =>
    compact({ id: r.id, name: r.name, user: user(r.user), created_at: r.created_at, awardable_type: r.awardable_type, awardable_id: r.awardable_id }),
};
