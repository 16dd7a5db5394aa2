// Reviewing a merge request: diffs and versions (merge_request_diffs.rb, merge_requests.rb), notes and
// threads with diff positions (notes.rb, discussions.rb: a DiffNote whose position does not resolve to
// a line of a version's diff is 400 "Note {:line_code=>…}"), approvals (merge_request_approvals.rb)
// and draft notes (draft_notes.rb).
import type { DiffFile, ForgeModel, MergeRequest, Project } from '../model';
import { blobBytes, snapshotAt } from '../model-repository';
import type { Discussion, Note } from '../model-issues';
import type { DraftNote, MrState, MrVersion, Position } from '../model-merge-requests';
import { ACCESS, ApiError, forbidden, json, notFound, paramError, route, unauthorized, type Ctx, type Route } from './http';
import { intParam } from './issue-access';
import { loadMergeRequest } from './merge-request-access';
import { listResponse } from './paginate';
import {
  presentApprovals,
  presentDiff,
  presentDraftNote,
  presentMrDiscussion,
  presentMrNote,
  presentVersion,
  presentVersionFull,
} from './present-merge-requests';

const MAX_NOTE = 1_000_000;
const LINE_CODE_ERROR = '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';

function noteBody(ctx: Ctx, name = 'body'): string {
  const body = ctx.input.required(name);
  if (body.trim() === '') throw new ApiError(400, { message: { note: ["can't be blank"] } });
  if (body.length > MAX_NOTE) throw new ApiError(400, { message: { note: [`is too long (maximum is ${MAX_NOTE} characters)`] } });
  return body;
}

/** Grape's `optional :position, type: Hash do requires … end`. */
function positionParam(ctx: Ctx, types: readonly string[]): Position | undefined {
  if (ctx.input.raw('position') === undefined) return undefined;
  for (const name of ['base_sha', 'start_sha', 'head_sha', 'position_type']) {
    if (ctx.input.str(`position.${name}`) === undefined) throw paramError(`position[${name}] is missing`);
  }
  const type = ctx.input.oneOf('position.position_type', types) as Position['position_type'];
  return {
    base_sha: ctx.input.str('position.base_sha')!,
    start_sha: ctx.input.str('position.start_sha')!,
    head_sha: ctx.input.str('position.head_sha')!,
    position_type: type,
    old_path: ctx.input.str('position.old_path') ?? null,
    new_path: ctx.input.str('position.new_path') ?? null,
    old_line: ctx.input.int('position.old_line') ?? null,
    new_line: ctx.input.int('position.new_line') ?? null,
  };
}

/** The diff lines of a file: each with its old and new line number (null on the side it is absent from). */
export function diffLines(diff: string): { old: number | null; new: number | null }[] {
  const lines: { old: number | null; new: number | null }[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      continue;
    }
    if (line.startsWith('+')) lines.push({ old: null, new: newNo++ });
    else if (line.startsWith('-')) lines.push({ old: oldNo++, new: null });
    else if (line.startsWith(' ')) lines.push({ old: oldNo++, new: newNo++ });
  }
  return lines;
}

/**
 * The new line number of an unchanged old line outside every hunk of `diff` (null when it is inside
 * one): the hunks before it shift it by what they added and removed.
 */
export function unfoldedNewLine(diff: string, oldLine: number): number | null {
  let offset = 0;
  for (const text of diff.split('\n')) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
    if (!h) continue;
    const [a, b, c, d] = [Number(h[1]), h[2] === undefined ? 1 : Number(h[2]), Number(h[3]), h[4] === undefined ? 1 : Number(h[4])];
    // An empty side ("-5,0") names the line after which the other side's lines go.
    const oldStart = b === 0 ? a + 1 : a;
    const newStart = d === 0 ? c + 1 : c;
    if (oldLine < oldStart) return oldLine + newStart - oldStart;
    if (oldLine < oldStart + b) return null;
    offset = newStart + d - (oldStart + b);
  }
  return oldLine + offset;
}

/**
 * GitLab unfolds the hidden lines of a diff for a position on an unchanged line outside its hunks
 * (lib/gitlab/diff/lines_unfolder.rb, unfold_required?): a text position with both old_line and
 * new_line, on a file neither added nor deleted whose diff is not empty, and an old_line within the
 * old file; the unfolded line must then carry both numbers (lib/gitlab/diff/position.rb: line_code).
 */
function unfolds(m: ForgeModel, p: Project, version: MrVersion, file: DiffFile, pos: Position): boolean {
  if (pos.old_line === null || pos.new_line === null || file.new_file || file.deleted_file || !file.diff) return false;
  const blob = snapshotAt(m, p, version.base_commit_sha).get(file.old_path);
  if (
    !blob ||
    pos.old_line >
      new TextDecoder()
        .decode(blobBytes(blob))
        .split('\n')
        .filter((_, i, all) => i < all.length - 1 || all[i] !== '').length
  )
    return false;
  return unfoldedNewLine(file.diff, pos.old_line) === pos.new_line;
}

/** DiffNote's line_code validation: the position must name a line of the diff of one of the MR's versions. */
function resolvesToLine(m: ForgeModel, p: Project, st: MrState, pos: Position): boolean {
  const version = st.versions.find((v) => v.base_commit_sha === pos.base_sha && v.start_commit_sha === pos.start_sha && v.head_commit_sha === pos.head_sha);
  if (!version || (pos.old_path === null && pos.new_path === null)) return false;
  const file = version.diffs.find((d) => (pos.new_path === null || d.new_path === pos.new_path) && (pos.old_path === null || d.old_path === pos.old_path));
  if (!file) return false;
  if (pos.position_type === 'file') return true;
  if (pos.old_line === null && pos.new_line === null) return false;
  return diffLines(file.diff).some((l) => l.old === pos.old_line && l.new === pos.new_line) || unfolds(m, p, version, file, pos);
}

function checkPosition(m: ForgeModel, p: Project, st: MrState, pos: Position): void {
  if (!resolvesToLine(m, p, st, pos)) throw new ApiError(400, { message: LINE_CODE_ERROR });
}

function requireCanComment(ctx: Ctx, p: Project, st: MrState): void {
  if (st.discussion_locked && ctx.model.accessLevel(p, ctx.user.id) < ACCESS.reporter) throw forbidden();
  if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.guest && p.visibility === 'private') throw forbidden();
}

function newNote(ctx: Ctx, p: Project, mr: MergeRequest, discussionId: string, threaded: boolean, body: string): Note {
  const now = ctx.model.now();
  return {
    id: ctx.model.tracker.nextId.note++,
    discussion_id: discussionId,
    project_id: p.id,
    noteable_type: 'MergeRequest',
    noteable_iid: mr.iid,
    type: threaded ? 'DiscussionNote' : null,
    body,
    author_id: ctx.user.id,
    created_at: now,
    updated_at: now,
    system: false,
    internal: false,
    resolved: false,
    resolved_by_id: null,
    resolved_at: null,
  };
}

function threadsOf(ctx: Ctx, mr: MergeRequest): Discussion[] {
  return ctx.model.tracker.discussionsOf(mr.project_id, 'MergeRequest', mr.iid);
}

function loadThread(ctx: Ctx, mr: MergeRequest): Discussion {
  const found = threadsOf(ctx, mr).find((d) => d.id === ctx.params.discussion_id);
  if (!found) throw notFound('Discussion');
  return found;
}

/** A new thread: a DiffNote when positioned, else a DiscussionNote. */
function startThread(ctx: Ctx, p: Project, mr: MergeRequest, body: string, position: Position | null): Discussion {
  const t = ctx.model.tracker;
  const id = t.newDiscussionId();
  const note = newNote(ctx, p, mr, id, true, body);
  const thread: Discussion = { id, project_id: p.id, noteable_type: 'MergeRequest', noteable_iid: mr.iid, individual_note: false, notes: [note] };
  t.discussions.push(thread);
  if (position) ctx.model.reviews.positions.set(note.id, position);
  return thread;
}

/** A thread is resolved when it has resolvable notes and every one is resolved (ResolvableDiscussion#resolved?). */
function isResolved(thread: Discussion): boolean {
  const resolvable = thread.notes.filter((n) => n.type === 'DiscussionNote' && !n.system);
  return resolvable.length > 0 && resolvable.every((n) => n.resolved);
}

/**
 * A reply in a resolved thread is created resolved, by its author, so the thread stays resolved
 * (app/services/notes/build_service.rb: `note.resolve_without_save(current_user) if discussion&.resolved?`).
 */
function reply(ctx: Ctx, p: Project, mr: MergeRequest, thread: Discussion, body: string): Note {
  const wasResolved = isResolved(thread);
  const note = newNote(ctx, p, mr, thread.id, true, body);
  if (wasResolved) Object.assign(note, { resolved: true, resolved_by_id: ctx.user.id, resolved_at: ctx.model.now() });
  if (thread.individual_note) {
    thread.individual_note = false;
    for (const n of thread.notes) n.type = 'DiscussionNote';
  }
  const position = ctx.model.reviews.positions.get(thread.notes[0].id);
  if (position) ctx.model.reviews.positions.set(note.id, position);
  thread.notes.push(note);
  return note;
}

function setResolved(ctx: Ctx, thread: Discussion, resolved: boolean): void {
  for (const n of thread.notes) {
    if (n.type !== 'DiscussionNote' || n.system) continue;
    Object.assign(
      n,
      resolved ? { resolved: true, resolved_by_id: ctx.user.id, resolved_at: ctx.model.now() } : { resolved: false, resolved_by_id: null, resolved_at: null },
    );
  }
}

/** Who may resolve a thread: Developers and above, the merge request's author, or the thread's author. */
function canResolve(ctx: Ctx, p: Project, mr: MergeRequest, thread: Discussion): boolean {
  return ctx.model.accessLevel(p, ctx.user.id) >= ACCESS.developer || mr.author_id === ctx.user.id || thread.notes[0].author_id === ctx.user.id;
}

/** approve_merge_request: Developers and above (GitLab's policy for project members who may update). */
function canApprove(ctx: Ctx, p: Project, mr: MergeRequest, st: MrState): boolean {
  const m = ctx.model;
  if (m.accessLevel(p, ctx.user.id) < ACCESS.developer) return false;
  if (st.approvals.some((a) => a.user_id === ctx.user.id)) return false;
  // Paid editions prevent approval by the author unless the project allows it.
  return !(m.premium && mr.author_id === ctx.user.id && !m.reviews.settingsOf(p.id).merge_requests_author_approval);
}

function checkSha(ctx: Ctx, st: MrState): void {
  const sha = ctx.input.str('sha');
  const head = st.versions[0]?.head_commit_sha;
  if (sha !== undefined && sha !== head) throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${head}` });
}

function publish(ctx: Ctx, p: Project, mr: MergeRequest, st: MrState, draft: DraftNote): void {
  if (draft.discussion_id) {
    const thread = threadsOf(ctx, mr).find((d) => d.id === draft.discussion_id);
    if (!thread) throw new ApiError(500, { message: '500 Internal Server Error' });
    reply(ctx, p, mr, thread, draft.note);
    // DraftNotes::PublishService#set_discussion_resolve_status (app/services/draft_notes/publish_service.rb):
    // a published reply resolves its thread when it says so and the author may; otherwise it re-opens it.
    setResolved(ctx, thread, draft.resolve_discussion && canResolve(ctx, p, mr, thread));
    return;
  }
  if (draft.position) {
    if (!resolvesToLine(ctx.model, p, st, draft.position)) throw new ApiError(500, { message: '500 Internal Server Error' });
    startThread(ctx, p, mr, draft.note, draft.position);
    return;
  }
  const t = ctx.model.tracker;
  const id = t.newDiscussionId();
  t.discussions.push({
    id,
    project_id: p.id,
    noteable_type: 'MergeRequest',
    noteable_iid: mr.iid,
    individual_note: true,
    notes: [newNote(ctx, p, mr, id, false, draft.note)],
  });
}

const MR = '/projects/:id/merge_requests/:merge_request_iid';

export const mergeRequestReviewRoutes: Route[] = [
  route('GET', `${MR}/diffs`, (ctx) => {
    const { st } = loadMergeRequest(ctx);
    return listResponse(ctx, st.versions[0]?.diffs ?? [], presentDiff);
  }),

  route('GET', `${MR}/versions`, (ctx) => {
    const { mr, st } = loadMergeRequest(ctx);
    return listResponse(ctx, st.versions, (v) => presentVersion(mr, v));
  }),

  route('GET', `${MR}/versions/:version_id`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    const id = intParam(ctx, 'version_id');
    const version = st.versions.find((v) => v.id === id);
    if (!version) throw notFound('MergeRequestDiff');
    return json(presentVersionFull(ctx.model, p, mr, version));
  }),

  route('GET', `${MR}/notes`, (ctx) => {
    const { mr } = loadMergeRequest(ctx);
    const orderBy = ctx.input.oneOf('order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
    const asc = (ctx.input.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc') === 'asc';
    const notes = threadsOf(ctx, mr)
      .flatMap((d) => d.notes)
      .sort((a, b) => (asc ? 1 : -1) * (Date.parse(a[orderBy]) - Date.parse(b[orderBy])) || (asc ? a.id - b.id : b.id - a.id));
    return listResponse(ctx, notes, (n) => presentMrNote(ctx.model, n));
  }),

  route('GET', `${MR}/discussions`, (ctx) => {
    const { mr } = loadMergeRequest(ctx);
    return listResponse(ctx, threadsOf(ctx, mr), (d) => presentMrDiscussion(ctx.model, d));
  }),

  route('GET', `${MR}/discussions/:discussion_id`, (ctx) => {
    const { mr } = loadMergeRequest(ctx);
    return json(presentMrDiscussion(ctx.model, loadThread(ctx, mr)));
  }),

  route('POST', `${MR}/discussions`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    const body = noteBody(ctx);
    const position = positionParam(ctx, ['text', 'image', 'file']);
    requireCanComment(ctx, p, st);
    if (position) checkPosition(ctx.model, p, st, position);
    return json(presentMrDiscussion(ctx.model, startThread(ctx, p, mr, body, position ?? null)), 201);
  }),

  route('POST', `${MR}/discussions/:discussion_id/notes`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    const thread = loadThread(ctx, mr);
    const body = noteBody(ctx);
    requireCanComment(ctx, p, st);
    return json(presentMrNote(ctx.model, reply(ctx, p, mr, thread, body)), 201);
  }),

  // Resolving a thread: Developers and above, the MR's author, or the thread's author.
  route('PUT', `${MR}/discussions/:discussion_id`, (ctx) => {
    const { p, mr } = loadMergeRequest(ctx);
    const resolved = ctx.input.bool('resolved');
    if (resolved === undefined) throw paramError('resolved is missing');
    // resolve_discussion (lib/api/helpers/notes_helpers.rb) calls can_resolve? on what
    // noteable.find_discussion returns, nil for an unknown id: a NoMethodError, so a 500, not a 404.
    const thread = threadsOf(ctx, mr).find((d) => d.id === ctx.params.discussion_id);
    if (!thread) throw new ApiError(500, { message: '500 Internal Server Error' });
    const m = ctx.model;
    if (!canResolve(ctx, p, mr, thread)) throw forbidden();
    // A thread that cannot be resolved (a stand-alone comment) is refused like a caller who may not:
    // forbidden! unless discussion.can_resolve?(current_user) (resolve_discussion, lib/api/helpers/notes_helpers.rb).
    if (thread.individual_note || !thread.notes.some((n) => n.type === 'DiscussionNote' && !n.system)) throw forbidden();
    setResolved(ctx, thread, resolved);
    return json(presentMrDiscussion(m, thread));
  }),

  route('GET', `${MR}/approvals`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    return json(presentApprovals(ctx.model, mr, ctx.user.id, canApprove(ctx, p, mr, st)));
  }),

  // find_merge_request_with_access(…, :approve_merge_request) is 403 without the right; the service
  // refusing (already approved, the author on paid editions, or on a paid edition a project that
  // requires the approver's password and none or a wrong one in `approval_password`) is 401
  // (ee/app/services/ee/merge_requests/approval_service.rb). The fake knows no passwords: every
  // approval there is refused, as one without the password is.
  route('POST', `${MR}/approve`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.developer) throw forbidden();
    checkSha(ctx, st);
    if (!canApprove(ctx, p, mr, st)) throw unauthorized();
    if (ctx.model.premium && ctx.model.reviews.settingsOf(p.id).require_password_to_approve) throw unauthorized();
    st.approvals.push({ user_id: ctx.user.id, approved_at: ctx.model.now() });
    return json(presentApprovals(ctx.model, mr, ctx.user.id, false), 201);
  }),

  route('POST', `${MR}/unapprove`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.developer) throw forbidden();
    const i = st.approvals.findIndex((a) => a.user_id === ctx.user.id);
    if (i < 0) throw notFound();
    st.approvals.splice(i, 1);
    return json(presentApprovals(ctx.model, mr, ctx.user.id, canApprove(ctx, p, mr, st)), 201);
  }),

  route('GET', `${MR}/draft_notes`, (ctx) => {
    const { p, mr } = loadMergeRequest(ctx);
    return json(ctx.model.reviews.draftsOf(p.id, mr.iid, ctx.user.id).map((d) => presentDraftNote(ctx.model, d)));
  }),

  route('POST', `${MR}/draft_notes`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    const note = noteBody(ctx, 'note');
    const position = positionParam(ctx, ['text', 'image', 'file']) ?? null;
    const discussionId = ctx.input.str('in_reply_to_discussion_id') ?? null;
    if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.guest && p.visibility === 'private') throw forbidden();
    requireCanComment(ctx, p, st);
    if (discussionId !== null && !threadsOf(ctx, mr).some((d) => d.id === discussionId)) throw notFound('Discussion');
    const draft: DraftNote = {
      id: ctx.model.reviews.nextId.draft++,
      project_id: p.id,
      merge_request_iid: mr.iid,
      author_id: ctx.user.id,
      note,
      discussion_id: discussionId,
      resolve_discussion: ctx.input.bool('resolve_discussion') ?? false,
      position,
      commit_id: ctx.input.str('commit_id') ?? null,
    };
    ctx.model.reviews.drafts.push(draft);
    return json(presentDraftNote(ctx.model, draft), 201);
  }),

  route('DELETE', `${MR}/draft_notes/:draft_note_id`, (ctx) => {
    const { p, mr } = loadMergeRequest(ctx);
    const id = intParam(ctx, 'draft_note_id');
    const r = ctx.model.reviews;
    const draft = r.draftsOf(p.id, mr.iid, ctx.user.id).find((d) => d.id === id);
    if (!draft) throw notFound('Draft Note');
    r.drafts = r.drafts.filter((d) => d !== draft);
    return new Response(null, { status: 204 });
  }),

  route('POST', `${MR}/draft_notes/bulk_publish`, (ctx) => {
    const { p, mr, st } = loadMergeRequest(ctx);
    const r = ctx.model.reviews;
    const mine = r.draftsOf(p.id, mr.iid, ctx.user.id);
    // DraftNotes::PublishService: a draft that cannot become a note fails the whole call (500).
    for (const draft of mine) {
      publish(ctx, p, mr, st, draft);
      r.drafts = r.drafts.filter((d) => d !== draft);
    }
    return new Response(null, { status: 204 });
  }),
];
