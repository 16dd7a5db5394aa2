// GitLab quick actions (D36): a line starting with `/close`, `/assign`, … in a description or a
// comment is run by GitLab as a command when the text is saved. Text an agent writes may carry
// one that someone else planted (an issue body it quotes), so writes refuse them unless
// FORGE_ALLOW_QUICK_ACTIONS=true. The names are GitLab's documented list (user/project/quick_actions,
// every command and alias for issues, merge requests, epics, work items and commits). GitLab
// matches the name case-insensitively at the start of a line, followed by a space or the line's
// end, and skips fenced code blocks; this check does the same (it does not skip inline code or
// HTML blocks as GitLab does, so it refuses a little more than GitLab would run, never less).

export const QUICK_ACTIONS: readonly string[] = [
  'add_child', 'add_contacts', 'add_email', 'approve', 'assign', 'assign_reviewer', 'award', 'blocked_by', 'blocks',
  'cc', 'checkin_reminder', 'child_epic', 'clear_health_status', 'clear_weight', 'clone', 'close', 'confidential',
  'convert_to_ticket', 'copy_metadata', 'create_merge_request', 'done', 'draft', 'due', 'duplicate', 'epic', 'estimate',
  'estimate_time', 'health_status', 'invite_email', 'iteration', 'label', 'labels', 'link', 'lock', 'merge',
  'milestone', 'move', 'page', 'parent_epic', 'promote', 'promote_to', 'promote_to_incident', 'publish', 'react', 'ready',
  'reassign', 'reassign_reviewer', 'rebase', 'relabel', 'relate', 'remove_child', 'remove_child_epic', 'remove_contacts',
  'remove_due_date', 'remove_email', 'remove_epic', 'remove_estimate', 'remove_iteration', 'remove_label', 'remove_milestone',
  'remove_parent', 'remove_parent_epic', 'remove_reviewer', 'remove_time_estimate', 'remove_time_spent', 'remove_zoom',
  'reopen', 'request_changes', 'request_review', 'reviewer', 'set_parent', 'severity', 'shrug', 'spend', 'spend_time',
  'status', 'submit_review', 'subscribe', 'tableflip', 'tag', 'target_branch', 'timeline', 'title', 'todo', 'type',
  'unapprove', 'unassign', 'unassign_reviewer', 'unlabel', 'unlink', 'unlock', 'unsubscribe', 'weight', 'zoom',
];

const NAMES = new Set(QUICK_ACTIONS);
/** `/name` then a space or the end of the line: GitLab's own shape of a command line. */
const COMMAND_LINE = /^\/([A-Za-z_]+)(?:[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})/;
/** The most of a refused line an error shows back. */
const SHOWN = 80;

export interface QuickActionLine {
  /** 1-based line number. */
  line: number;
  /** The line, cut to a readable length. */
  text: string;
}

/** The first line of `text` that GitLab would run as a quick action, if any. */
export function findQuickAction(text: string): QuickActionLine | undefined {
  if (!text.includes('/')) return undefined;
  const lines = text.split('\n');
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const opening = FENCE.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1][0];
      else if (opening[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined || line[0] !== '/') continue;
    const command = COMMAND_LINE.exec(line);
    if (command && NAMES.has(command[1].toLowerCase())) {
      return { line: i + 1, text: line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line };
    }
  }
  return undefined;
}

/** The refusal of a quick action in a parameter (D36), naming the parameter and the line. */
export function quickActionProblem(found: QuickActionLine): string {
  return `line ${found.line} "${found.text}" is a GitLab quick action, which GitLab would run as a command; ` +
    'indent the line by a space or put it in a code span to keep it as text';
}
