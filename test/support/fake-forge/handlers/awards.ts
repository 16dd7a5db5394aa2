// Award emoji (reactions) on issues and on issue notes. Notes are addressed by id directly under
// the issue, thread replies included. GitLab reports a refused award as 404 "Award Emoji <reason>"
// and someone else's award on delete as 401.
import type { Award } from '../model-issues';
import { EMOJI_NAMES } from '../model-issues';
import { ApiError, json, loadProject, notFound, route, unauthorized, type Ctx, type Route } from './http';
import { canReadIssue, intParam } from './issue-access';
import { listResponse } from './paginate';
import { presentAward } from './present-issues';

interface Awardable {
  type: Award['awardable_type'];
  id: number;
}

/** API::AwardEmoji#awardable plus can_read_awardable?: missing records are ActiveRecord 404s. */
function loadAwardable(ctx: Ctx): Awardable {
  const p = loadProject(ctx);
  const issue = p.issues.get(intParam(ctx, 'issue_iid'));
  if (!issue) throw notFound();
  let target: Awardable = { type: 'Issue', id: issue.id };
  if (ctx.params.note_id !== undefined) {
    const noteId = intParam(ctx, 'note_id');
    const note = ctx.model.tracker.notesOf(p.id, 'Issue', issue.iid).find((n) => n.id === noteId);
    if (!note) throw notFound();
    target = { type: 'Note', id: note.id };
  }
  if (!canReadIssue(ctx.model, p, issue, ctx.user.id)) throw notFound('Award Emoji');
  return target;
}

function list(ctx: Ctx): Response {
  const a = loadAwardable(ctx);
  return listResponse(ctx, ctx.model.tracker.awardsOf(a.type, a.id), (x) => presentAward(ctx.model, x));
}

function create(ctx: Ctx): Response {
  const a = loadAwardable(ctx);
  const name = ctx.input.required('name');
  const t = ctx.model.tracker;
  const refuse = (reason: string) => new ApiError(404, { message: `404 Award Emoji ${reason} Not Found` });
  if (!EMOJI_NAMES.has(name)) throw refuse('Name is not a valid emoji name');
  if (t.awardsOf(a.type, a.id).some((x) => x.name === name && x.user_id === ctx.user.id)) throw refuse('Name has already been taken');
  const now = ctx.model.now();
  const award: Award = { id: t.nextId.award++, name, user_id: ctx.user.id, awardable_type: a.type, awardable_id: a.id, created_at: now, updated_at: now };
  t.awards.push(award);
  return json(presentAward(ctx.model, award), 201);
}

function remove(ctx: Ctx): Response {
  const a = loadAwardable(ctx);
  const id = intParam(ctx, 'award_id');
  const t = ctx.model.tracker;
  const award = t.awardsOf(a.type, a.id).find((x) => x.id === id);
  if (!award) throw notFound();
  if (award.user_id !== ctx.user.id) throw unauthorized();
  t.awards = t.awards.filter((x) => x !== award);
  return new Response(null, { status: 204 });
}

const ISSUE = '/projects/:id/issues/:issue_iid';
export const awardRoutes: Route[] = [
  route('GET', `${ISSUE}/award_emoji`, list),
  route('POST', `${ISSUE}/award_emoji`, create),
  route('DELETE', `${ISSUE}/award_emoji/:award_id`, remove),
  route('GET', `${ISSUE}/notes/:note_id/award_emoji`, list),
  route('POST', `${ISSUE}/notes/:note_id/award_emoji`, create),
  route('DELETE', `${ISSUE}/notes/:note_id/award_emoji/:award_id`, remove),
];
