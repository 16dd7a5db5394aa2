// Comments on issues (and merge requests): top-level notes, threads (discussions), replies,
// edits and resolving. A top-level note is a one-note "individual" discussion, as in GitLab.
import type { Issue, Project } from '../model';
import type { Discussion, Note, NoteableType } from '../model-issues';
import { ACCESS, ApiError, badRequest, forbidden, json, loadProject, notFound, paramError, route, type Ctx, type Route } from './http';
import { intParam, loadIssue, loadIssueNote, requireNoteAdmin } from './issue-access';
import { issueThreadsResolvable } from '../edition';
import { listResponse } from './paginate';
import { presentDiscussion, presentNote } from './present-issues';

const MAX_NOTE = 1_000_000;

/** Grape's `requires :body`, then Note's validations. */
function noteBody(ctx: Ctx): string {
  const body = ctx.input.required('body');
  if (body.trim() === '') throw new ApiError(400, { message: { note: ["can't be blank"] } });
  if (body.length > MAX_NOTE) throw new ApiError(400, { message: { note: [`is too long (maximum is ${MAX_NOTE} characters)`] } });
  return body;
}

/** created_at is honoured for project Owners (and admins) only; others get the current time. */
function createdAt(ctx: Ctx, p: Project): string {
  const given = ctx.input.str('created_at');
  if (given !== undefined && Number.isNaN(Date.parse(given))) throw paramError('created_at is invalid');
  return given !== undefined && ctx.model.accessLevel(p, ctx.user.id) >= ACCESS.owner ? new Date(given).toISOString() : ctx.model.now();
}

/** Locked discussions take comments from Reporters and above only. */
function requireCanComment(ctx: Ctx, p: Project, issue: Issue): void {
  if (issue.discussion_locked && ctx.model.accessLevel(p, ctx.user.id) < ACCESS.reporter) throw forbidden();
}

function newNote(ctx: Ctx, p: Project, type: NoteableType, iid: number, discussionId: string, threaded: boolean): Note {
  const body = noteBody(ctx);
  const when = createdAt(ctx, p);
  return {
    id: ctx.model.tracker.nextId.note++,
    discussion_id: discussionId,
    project_id: p.id,
    noteable_type: type,
    noteable_iid: iid,
    type: threaded ? 'DiscussionNote' : null,
    body,
    author_id: ctx.user.id,
    created_at: when,
    updated_at: when,
    system: false,
    internal: ctx.input.bool('internal') === true,
    resolved: false,
    resolved_by_id: null,
    resolved_at: null,
  };
}

/** A new top-level note on any noteable: a one-note individual discussion. */
function addTopLevel(ctx: Ctx, p: Project, type: NoteableType, iid: number): Response {
  const t = ctx.model.tracker;
  const id = t.newDiscussionId();
  const note = newNote(ctx, p, type, iid, id, false);
  t.discussions.push({ id, project_id: p.id, noteable_type: type, noteable_iid: iid, individual_note: true, notes: [note] });
  return json(presentNote(ctx.model, note), 201);
}

function loadDiscussion(ctx: Ctx, p: Project, issue: Issue): Discussion {
  const found = ctx.model.tracker.discussionsOf(p.id, 'Issue', issue.iid).find((d) => d.id === ctx.params.discussion_id);
  if (!found) throw notFound('Discussion');
  return found;
}

function editBody(ctx: Ctx, p: Project, note: Note): Response {
  requireNoteAdmin(ctx, p, note);
  note.body = noteBody(ctx);
  note.updated_at = ctx.model.now();
  return json(presentNote(ctx.model, note));
}

export const noteRoutes: Route[] = [
  route('POST', '/projects/:id/issues/:issue_iid/notes', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    requireCanComment(ctx, p, issue);
    return addTopLevel(ctx, p, 'Issue', issue.iid);
  }),

  route('POST', '/projects/:id/merge_requests/:merge_request_iid/notes', (ctx) => {
    const p = loadProject(ctx);
    const iid = intParam(ctx, 'merge_request_iid');
    if (!p.mergeRequests.some((mr) => mr.iid === iid)) throw notFound('Merge Request');
    return addTopLevel(ctx, p, 'MergeRequest', iid);
  }),

  route('PUT', '/projects/:id/issues/:issue_iid/notes/:note_id', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    return editBody(ctx, p, loadIssueNote(ctx, p, issue));
  }),

  route('GET', '/projects/:id/issues/:issue_iid/discussions', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    return listResponse(ctx, ctx.model.tracker.discussionsOf(p.id, 'Issue', issue.iid), (d) => presentDiscussion(ctx.model, d));
  }),

  route('GET', '/projects/:id/issues/:issue_iid/discussions/:discussion_id', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    return json(presentDiscussion(ctx.model, loadDiscussion(ctx, p, issue)));
  }),

  // Replying to a stand-alone comment turns it into a thread.
  route('POST', '/projects/:id/issues/:issue_iid/discussions/:discussion_id/notes', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    const discussion = loadDiscussion(ctx, p, issue);
    requireCanComment(ctx, p, issue);
    const note = newNote(ctx, p, 'Issue', issue.iid, discussion.id, true);
    if (discussion.individual_note) {
      discussion.individual_note = false;
      for (const n of discussion.notes) n.type = 'DiscussionNote';
    }
    discussion.notes.push(note);
    return json(presentNote(ctx.model, note), 201);
  }),

  // Like GitLab, the note is looked up among the issue's notes; the discussion id is only checked to exist.
  route('PUT', '/projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    const hasBody = ctx.input.has('body');
    const hasResolved = ctx.input.has('resolved');
    if (hasBody && hasResolved) throw paramError('body, resolved are mutually exclusive');
    if (!hasBody && !hasResolved) throw paramError('body, resolved are missing, exactly one parameter must be provided');
    loadDiscussion(ctx, p, issue);
    const note = loadIssueNote(ctx, p, issue);
    if (hasBody) return editBody(ctx, p, note);
    const resolved = ctx.input.bool('resolved')!;
    if (note.author_id !== ctx.user.id && ctx.model.accessLevel(p, ctx.user.id) < ACCESS.reporter) throw forbidden();
    // lib/api/helpers/notes_helpers.rb resolve_note: one note; before 16.3 no issue note is resolvable.
    if (!resolvable(ctx, note)) throw badRequest('400 Bad request - Note is not resolvable');
    setResolved(ctx, note, resolved);
    return json(presentNote(ctx.model, note));
  }),

  // The whole thread (lib/api/discussions.rb, issues from 16.3): every resolvable note of it.
  // Before 16.3 the route does not exist for issues, so Grape answers its plain 404.
  route('PUT', '/projects/:id/issues/:issue_iid/discussions/:discussion_id', (ctx) => {
    if (!issueThreadsResolvable(ctx.model)) throw new ApiError(404, { error: '404 Not Found' });
    const { p, issue } = loadIssue(ctx);
    if (!ctx.input.has('resolved')) throw paramError('resolved is missing');
    const resolved = ctx.input.bool('resolved')!;
    const discussion = loadDiscussion(ctx, p, issue);
    // Discussion#can_resolve?: a resolvable thread, and Reporters and above or the thread's author.
    if (!discussion.notes.some((n) => resolvable(ctx, n))) throw forbidden();
    if (discussion.notes[0].author_id !== ctx.user.id && ctx.model.accessLevel(p, ctx.user.id) < ACCESS.reporter) throw forbidden();
    for (const note of discussion.notes) if (resolvable(ctx, note)) setResolved(ctx, note, resolved);
    return json(presentDiscussion(ctx.model, discussion));
  }),
];

/** A reply in a thread, not a system note, on a release where issue threads resolve at all. */
function resolvable(ctx: Ctx, note: Note): boolean {
  return note.type === 'DiscussionNote' && !note.system && issueThreadsResolvable(ctx.model);
}

function setResolved(ctx: Ctx, note: Note, resolved: boolean): void {
  Object.assign(
    note,
    resolved ? { resolved: true, resolved_by_id: ctx.user.id, resolved_at: ctx.model.now() } : { resolved: false, resolved_by_id: null, resolved_at: null },
  );
}
