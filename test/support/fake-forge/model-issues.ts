// Issue activity of the fake forge: notes and discussions, issue links, award emoji and to-dos.
// Kept apart from model.ts so the issue tools' data has one home; ForgeModel holds one IssueTracker.
import { createHash } from 'node:crypto';
import type { Issue } from './model';

export type NoteableType = 'Issue' | 'MergeRequest';

export interface Note {
  /** Global id, like GitLab's note ids. */
  id: number;
  discussion_id: string;
  project_id: number;
  noteable_type: NoteableType;
  noteable_iid: number;
  /** null for a stand-alone comment, 'DiscussionNote' inside a thread. */
  type: null | 'DiscussionNote';
  body: string;
  author_id: number;
  created_at: string;
  updated_at: string;
  system: boolean;
  internal: boolean;
  resolved: boolean;
  resolved_by_id: number | null;
  resolved_at: string | null;
}

export interface Discussion {
  /** 40 hex characters, as GitLab's. */
  id: string;
  project_id: number;
  noteable_type: NoteableType;
  noteable_iid: number;
  /** A stand-alone comment shown as a one-note discussion; false once it is a thread. */
  individual_note: boolean;
  notes: Note[];
}

export interface IssueRef {
  project_id: number;
  iid: number;
}

export interface IssueLink {
  id: number;
  source: IssueRef;
  target: IssueRef;
  /** GitLab stores is_blocked_by as blocks with source and target swapped. */
  link_type: 'relates_to' | 'blocks';
  created_at: string;
  updated_at: string;
}

export interface Award {
  id: number;
  name: string;
  user_id: number;
  awardable_type: 'Issue' | 'Note';
  /** Global id of the issue or the note. */
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

// GitLab app/models/todo.rb ACTION_NAMES.
export const TODO_ACTIONS = [
  'assigned',
  'review_requested',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
  'merge_train_removed',
  'member_access_requested',
  'review_submitted',
  'okr_checkin_requested',
  'added_approver',
  'ssh_key_expired',
  'ssh_key_expiring_soon',
] as const;
export const TODO_TYPES = [
  'Issue',
  'MergeRequest',
  'Commit',
  'Epic',
  'DesignManagement::Design',
  'AlertManagement::Alert',
  'Project',
  'Namespace',
  'Vulnerability',
  'WikiPage::Meta',
] as const;

export interface Todo {
  id: number;
  user_id: number;
  author_id: number;
  project_id: number;
  action_name: (typeof TODO_ACTIONS)[number];
  /** Only issue targets are modelled. */
  target_type: 'Issue';
  target_iid: number;
  body: string;
  state: 'pending' | 'done';
  created_at: string;
  updated_at: string;
}

/** Names GitLab's emoji validator accepts (a small subset of its list). */
export const EMOJI_NAMES = new Set([
  'thumbsup',
  'thumbsdown',
  'rocket',
  'tada',
  'heart',
  'eyes',
  'smile',
  'laughing',
  'confused',
  'hourglass',
  'white_check_mark',
  'x',
  '100',
  'fire',
  'star',
  'bug',
  'clap',
  'pray',
  'thinking',
]);

export class IssueTracker {
  discussions: Discussion[] = [];
  links: IssueLink[] = [];
  awards: Award[] = [];
  todos: Todo[] = [];
  nextId = { note: 1, link: 1, award: 1, todo: 1, discussion: 1 };
  /**
   * Test hook, run after the fake serves GET of one issue: lets a test change the issue between
   * a tool's read and its re-read (the lost-update check of update_issue_description_patch).
   */
  afterIssueRead: ((issue: Issue) => void) | undefined = undefined;

  discussionsOf(projectId: number, type: NoteableType, iid: number): Discussion[] {
    return this.discussions.filter((d) => d.project_id === projectId && d.noteable_type === type && d.noteable_iid === iid);
  }

  notesOf(projectId: number, type: NoteableType, iid: number): Note[] {
    return this.discussionsOf(projectId, type, iid).flatMap((d) => d.notes);
  }

  /** A new 40-hex discussion id, deterministic within a run. */
  newDiscussionId(): string {
    const n = this.nextId.discussion++;
    return createHash('sha1').update(`fake-forge:discussion:${n}`).digest('hex');
  }

  /** Links touching the issue, oldest first. */
  linksOf(ref: IssueRef): IssueLink[] {
    const same = (a: IssueRef) => a.project_id === ref.project_id && a.iid === ref.iid;
    return this.links.filter((l) => same(l.source) || same(l.target)).sort((a, b) => a.id - b.id);
  }

  awardsOf(type: Award['awardable_type'], id: number): Award[] {
    return this.awards.filter((a) => a.awardable_type === type && a.awardable_id === id);
  }

  /** Removes everything hanging off a deleted issue. */
  forgetIssue(issue: Issue): void {
    const ref = { project_id: issue.project_id, iid: issue.iid };
    const noteIds = new Set(this.notesOf(issue.project_id, 'Issue', issue.iid).map((n) => n.id));
    this.discussions = this.discussions.filter((d) => !(d.project_id === ref.project_id && d.noteable_type === 'Issue' && d.noteable_iid === ref.iid));
    const touching = new Set(this.linksOf(ref));
    this.links = this.links.filter((l) => !touching.has(l));
    this.awards = this.awards.filter(
      (a) => !(a.awardable_type === 'Issue' && a.awardable_id === issue.id) && !(a.awardable_type === 'Note' && noteIds.has(a.awardable_id)),
    );
    this.todos = this.todos.filter((t) => !(t.project_id === ref.project_id && t.target_iid === ref.iid));
  }
}
