// The caller's to-dos.
import { compact, isRecord, pick, reference, user } from './helpers';
import type { RecordKind } from './kind';

export const todo: RecordKind = {
  about: 'A to-do of the caller: why (action_name), on what (target), and its state.',
  lean: (r) =>
    compact({
      id: r.id,
      action_name: r.action_name,
      state: r.state,
      target_type: r.target_type,
      target: reference(r.target),
      target_url: r.target_url,
      body: r.body,
      project: isRecord(r.project) ? pick(r.project, ['id', 'path_with_namespace']) : undefined,
      author: user(r.author),
      created_at: r.created_at,
    }),
};
