// Who may see and change an issue, and the lookups every issue route starts with. GitLab hides
// what a user cannot read behind 404s; confidential issues are visible to Reporters and above,
// their author and their assignees.
import type { ForgeModel, Issue, Project } from '../model';
import type { Note } from '../model-issues';
import { ACCESS, forbidden, loadProject, notFound, paramError, type Ctx } from './http';

export function canReadIssue(m: ForgeModel, p: Project, i: Issue, userId: number): boolean {
  if (!m.canSee(p, userId)) return false;
  if (!i.confidential) return true;
  return m.accessLevel(p, userId) >= ACCESS.reporter || i.author_id === userId || i.assignee_ids.includes(userId);
}

/** update_issue: Reporter and above, the author and the assignees. */
export function canEditIssue(m: ForgeModel, p: Project, i: Issue, userId: number): boolean {
  return m.accessLevel(p, userId) >= ACCESS.reporter || i.author_id === userId || i.assignee_ids.includes(userId);
}

/** Grape's Integer coercion of a path id: anything else is 400 "<name> is invalid". */
export function intParam(ctx: Ctx, name: string): number {
  const raw = ctx.params[name];
  if (!/^\d+$/.test(raw)) throw paramError(`${name} is invalid`);
  return Number(raw);
}

/** find_project_issue: the project, then the issue by iid; both 404 when not readable. */
export function loadIssue(ctx: Ctx, iidParam = 'issue_iid'): { p: Project; issue: Issue } {
  const p = loadProject(ctx);
  const iid = intParam(ctx, iidParam);
  const issue = p.issues.get(iid);
  if (!issue || !canReadIssue(ctx.model, p, issue, ctx.user.id)) throw notFound('Issue');
  return { p, issue };
}

/** The issue's note by global id (ActiveRecord's bare 404 when it belongs elsewhere). */
export function loadIssueNote(ctx: Ctx, p: Project, issue: Issue): Note {
  const id = intParam(ctx, 'note_id');
  const note = ctx.model.tracker.notesOf(p.id, 'Issue', issue.iid).find((n) => n.id === id);
  if (!note) throw notFound();
  return note;
}

/** admin_note: the note's author, or a Maintainer. */
export function requireNoteAdmin(ctx: Ctx, p: Project, note: Note): void {
  if (note.author_id !== ctx.user.id && ctx.model.accessLevel(p, ctx.user.id) < ACCESS.maintainer) throw forbidden();
}

export function touch(ctx: Ctx, issue: Issue): void {
  issue.updated_at = ctx.model.now();
}
