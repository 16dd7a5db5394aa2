// The caller's to-dos.
import { compact, isRecord, pick, reference, user } from './helpers';
import type { RecordKind } from './kind';
import { fields, I, REFERENCE, S, USER } from './schema-parts';

export const todo: RecordKind = {
  about: 'A to-do of the caller: why (action_name), on what (target), and its state.',
  schema: fields({
    id: I,
    action_name: S,
    state: S,
    target_type: S,
    target: REFERENCE,
    target_url: S,
    body: S,
    project: fields({ id: I, path_with_namespace: S }),
    author: USER,
    created_at: S,
  }),
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
