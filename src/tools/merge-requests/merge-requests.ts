// Merge request tools: get (by iid or source branch), create and update. GitLab has no draft flag
// on create or update: a draft is a title starting "Draft:" (doc/api/merge_requests.md), so `draft`
// rewrites the title, reading it first when no new title is given.
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { ID, integer, integerId, listOf, longText, milestoneOrNone, projectId, refName, title, userText } from '../params';
import { joinLabels, labels } from '../issues/params';
import { unknownLabels, withLabelsCreated } from '../labels/created';
import { mergeRequestIid, MR_PATH } from './params';
import { refusePaidOnCommunityEdition, type PaidUse } from '../tiers';

interface MergeRequest {
  iid: number;
  title: string;
  state: string;
  assignees?: { id: number }[];
  reviewers?: { id: number }[];
}

/**
 * Assignees and reviewers GitLab answered without keeping. An Enterprise build without a licence
 * (self-managed EE Free, GitLab.com Free) keeps only the first of each, silently, and the server
 * cannot tell it from a licensed one beforehand (tiers.ts); GitLab also drops users who cannot be
 * assigned. Read from the merge request GitLab returned (docs/decisions.md D20's not_applied).
 */
function mergeRequestNotApplied(wanted: { assignee_ids?: number[]; reviewer_ids?: number[] }, mr: MergeRequest): string[] {
  const missed: string[] = [];
  for (const [name, got] of [
    ['assignee_ids', mr.assignees],
    ['reviewer_ids', mr.reviewers],
  ] as const) {
    const want = wanted[name];
    if (want === undefined || !Array.isArray(got)) continue;
    const asked = [...new Set(want.filter((id) => id !== 0))];
    const kept = got.map((u) => u.id);
    if (asked.length === kept.length && asked.every((id) => kept.includes(id))) continue;
    const firstOnly = asked.length > 1 && kept.length === 1 && kept[0] === asked[0];
    missed.push(`${name} (kept: ${kept.join(', ') || 'none'}${firstOnly ? '; more than one needs a GitLab Premium or Ultimate licence' : ''})`);
  }
  return missed;
}

const withNotApplied = <T extends MergeRequest>(mr: T, missed: string[]) => (missed.length ? { ...mr, not_applied: missed } : mr);

/**
 * GitLab's draft markers at the start of a title, in any case: "Draft:", "[Draft]", "(Draft)"
 * (merge_request_draft in lib/gitlab/regex/merge_requests.rb). "Draft " alone is an ordinary word.
 */
const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:)\s*/i;

/**
 * The title with `draft` set: every leading marker goes (so "Draft: [Draft] x" comes out ready, not
 * still a draft), and a draft starts "Draft: ".
 */
function withDraft(currentTitle: string, draft: boolean): string {
  let bare = currentTitle;
  while (DRAFT_PREFIX.test(bare)) bare = bare.replace(DRAFT_PREFIX, '');
  return draft ? `Draft: ${bare}` : bare;
}

/** Several assignees or reviewers are paid-tier features: CE keeps the first id and drops the rest silently. */
const paidMergeRequestFields = (args: { assignee_ids?: number[]; reviewer_ids?: number[] }): PaidUse[] => [
  { parameter: 'assignee_ids', used: (args.assignee_ids?.length ?? 0) > 1, what: 'more than one assignee' },
  { parameter: 'reviewer_ids', used: (args.reviewer_ids?.length ?? 0) > 1, what: 'more than one reviewer' },
];

const userIds = (hint: string, description: string) => Type.Optional(listOf(integer(0, hint, ID), description));

/** The newest merge request from a source branch: an open one if any (GitLab allows one open per source and target). */
async function bySourceBranch(forge: ForgeClient, projectId: string, branch: string): Promise<MergeRequest> {
  const path = fillPath('/projects/{project_id}/merge_requests', { project_id: projectId });
  for (const state of ['opened', 'all']) {
    const found = await forge.list<MergeRequest>({ method: 'GET', path, query: { source_branch: branch, state, per_page: 1 } });
    if (found.items[0]) return found.items[0];
  }
  throw new ToolError('not_found', `no merge request has source branch ${branch}`);
}

export const getMergeRequest = defineTool({
  name: 'get_merge_request',
  attachments: true,
  title: 'Get merge request',
  description: 'Get a merge request by iid or source branch: detailed_merge_status, diff_refs, sha.',
  group: 'merge_requests',
  mode: 'read',
  record: 'merge_request_detail',
  endpoint: `GET ${MR_PATH} (GET /projects/{project_id}/merge_requests?source_branch= first with source_branch)`,
  input: Type.Object(
    {
      project_id: projectId(),
      merge_request_iid: Type.Optional(mergeRequestIid()),
      source_branch: Type.Optional(refName('Instead of iid: its open MR, else newest')),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if ((args.merge_request_iid === undefined) === (args.source_branch === undefined)) {
      throw invalidArgument('merge_request_iid', 'give merge_request_iid or source_branch, exactly one');
    }
  },
  async handler(args, { forge }) {
    const iid = args.merge_request_iid ?? String((await bySourceBranch(forge, args.project_id, args.source_branch!)).iid);
    return forge.json({ method: 'GET', path: fillPath(MR_PATH, { project_id: args.project_id, merge_request_iid: iid }) });
  },
});

export const createMergeRequest = defineTool({
  name: 'create_merge_request',
  attachments: true,
  title: 'Create merge request',
  description:
    'Open a merge request. From a fork: project_id is the fork (the source) and ' +
    'target_project_id the project to merge into; the merge request then lives in the target ' +
    '(pass the target as project_id afterwards). not_applied lists assignees or reviewers GitLab did not keep.',
  group: 'merge_requests',
  mode: 'write',
  record: 'merge_request_detail',
  closingText: (args) => [args.title, args.description],
  endpoint: 'POST /projects/{project_id}/merge_requests (GET /projects/{project_id}/labels first, per label named)',
  input: Type.Object(
    {
      project_id: projectId(),
      title: title(),
      source_branch: refName('Branch to merge'),
      target_branch: refName('Branch to merge into'),
      // GitLab takes the target only as a numeric id (unlike project_id in the path): a path is refused
      // here, naming the parameter, rather than by the forge. Its description states that exception
      // to the server's conventions (tools/groups.ts INSTRUCTIONS).
      target_project_id: Type.Optional(
        integerId('must be the numeric id of the project to merge into, such as 42 (not a path)', 'Numeric id of the project to merge into (no path).'),
      ),
      description: Type.Optional(userText(longText())),
      assignee_ids: userIds('must be positive integer user ids', 'User ids; several: Premium'),
      reviewer_ids: userIds('must be positive integer user ids', 'User ids; several: Premium'),
      labels: labels('Label names'),
      milestone_id: Type.Optional(milestoneOrNone()),
      draft: Type.Optional(Type.Boolean()),
      remove_source_branch: Type.Optional(Type.Boolean({ description: 'Delete it on merge' })),
      squash: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  async handler(args, ctx) {
    await refusePaidOnCommunityEdition(ctx, paidMergeRequestFields(args));
    const { forge } = ctx;
    const { project_id: _p, draft, ...fields } = args;
    const body = joinLabels({ ...fields, title: draft === undefined ? fields.title : withDraft(fields.title, draft) });
    const unknown = await unknownLabels(forge, args.project_id, args.labels);
    const mr = await forge.json<MergeRequest>({ method: 'POST', path: fillPath('/projects/{project_id}/merge_requests', args), body });
    return withLabelsCreated(withNotApplied(mr, mergeRequestNotApplied(args, mr)), unknown);
  },
});

const UPDATABLE = [
  'title',
  'description',
  'target_branch',
  'assignee_ids',
  'reviewer_ids',
  'labels',
  'milestone_id',
  'state_event',
  'remove_source_branch',
  'squash',
  'draft',
  'discussion_locked',
] as const;

export const updateMergeRequest = defineTool({
  name: 'update_merge_request',
  attachments: true,
  title: 'Update merge request',
  description:
    'Change fields (at least one); draft sets or drops the "Draft:" title prefix. ' + 'not_applied lists assignees or reviewers GitLab did not keep.',
  group: 'merge_requests',
  mode: 'write',
  record: 'merge_request_detail',
  closingText: (args) => [args.title, args.description],
  idempotent: true,
  endpoint: `PUT ${MR_PATH} (GET first for draft without title; GET /projects/{project_id}/labels per label named)`,
  input: Type.Object(
    {
      project_id: projectId(),
      merge_request_iid: mergeRequestIid(),
      title: Type.Optional(title()),
      description: Type.Optional(userText(longText())),
      target_branch: Type.Optional(refName('Branch to merge into')),
      assignee_ids: userIds('must be user ids (0 or [] unassigns)', 'User ids, replacing; [] clears'),
      reviewer_ids: userIds('must be user ids (0 or [] removes reviewers)', 'User ids, replacing; [] clears'),
      labels: labels('Label names, replacing; [] clears'),
      milestone_id: Type.Optional(milestoneOrNone()),
      state_event: Type.Optional(Type.Union([Type.Literal('close'), Type.Literal('reopen')])),
      remove_source_branch: Type.Optional(Type.Boolean({ description: 'Delete it on merge' })),
      squash: Type.Optional(Type.Boolean()),
      draft: Type.Optional(Type.Boolean()),
      discussion_locked: Type.Optional(Type.Boolean({ description: 'Only members may comment' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (!UPDATABLE.some((k) => args[k] !== undefined)) throw invalidArgument('arguments', `give at least one field to change: ${UPDATABLE.join(', ')}`);
  },
  async handler(args, ctx) {
    await refusePaidOnCommunityEdition(ctx, paidMergeRequestFields(args));
    const { forge } = ctx;
    const { project_id: _p, merge_request_iid: _i, draft, ...fields } = args;
    const path = fillPath(MR_PATH, args);
    const body: Record<string, unknown> = joinLabels(fields);
    if (draft !== undefined) {
      const current = fields.title ?? (await forge.json<MergeRequest>({ method: 'GET', path })).title;
      body.title = withDraft(current, draft);
    }
    const unknown = await unknownLabels(forge, args.project_id, args.labels);
    const mr = await forge.json<MergeRequest>({ method: 'PUT', path, body });
    return withLabelsCreated(withNotApplied(mr, mergeRequestNotApplied(args, mr)), unknown);
  },
});
