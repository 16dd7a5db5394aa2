// GET /events (the caller's own activity) and GET /projects/:id/events (lib/api/events.rb,
// app/finders/events_finder.rb): filtered by action and target type, before/after a day, newest first.
import type { ForgeModel } from '../model';
import type { ForgeEvent } from '../model-discovery';
import { loadProject, paramError, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { canRead, presentEvent } from './present-discovery';

/** Event.actions (app/models/event.rb). */
const ACTIONS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'] as const;
/** Event::TARGET_TYPES keys. */
const TARGET_TYPES = ['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user', 'wiki', 'design'] as const;
const CLASS_OF: Record<string, string> = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
  wiki: 'WikiPage::Meta',
  design: 'DesignManagement::Design',
};

/** A Grape Date parameter: YYYY-MM-DD (other forms Date.parse reads are not modelled). */
function day(ctx: Ctx, name: string): string | undefined {
  const v = ctx.input.str(name);
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw paramError(`${name} is invalid`);
  return v;
}

function filtered(ctx: Ctx, events: ForgeEvent[]): ForgeEvent[] {
  const action = ctx.input.oneOf('action', ACTIONS);
  const target = ctx.input.oneOf('target_type', TARGET_TYPES);
  const before = day(ctx, 'before');
  const after = day(ctx, 'after');
  const sort = ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
  const list = events.filter(
    (e) =>
      (!action || e.action === action) &&
      (!target || e.target_type === CLASS_OF[target]) &&
      // created_at < before.beginning_of_day; created_at > after.end_of_day
      (!before || e.created_at < `${before}T00:00:00.000Z`) &&
      (!after || e.created_at > `${after}T23:59:59.999Z`),
  );
  return list.sort((a, b) => (sort === 'asc' ? a.id - b.id : b.id - a.id));
}

function readable(m: ForgeModel, userId: number) {
  return (e: ForgeEvent) => {
    if (e.project_id === null) return true;
    const p = m.projects.get(e.project_id);
    return p !== undefined && canRead(m, p, userId);
  };
}

export const eventRoutes: Route[] = [
  route('GET', '/events', (ctx) => {
    const all = ctx.input.str('scope') === 'all';
    const events = ctx.model.discovery.events.filter((e) => (all || e.author_id === ctx.user.id) && readable(ctx.model, ctx.user.id)(e));
    return listResponse(ctx, filtered(ctx, events), (e) => presentEvent(ctx.model, e));
  }),
  route('GET', '/projects/:id/events', (ctx) => {
    const p = loadProject(ctx);
    return listResponse(
      ctx,
      filtered(
        ctx,
        ctx.model.discovery.events.filter((e) => e.project_id === p.id),
      ),
      (e) => presentEvent(ctx.model, e),
    );
  }),
];
