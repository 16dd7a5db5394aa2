// merge_merge_request: merge now or when the pipeline succeeds, guarded by the head sha. GitLab
// answers a merge request that cannot be merged with 405 (406 or 422 "Branch cannot be merged" in
// some versions and races, lib/api/merge_requests.rb); all three become `conflict` naming the
// merge request's detailed_merge_status, read afterwards, and what to do about it.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { projectId } from '../params';
import { headSha, mergeRequestIid, MR_PATH } from './params';

/** What an agent can do about each blocking check (GitLab's detailed_merge_status values). */
const REMEDY: Record<string, string> = {
  conflict: 'the source branch has conflicts with the target: rebase or resolve them first',
  draft_status: 'it is a draft: update_merge_request with draft: false first',
  discussions_not_resolved: 'unresolved threads block it: resolve them first',
  ci_must_pass: 'its pipeline must succeed first',
  ci_still_running: 'its pipeline is still running: use auto_merge: true to merge when it succeeds',
  not_approved: 'it lacks required approvals',
  not_open: 'it is not open (closed or already merged)',
  need_rebase: 'the project needs a rebase before merging (fast-forward merges)',
  requested_changes: 'a reviewer requested changes',
  merge_request_blocked: 'it is blocked by another merge request',
  // The same check's name before GitLab 16.x.
  blocked_status: 'it is blocked by another merge request',
  approvals_syncing: 'its approvals are syncing: try again shortly',
  preparing: 'GitLab is still preparing its diff: try again shortly',
  merge_time: 'it may not be merged before its scheduled merge time',
  status_checks_must_pass: 'its external status checks must pass first',
  locked_paths: 'it changes paths another user has locked',
  locked_lfs_files: 'it changes LFS files another user has locked',
  jira_association_missing: 'its title or description must name a Jira issue',
  commits_status: 'its source branch has no commits to merge',
  checking: 'GitLab is still checking mergeability: try again shortly',
  unchecked: 'GitLab has not checked mergeability yet: try again shortly',
};

const UNMERGEABLE = new Set([405, 406, 422]);

/** Head pipeline statuses (GitLab's Ci::HasStatus) of a pipeline that did not pass. */
const NOT_PASSED: Record<string, string> = { failed: 'failed', canceled: 'was canceled', canceling: 'was being canceled' };
/** Statuses of a pipeline that has not finished, so nobody knows yet whether the merged code passes. */
const UNFINISHED = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled', 'manual']);

/**
 * What the merge's answer says about its head pipeline when the merge went ahead without a passed
 * one (issue 37): GitLab merges a merge request whose pipeline failed or still runs unless the
 * project requires a successful one, and says nothing. Its merge answer is Entities::MergeRequest,
 * whose head_pipeline is the full pipeline (lib/api/entities/merge_request.rb; lib/api/merge_requests.rb
 * presents it after PUT …/merge). An auto-merge that waits for the pipeline is no warning.
 */
function headPipelineWarning(merged: unknown): string | undefined {
  if (merged === null || typeof merged !== 'object') return undefined;
  const r = merged as { head_pipeline?: unknown; merge_when_pipeline_succeeds?: unknown };
  if (r.merge_when_pipeline_succeeds === true) return undefined;
  const pipeline = r.head_pipeline as { id?: unknown; status?: unknown } | null | undefined;
  if (!pipeline || typeof pipeline !== 'object' || typeof pipeline.status !== 'string') return undefined;
  const id = typeof pipeline.id === 'number' ? ` ${pipeline.id}` : '';
  const failed = NOT_PASSED[pipeline.status];
  if (failed) return `merged although its head pipeline${id} ${failed}: the target branch now has code that did not pass it`;
  if (UNFINISHED.has(pipeline.status))
    return `merged while its head pipeline${id} was still ${pipeline.status}: whether the merged code passes is not known yet`;
  return undefined;
}

async function unmergeable(forge: ForgeClient, path: string, error: ToolError): Promise<ToolError> {
  let status = 'unknown';
  try {
    status = (await forge.json<{ detailed_merge_status?: string }>({ method: 'GET', path })).detailed_merge_status ?? status;
  } catch {
    // The merge already failed; its own answer is reported whether or not the follow-up read works.
  }
  const why = REMEDY[status] ?? 'see get_merge_request';
  return new ToolError(
    'conflict',
    `the merge request cannot be merged now (detailed_merge_status: ${status}): ${why}. GitLab said: ${error.message}`,
    error.status,
  );
}

export const mergeMergeRequest = defineTool({
  name: 'merge_merge_request',
  title: 'Merge merge request',
  description: 'Merge; newer GitLab may require sha (a group or instance setting). ' + 'Unmergeable: conflict naming detailed_merge_status.',
  group: 'merge_requests',
  mode: 'write',
  // The source branch may be deleted: should_remove_source_branch, or the merge request's own setting (D14).
  destructive: true,
  record: 'merge_request_detail',
  endpoint: `PUT ${MR_PATH}/merge (GET ${MR_PATH} after a refusal)`,
  async subject(args, forge) {
    const mr = await forge.json<{ title?: string; source_branch?: string; target_branch?: string }>({ method: 'GET', path: fillPath(MR_PATH, args) });
    return `!${args.merge_request_iid} "${mr.title}" (${mr.source_branch} into ${mr.target_branch})`;
  },
  input: Type.Object(
    {
      project_id: projectId(),
      merge_request_iid: mergeRequestIid(),
      sha: Type.Optional(headSha()),
      squash: Type.Optional(Type.Boolean()),
      auto_merge: Type.Optional(Type.Boolean({ description: 'Merge once every check passes' })),
      should_remove_source_branch: Type.Optional(Type.Boolean({ description: 'Delete the source branch' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    // GitLab's merge sets the merge request's squash only to true (`merge_request.update(squash: …) if
    // params[:squash]`, lib/api/merge_requests.rb): false would be dropped, and a merge request set to
    // squash would be squashed all the same.
    if (args.squash === false) {
      throw invalidArgument(
        'squash',
        "false is ignored by GitLab when merging (the merge request's own setting applies); " +
          'to merge without squashing, first call update_merge_request with squash: false',
      );
    }
  },
  async handler(args, { forge }) {
    const { project_id: _p, merge_request_iid: _i, auto_merge, ...fields } = args;
    if (fields.sha !== undefined) fields.sha = fields.sha.toLowerCase();
    const path = fillPath(MR_PATH, args);
    // auto_merge replaced merge_when_pipeline_succeeds (GitLab 17.x, doc/api/merge_requests.md);
    // both are sent so older and newer versions read it; Grape ignores the one it does not declare.
    const body: Record<string, unknown> = auto_merge === undefined ? fields : { ...fields, auto_merge, merge_when_pipeline_succeeds: auto_merge };
    try {
      const merged = await forge.json<Record<string, unknown>>({ method: 'PUT', path: `${path}/merge`, body });
      const warning = headPipelineWarning(merged);
      return warning ? { ...merged, head_pipeline_warning: warning } : merged;
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      if (error.status !== null && UNMERGEABLE.has(error.status)) throw await unmergeable(forge, path, error);
      if (error.status === 401) throw new ToolError('permission', `${error.message}: the caller may not merge into the target branch`, 401);
      // A namespace (group or instance) may require the sha on every merge (lib/api/merge_requests.rb:
      // require_sha_for_merge?, checked before anything else).
      if (error.status === 400 && /SHA must be provided/i.test(error.message)) {
        throw new ToolError(
          'validation',
          `${error.message}: this project's group or instance requires sha on every merge; ` +
            'read the head with get_merge_request, review it, then merge with sha',
          400,
        );
      }
      if (error.status === 409)
        throw new ToolError('conflict', `${error.message}; the source branch moved since it was read: review the new head, then merge with its sha`, 409);
      throw error;
    }
  },
});
