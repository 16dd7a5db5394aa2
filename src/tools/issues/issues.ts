// Issue tools: create, get (slim milestone by default), update (slim confirmation by default),
// delete (permanent).
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool, FULL_RESPONSE } from '../define';
import { invalidArgument } from '../errors';
import { ID, integer, integerId, isoDate, listOf, longText, milestoneOrNone, numericId, projectId, title, userText } from '../params';
import { restTool } from '../rest';
import { refusePaidOnCommunityEdition, type PaidUse } from '../tiers';
import { issueIid, issueType, joinLabels, labels } from './params';
import { unknownLabels, withLabelsCreated } from '../labels/created';
import { deletedOutput, fields, I, S, STRINGS } from '../lean/schema-parts';

const ISSUE_PATH = '/projects/{project_id}/issues/{issue_iid}';

/** weight and multiple assignees: EE only (ee/lib/ee/api/helpers/issues_helpers.rb; issuable_base_service.rb filter_assignees). */
const paidIssueFields = (args: { weight?: number; assignee_ids?: number[] }): PaidUse[] => [
  { parameter: 'weight', used: args.weight !== undefined },
  { parameter: 'assignee_ids', used: (args.assignee_ids?.length ?? 0) > 1, what: 'more than one assignee' },
];

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
  issue_type?: string;
  labels?: unknown[];
  assignees?: { id: number }[];
  due_date?: string | null;
  confidential?: boolean;
  discussion_locked?: boolean;
}

/** The fields of an issue write GitLab may leave undone without an error. */
interface Wanted {
  issue_type?: string;
  labels?: string[];
  milestone_id?: string;
  assignee_ids?: number[];
  due_date?: string;
  confidential?: boolean;
  discussion_locked?: boolean;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));
const labelName = (l: unknown) => (typeof l === 'string' ? l : String((l as { name?: unknown }).name ?? '')).trim().toLowerCase();

/**
 * What GitLab answered without doing: it drops an issue_type the caller may not create, the
 * metadata (labels, milestone, assignees, due date, lock, confidentiality) of a caller who may not
 * set it, a milestone outside the project's hierarchy (unsetting the milestone) and assignees who
 * cannot be assigned, all with a success. Read from the issue GitLab returned (docs/decisions.md D20's
 * not_applied: never report a change that was not made).
 */
function notApplied(wanted: Wanted, issue: Issue): string[] {
  const missed: string[] = [];
  if (wanted.issue_type !== undefined && issue.issue_type !== undefined && issue.issue_type !== wanted.issue_type) {
    missed.push(`issue_type (the issue is ${issue.issue_type}: GitLab ignores a type the caller may not create; incidents need Reporter, test cases Ultimate)`);
  }
  if (wanted.labels !== undefined && Array.isArray(issue.labels)) {
    const want = [...new Set(wanted.labels.map((l) => l.trim().toLowerCase()))];
    if (!sameSet(want, [...new Set(issue.labels.map(labelName))])) missed.push('labels');
  }
  if (wanted.milestone_id !== undefined) {
    const want = Number(wanted.milestone_id) || null;
    if ((issue.milestone?.id ?? null) !== want) missed.push(`milestone_id (the issue's milestone is ${issue.milestone ? issue.milestone.id : 'none'})`);
  }
  if (wanted.assignee_ids !== undefined && Array.isArray(issue.assignees)) {
    const want = [...new Set(wanted.assignee_ids.filter((id) => id !== 0).map(String))];
    if (
      !sameSet(
        want,
        issue.assignees.map((a) => String(a.id)),
      )
    )
      missed.push('assignee_ids');
  }
  if (wanted.due_date !== undefined && (issue.due_date ?? null) !== wanted.due_date) missed.push('due_date');
  for (const flag of ['confidential', 'discussion_locked'] as const) {
    if (wanted[flag] !== undefined && issue[flag] !== undefined && issue[flag] !== wanted[flag]) missed.push(flag);
  }
  return missed;
}

const withNotApplied = <T extends object>(result: T, missed: string[]) => (missed.length ? { ...result, not_applied: missed } : result);

/** update_issue's default result (docs/spec.md: slim issue confirmation). */
export function slimConfirmation(issue: Issue) {
  return { iid: issue.iid, title: issue.title, state: issue.state, web_url: issue.web_url, updated_at: issue.updated_at };
}

// What full_response returns is in each tool's description.
const weight = () => ({ ...integer(0, 'must be an integer, 0 or more'), description: 'Premium' });

export const createIssue = defineTool({
  name: 'create_issue',
  attachments: true,
  title: 'Create issue',
  description: 'Create an issue; labels_created lists the labels it created.',
  group: 'issues',
  mode: 'write',
  endpoint: 'POST /projects/{project_id}/issues (GET /projects/{project_id}/labels first, per label named)',
  input: Type.Object(
    {
      project_id: projectId(),
      title: title(),
      description: Type.Optional(userText(longText())),
      assignee_ids: Type.Optional(listOf(integerId('must be positive integer user ids'), 'User ids; several: Premium')),
      labels: labels('Label names; unknown ones are created'),
      milestone_id: Type.Optional(numericId(undefined, 'Its id, not iid')),
      issue_type: issueType(),
      weight: Type.Optional(weight()),
    },
    { additionalProperties: false },
  ),
  async handler(args, ctx) {
    await refusePaidOnCommunityEdition(ctx, paidIssueFields(args));
    const { forge } = ctx;
    const { project_id: _p, ...fields } = args;
    const unknown = await unknownLabels(forge, args.project_id, args.labels);
    const issue = await forge.json<Issue>({ method: 'POST', path: fillPath('/projects/{project_id}/issues', args), body: joinLabels(fields) });
    return withLabelsCreated(withNotApplied(issue, notApplied(args, issue)), unknown);
  },
});

export const getIssue = restTool({
  name: 'get_issue',
  attachments: true,
  title: 'Get issue',
  description: 'Get an issue by its iid.',
  group: 'issues',
  mode: 'read',
  record: 'issue',
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid() }, { additionalProperties: false }),
  rest: { method: 'GET', path: ISSUE_PATH },
});

const UPDATABLE = [
  'title',
  'description',
  'assignee_ids',
  'confidential',
  'discussion_locked',
  'due_date',
  'labels',
  'milestone_id',
  'state_event',
  'weight',
  'issue_type',
] as const;

export const updateIssue = defineTool({
  name: 'update_issue',
  attachments: true,
  title: 'Update issue',
  description:
    'Change issue fields. ' +
    'not_applied lists fields GitLab ignored; labels_created the labels it created. Partial description edits: update_issue_description_patch.',
  group: 'issues',
  mode: 'write',
  idempotent: true,
  endpoint: `PUT ${ISSUE_PATH} (GET /projects/{project_id}/labels first, per label named)`,
  output: // A full_response is GitLab's issue, so the result is open.
    fields({ iid: I, title: S, state: S, web_url: S, updated_at: S, not_applied: STRINGS, labels_created: STRINGS }, true),
  input: Type.Object(
    {
      project_id: projectId(),
      issue_iid: issueIid(),
      title: Type.Optional(title()),
      description: Type.Optional(userText(longText())),
      assignee_ids: Type.Optional(listOf(integer(0, 'must be user ids (0 or [] unassigns)', ID), 'User ids, replacing; [] unassigns')),
      confidential: Type.Optional(Type.Boolean()),
      discussion_locked: Type.Optional(Type.Boolean({ description: 'Only members may comment' })),
      due_date: isoDate(),
      labels: labels('Label names, replacing; [] clears'),
      milestone_id: Type.Optional(milestoneOrNone()),
      state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('reopen')])),
      weight: Type.Optional(weight()),
      issue_type: issueType(),
      full_response: FULL_RESPONSE,
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (!UPDATABLE.some((k) => args[k] !== undefined)) throw invalidArgument('arguments', `give at least one field to change: ${UPDATABLE.join(', ')}`);
  },
  async handler(args, ctx) {
    await refusePaidOnCommunityEdition(ctx, paidIssueFields(args));
    const { forge } = ctx;
    const { project_id: _p, issue_iid: _i, full_response, ...fields } = args;
    const unknown = await unknownLabels(forge, args.project_id, args.labels);
    const issue = await forge.json<Issue>({ method: 'PUT', path: fillPath(ISSUE_PATH, args), body: joinLabels(fields) });
    const created = withLabelsCreated(issue, unknown) as Issue & { labels_created?: string[] };
    const result = withNotApplied(full_response ? issue : slimConfirmation(issue), notApplied(args, issue));
    return created.labels_created ? { ...result, labels_created: created.labels_created } : result;
  },
});

export const deleteIssue = restTool({
  name: 'delete_issue',
  title: 'Delete issue',
  description: 'Delete an issue for good; closing it keeps history.',
  group: 'issues',
  mode: 'write',
  destructive: true,
  output: deletedOutput('issue_iid'),
  input: Type.Object({ project_id: projectId(), issue_iid: issueIid() }, { additionalProperties: false }),
  subject: async (args, forge) => `issue #${args.issue_iid} "${(await forge.json<Issue>({ method: 'GET', path: fillPath(ISSUE_PATH, args) })).title}"`,
  rest: { method: 'DELETE', path: ISSUE_PATH, empty: (args) => ({ deleted: true, issue_iid: args.issue_iid }) },
});
