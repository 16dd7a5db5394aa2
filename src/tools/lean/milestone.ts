// Milestones and their burndown events.
import { compact, flag, pick, type Rec } from './helpers';
import type { RecordKind } from './kind';

export const milestone: RecordKind = {
  about: 'A project or group milestone.',
  lean: (r) => compact({
    id: r.id,
    iid: r.iid,
    project_id: r.project_id,
    group_id: r.group_id,
    title: r.title,
    description: r.description,
    state: r.state,
    start_date: r.start_date,
    due_date: r.due_date,
    expired: flag(r.expired),
    // created_at and updated_at are bookkeeping (the list tools filter on them server-side).
    web_url: r.web_url,
  }),
};

export const milestoneSummary: RecordKind = {
  about: 'A milestone in a list: what it is called and when it runs (get_milestone adds its project and web_url).',
  // The list's own project is the request's, and the link is one call away: dropped (D33).
  lean: (r) => compact({
    id: r.id,
    iid: r.iid,
    group_id: r.group_id,
    title: r.title,
    description: r.description,
    state: r.state,
    start_date: r.start_date,
    due_date: r.due_date,
    expired: flag(r.expired),
  }),
};

export const burndownEvent: RecordKind = {
  about: 'A change to a milestone\'s burndown chart.',
  lean: (r: Rec) => pick(r, ['created_at', 'action', 'weight']),
};
