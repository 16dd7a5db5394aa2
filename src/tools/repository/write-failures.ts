// GitLab answers every refused repository write with 400 and a sentence (lib/api/files.rb,
// lib/api/commits.rb: render_api_error!(message, 400)); some of those sentences are conflicts with
// the repository's current state, which D17 gives their own kind so an agent re-reads instead of
// fixing its arguments. The forge's words are kept; what to do next is added.
import { ToolError } from '../errors';

const RULES: readonly { match: RegExp; kind: ToolError['kind']; advice: string }[] = [
  // Files::UpdateService and Files::MultiService: last_commit_id is no longer the file's last commit.
  {
    match: /has changed since you started editing it/i,
    kind: 'conflict',
    advice: 'the file changed after you read it: read it again (get_file_contents) and redo the change',
  },
  // Gitaly's index errors.
  { match: /already exists/i, kind: 'conflict', advice: 'a file (or branch) of that name is already there' },
  { match: /doesn't exist/i, kind: 'not_found', advice: 'no file of that name on the branch (deleted or moved since you read it?)' },
  // Commits::CreateService#validate_on_branch!
  {
    match: /only create or edit files when you are on a branch/i,
    kind: 'not_found',
    advice: 'the branch does not exist: give start_branch to create it from another branch',
  },
  { match: /not allowed to push into this branch/i, kind: 'permission', advice: 'the branch is protected or your role cannot push' },
];

/** The ToolError to report for a failed write: a 400 re-kinded when GitLab's sentence says what happened. */
export function writeFailure(error: unknown): unknown {
  if (!(error instanceof ToolError) || error.status !== 400) return error;
  const rule = RULES.find((r) => r.match.test(error.message));
  return rule ? new ToolError(rule.kind, `${error.message} (${rule.advice})`, error.status) : error;
}
