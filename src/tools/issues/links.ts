// Issue links (related issues): list, get, create, delete.
import { Type } from '@sinclair/typebox';
import { fillPath, namespacePath } from '../../forge/encode';
import { defineTool } from '../define';
import { numericId, projectId } from '../params';
import { restTool } from '../rest';
import { issueIid } from './params';

const LINKS_PATH = '/projects/{project_id}/issues/{issue_iid}/links';
const linkId = () => numericId(undefined, 'From list_issue_links');

export const listIssueLinks = restTool({
  name: 'list_issue_links',
  title: 'List linked issues',
  description: 'List linked issues, with issue_link_id and link_type from this side.',
  group: 'issues',
  mode: 'read',
  record: 'linked_issue',
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid() }, { additionalProperties: false }),
  rest: { method: 'GET', path: LINKS_PATH, list: true },
});

export const getIssueLink = restTool({
  name: 'get_issue_link',
  title: 'Get issue link',
  description: 'Get an issue link and both its issues.',
  group: 'issues',
  mode: 'read',
  record: 'issue_link',
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), issue_link_id: linkId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${LINKS_PATH}/{issue_link_id}` },
});

export const createIssueLink = defineTool({
  name: 'create_issue_link',
  title: 'Link issues',
  description: 'Link an issue to another, in any project.',
  group: 'issues',
  mode: 'write',
  endpoint: `POST ${LINKS_PATH}`,
  input: Type.Object(
    {
      project_id: projectId(),
      issue_iid: issueIid(),
      target_project_id: projectId(),
      target_issue_iid: numericId(undefined, "Target's iid"),
      link_type: Type.Optional(
        Type.Union([Type.Literal('relates_to'), Type.Literal('blocks'), Type.Literal('is_blocked_by')], {
          description: 'Default relates_to; blocks: this blocks the target',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  handler: (args, { forge }) =>
    forge.json({
      method: 'POST',
      path: fillPath(LINKS_PATH, args),
      // GitLab finds the target by the body's value as sent (no decoding in a JSON body): the plain path (D26).
      body: {
        target_project_id: namespacePath(args.target_project_id, 'target_project_id'),
        target_issue_iid: args.target_issue_iid,
        link_type: args.link_type ?? 'relates_to',
      },
    }),
});

export const deleteIssueLink = restTool({
  name: 'delete_issue_link',
  title: 'Unlink issues',
  description: 'Remove a link between two issues (both ways).',
  group: 'issues',
  mode: 'write',
  destructive: true,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid(), issue_link_id: linkId() }, { additionalProperties: false }),
  rest: { method: 'DELETE', path: `${LINKS_PATH}/{issue_link_id}` },
});
