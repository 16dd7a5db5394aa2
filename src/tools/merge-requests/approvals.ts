// Approvals: the state (who approved; on paid editions also how many are required and left), approve
// with the head sha guard, and withdraw one's approval. GitLab answers a refused approval (already
// approved, the author where authors may not approve, a project that requires the approver's
// password) with 401 and withdrawing an approval that does not exist with 404
// (lib/api/merge_request_approvals.rb): both are explained here.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { projectId } from '../params';
import { restTool } from '../rest';
import { headSha, mergeRequestIid, MR_PATH } from './params';

const ids = () => ({ project_id: projectId(), merge_request_iid: mergeRequestIid() });

export const getMergeRequestApprovalState = restTool({
  name: 'get_merge_request_approval_state',
  record: 'approval_state',
  title: 'Get merge request approvals',
  description: 'Who approved, whether the caller can; paid editions: approvals_required and approvals_left.',
  group: 'merge_requests',
  mode: 'read',
  input: Type.Object(ids(), { additionalProperties: false }),
  rest: { method: 'GET', path: `${MR_PATH}/approvals` },
});

export const approveMergeRequest = defineTool({
  name: 'approve_merge_request',
  record: 'approval_state',
  title: 'Approve merge request',
  description: "Approve. Not for projects that require the approver's password.",
  group: 'merge_requests',
  mode: 'write',
  endpoint: `POST ${MR_PATH}/approve`,
  input: Type.Object({ ...ids(), sha: Type.Optional(headSha()) }, { additionalProperties: false }),
  async handler(args, { forge }) {
    try {
      return await forge.json({
        method: 'POST',
        path: fillPath(`${MR_PATH}/approve`, args),
        body: args.sha === undefined ? {} : { sha: args.sha.toLowerCase() },
      });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      if (error.status === 401) throw new ToolError('permission', `${error.message}: ${await whyRefused(forge, args)}`, 401);
      if (error.status === 409) throw new ToolError('conflict', `${error.message}; review the new head, then approve with its sha`, 409);
      throw error;
    }
  },
});

/**
 * Why GitLab refused an approval with 401, read from the approval state: the caller already
 * approved, or (paid editions) the project requires the approver's password, which GitLab takes as
 * `approval_password` (ee/app/services/ee/merge_requests/approval_service.rb; the state says so in
 * `require_password_to_approve`, ee/lib/ee/api/entities/approval_state.rb). This server holds no
 * password and never asks for one. The token itself was taken: the 401 is the action's, not the
 * credential's (D23), and is never explained as a token problem.
 */
async function whyRefused(forge: ForgeClient, args: { project_id: string; merge_request_iid: string }): Promise<string> {
  const state = await forge.json<ApprovalState>({ method: 'GET', path: fillPath(`${MR_PATH}/approvals`, args) }).catch(() => undefined);
  if (state?.user_has_approved === true) return 'the caller already approved this merge request';
  if (state?.require_password_to_approve === true || state?.require_reauthentication_to_approve === true) {
    return "this project requires approvers to confirm with their GitLab password (require_password_to_approve), which this server cannot send: approve in GitLab's web interface";
  }
  return (
    'GitLab refused the approval (the caller already approved, is the author and authors may not approve here, ' +
    "or the project requires the approver's password, which this server cannot send)"
  );
}

interface ApprovalState {
  user_has_approved?: unknown;
  require_password_to_approve?: unknown;
  require_reauthentication_to_approve?: unknown;
}

export const unapproveMergeRequest = defineTool({
  name: 'unapprove_merge_request',
  record: 'approval_state',
  title: 'Withdraw approval',
  description: "Withdraw the caller's approval.",
  group: 'merge_requests',
  mode: 'write',
  endpoint: `POST ${MR_PATH}/unapprove`,
  input: Type.Object(ids(), { additionalProperties: false }),
  async handler(args, { forge }) {
    try {
      return await forge.json({ method: 'POST', path: fillPath(`${MR_PATH}/unapprove`, args), body: {} });
    } catch (error) {
      if (error instanceof ToolError && error.status === 404) {
        throw new ToolError('not_found', `${error.message}: the caller has not approved this merge request (or it does not exist)`, 404);
      }
      throw error;
    }
  },
});
