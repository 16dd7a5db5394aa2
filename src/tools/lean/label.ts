// Labels (D33): name and meaning (the colour is presentation); which are the project's own; counts when asked for.
import { compact, flag, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S } from './schema-parts';

const counted = (value: unknown) => (typeof value === 'number' ? value : undefined);

export const label: RecordKind = {
  about:
    "A label: name, description and priority (colour with full_response); is_project_label: true for the project's own (the others are its groups'); issue and merge request counts when asked for.",
  schema: fields({
    id: I,
    name: S,
    description: S,
    priority: I,
    is_project_label: B,
    open_issues_count: I,
    closed_issues_count: I,
    open_merge_requests_count: I,
  }),
  lean: (r: Rec) =>
    compact({
      id: r.id,
      name: r.name,
      description: r.description,
      priority: r.priority,
      is_project_label: flag(r.is_project_label),
      open_issues_count: counted(r.open_issues_count),
      closed_issues_count: counted(r.closed_issues_count),
      open_merge_requests_count: counted(r.open_merge_requests_count),
    }),
};
