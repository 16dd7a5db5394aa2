// Issue tools: create, get (slim milestone by default), update (slim confirmation by default),
// delete (permanent).
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { isoDate, projectId } from '../params';
import { restTool } from '../rest';
import { issueIid, issueType, joinLabels, labels, numericId } from './params';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';

interface Milestone {
  id: number;
  iid: number;
  title: string;
  state: string;
  web_url: string;
}

export interface Issue {
  iid: number;
  title: string;
  state: string;
  web_url: string;
  updated_at: string;
  description: string | null;
  milestone: Milestone | null;
}

/** The milestone inside an issue, cut to what identifies it (SPEC: slim milestone). */
export function slimMilestone(issue: Issue): Issue {
  const m = issue.milestone;
  return { ...issue, milestone: m ? { id: m.id, iid: m.iid, title: m.title, state: m.state, web_url: m.web_url } : null };
}

/** update_issue's default result (SPEC: slim issue confirmation). */
export function slimConfirmation(issue: Issue) {
  return { iid: issue.iid, title: issue.title, state: issue.state, web_url: issue.web_url, updated_at: issue.updated_at };
}

const fullResponse = (what: string) => Type.Optional(Type.Boolean({ description: `Return ${what} (default false).` }));

export const createIssue = defineTool({
  name: 'create_issue',
  title: 'Create issue',
  description:
    'Create an issue in a project and return it. labels are label names (missing labels are created); milestone_id is the milestone\'s global id. ' +
    'Assignees, labels, milestone and weight need Reporter access; the forge silently drops them for guests.',
  group: 'issues',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/issues',
  input: Type.Object(
    {
      project_id: projectId(),
      title: Type.String({ minLength: 1, maxLength: 255, description: 'Issue title (at most 255 characters).' }),
      description: Type.Optional(Type.String({ description: 'Issue description (Markdown).' })),
      assignee_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { description: 'User ids to assign.' })),
      labels: labels('Label names to set.'),
      milestone_id: Type.Optional(numericId("Global id of a milestone of the project or one of its groups.")),
      issue_type: issueType(),
      weight: Type.Optional(Type.Integer({ minimum: 0, description: 'Weight, 0 or more (paid tiers).' })),
    },
    { additionalProperties: false },
  ),
  handler(args, { forge }) {
    const { project_id: _p, ...fields } = args;
    return forge.json({ method: 'POST', path: fillPath('/projects/{project_id}/issues', args), body: joinLabels(fields) });
  },
});

export const getIssue = defineTool({
  name: 'get_issue',
  title: 'Get issue',
  description:
    'Get one issue by iid: title, description, state, labels, assignees, author, dates and its milestone. ' +
    'The milestone is slimmed to id, iid, title, state and web_url unless full_response is true.',
  group: 'issues',
  mode: 'read',
  endpoint: `GET ${ISSUE_PATH}`,
  input: Type.Object(
    { project_id: projectId(), issue_iid: issueIid(), full_response: fullResponse('the complete milestone object') },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    const issue = await forge.json<Issue>({ method: 'GET', path: fillPath(ISSUE_PATH, args) });
    return args.full_response ? issue : slimMilestone(issue);
  },
});

const UPDATABLE = ['title', 'description', 'assignee_ids', 'confidential', 'discussion_locked', 'due_date', 'labels', 'milestone_id',
  'state_event', 'weight', 'issue_type'] as const;

export const updateIssue = defineTool({
  name: 'update_issue',
  title: 'Update issue',
  description:
    'Change an issue\'s fields; state_event close closes it and reopen reopens it. labels replaces all labels ([] clears them); ' +
    'assignee_ids replaces the assignees ([] unassigns); milestone_id "0" removes the milestone. ' +
    'Returns iid, title, state, web_url and updated_at unless full_response is true. For a small edit of a long description use update_issue_description_patch.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  endpoint: `PUT ${ISSUE_PATH}`,
  input: Type.Object(
    {
      project_id: projectId(),
      issue_iid: issueIid(),
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'New title.' })),
      description: Type.Optional(Type.String({ description: 'New description (replaces the whole description).' })),
      assignee_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { description: 'User ids to assign (replaces the assignees; [] unassigns).' })),
      confidential: Type.Optional(Type.Boolean({ description: 'Make the issue confidential or public.' })),
      discussion_locked: Type.Optional(Type.Boolean({ description: 'Lock or unlock comments for non-members.' })),
      due_date: isoDate('Due date.'),
      labels: labels('Label names (replaces all labels; [] clears them).'),
      milestone_id: Type.Optional(numericId('Global id of the milestone; "0" removes it.')),
      state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('reopen')], { description: 'close or reopen the issue.' })),
      weight: Type.Optional(Type.Integer({ minimum: 0, description: 'Weight, 0 or more (paid tiers).' })),
      issue_type: issueType('Change the type: issue, incident, test_case or task.'),
      full_response: fullResponse('the full updated issue instead of the short confirmation'),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (!UPDATABLE.some((k) => args[k] !== undefined)) throw invalidArgument('arguments', `give at least one field to change: ${UPDATABLE.join(', ')}`);
  },
  async handler(args, { forge }) {
    const { project_id: _p, issue_iid: _i, full_response, ...fields } = args;
    const issue = await forge.json<Issue>({ method: 'PUT', path: fillPath(ISSUE_PATH, args), body: joinLabels(fields) });
    return full_response ? issue : slimConfirmation(issue);
  },
});

export const deleteIssue = restTool({
  name: 'delete_issue',
  title: 'Delete issue',
  description:
    'Delete an issue permanently, with its comments, links and reactions; it cannot be restored. Only project Owners and administrators may. ' +
    'To keep the history, close it with update_issue (state_event close) instead.',
  group: 'issues',
  mode: 'write',
  destructive: true,
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid() }, { additionalProperties: false }),
  rest: { method: 'DELETE', path: ISSUE_PATH, empty: (args) => ({ deleted: true, issue_iid: args.issue_iid }) },
});

export const issueCrudTools = [createIssue, getIssue, updateIssue, deleteIssue];
