// Milestones and their burndown events.
import { compact, flag, pick, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S } from './schema-parts';

/** A lean milestone; a list's summary leaves out the request's own project and the link (D33). */
function leanMilestone(r: Rec, whole: boolean): Rec {
  return compact({
    id: r.id,
    iid: r.iid,
    project_id: whole ? r.project_id : undefined,
    group_id: r.group_id,
    title: r.title,
    description: r.description,
    state: r.state,
    start_date: r.start_date,
    due_date: r.due_date,
    expired: flag(r.expired),
    // created_at and updated_at are bookkeeping (the list tools filter on them server-side).
    web_url: whole ? r.web_url : undefined,
  });
}

const MILESTONE = { id: I, iid: I, group_id: I, title: S, description: S, state: S, start_date: S, due_date: S, expired: B };

export const milestone: RecordKind = {
  about: 'A project or group milestone.',
  schema: fields({ ...MILESTONE, project_id: I, web_url: S }),
  lean: (r) => leanMilestone(r, true),
};

export const milestoneSummary: RecordKind = {
  about: 'A milestone in a list: what it is called and when it runs (get_milestone adds its project and web_url).',
  schema: fields(MILESTONE),
  lean: (r) => leanMilestone(r, false),
};

export const burndownEvent: RecordKind = {
  about: "A change to a milestone's burndown chart.",
  schema: fields({ created_at: S, action: S, weight: I }),
  lean: (r: Rec) => pick(r, ['created_at', 'action', 'weight']),
};
