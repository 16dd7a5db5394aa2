// Parameter schemas shared by the merge request tools, so their wording and limits are the same everywhere.
import { Type } from '@sinclair/typebox';
import { LIMITS, numericId, positiveInteger } from '../params';

export const mergeRequestIid = () => numericId(undefined, '12 for !12 (iid)');

/** A commit SHA inside a body object (top-level `sha` parameters use refName, D31); its hex form is checked by position.ts. */
const commitSha = () => Type.String({ minLength: 1, maxLength: 64 });
/**
 * The head SHA a merge or an approval is guarded by: GitLab compares it with the merge request's head
 * as a string (check_sha_param!), so only the full SHA in lower case can match; an abbreviated one or a
 * branch name would always be refused with 409, as if the branch had moved. Handlers send it lower-cased.
 */
export const headSha = () =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    identifier: true,
    pattern: '^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$',
    hint: 'must be the full head SHA (40 hex characters, the sha of get_merge_request); GitLab compares it exactly, so an abbreviated SHA never matches',
    description: 'Full head SHA you reviewed; if the branch moved: conflict',
  });

/** A repository path inside a body object: never part of a URL path, so plain bounded text. */
const repoPath = () => Type.String({ minLength: 1, maxLength: LIMITS.filePath });
const line = () => positiveInteger('must be a line number, 1 or more');

/**
 * A diff line to comment on (GitLab's text position). The shas default to the merge request's latest
 * version; the tool checks the line against that version's diff before anything is written.
 */
export const position = () =>
  Type.Object(
    {
      new_path: Type.Optional(repoPath()),
      old_path: Type.Optional(repoPath()),
      new_line: Type.Optional(line()),
      old_line: Type.Optional(line()),
      base_sha: Type.Optional(commitSha()),
      start_sha: Type.Optional(commitSha()),
      head_sha: Type.Optional(commitSha()),
    },
    {
      additionalProperties: false,
      description: 'new_line: added line, old_line: removed, both: unchanged (also one outside the shown hunks). Shas default to the latest version.',
    },
  );

export const MR_PATH = '/projects/{project_id}/merge_requests/{merge_request_iid}';
