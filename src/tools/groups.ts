// The tool groups (D13), each with what the server says of it: whether `all` includes it, and its
// lines of the server's instructions (without FORGE_TOOLSETS a deployment exposes the default
// set of default-set.ts, chosen by tool name, D40). Config (FORGE_TOOLSETS),
// the per-request policy (D34) and the HTTP layer read the groups from here; a new group is a
// line here and a folder beside this file.

import type { DEFAULT_SET } from './default-set';

export const TOOL_GROUPS = [
  'milestones',
  'branches',
  'issues',
  'merge_requests',
  'pipelines',
  'repository',
  'projects',
  'users',
  'search',
  'labels',
  'wiki',
  'releases',
  'context',
  'variables',
  'ci',
  'work_items',
] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

interface ToolGroupInfo {
  /** Left out of `all`: only a deployment that names the group gets it. */
  readonly namedOnly?: boolean;
  /** Lines of the server's instructions that only this group's tools need (after the shared conventions). */
  readonly instructions: readonly string[];
}

const TOOL_GROUP_INFO: Readonly<Record<ToolGroup, ToolGroupInfo>> = {
  milestones: { instructions: [] },
  branches: { instructions: [] },
  issues: {
    instructions: [
      '- Emoji names go without colons, e.g. thumbsup. The comment reaction tools also take the discussion_id of a reply and then check the note is in that thread.',
    ],
  },
  merge_requests: { instructions: [] },
  pipelines: { instructions: [] },
  repository: { instructions: [] },
  projects: { instructions: [] },
  users: { instructions: [] },
  search: { instructions: [] },
  labels: { instructions: [] },
  wiki: { instructions: [] },
  releases: { instructions: [] },
  context: { instructions: [] },
  // A variable's value is a secret: `all` leaves the group out, a deployment must name it (D13).
  variables: { namedOnly: true, instructions: [] },
  ci: { instructions: [] },
  work_items: {
    instructions: [
      "- Work items (GitLab's GraphQL API): namespace_path is a project's or group's full path, never a numeric id. A work item is named by id (its global id gid://gitlab/WorkItem/42, as the tools return it), by namespace_path with iid, or by url (its web page on this forge). Lists page by cursor: page is null and next_page is a cursor to give back as after. Tasks go under issues, issues and epics under epics, key results under objectives.",
    ],
  },
};

/** Groups `all` leaves out: only a deployment that names them gets them (variables hold secrets, D13). */
export const NAMED_ONLY_GROUPS: readonly ToolGroup[] = TOOL_GROUPS.filter((group) => TOOL_GROUP_INFO[group].namedOnly === true);

/** What FORGE_TOOLSETS and a request's policy (D34) may name: a group, or the default set (D40). */
export type Toolset = ToolGroup | typeof DEFAULT_SET;

// Sent once at initialize: the conventions every tool shares, then each group's own lines, so
// tools/list (read on every connection) carries only what is particular to each tool.
// Formats and defaults a call needs are on the parameters they govern (D40: several clients never
// show these instructions to the model); what stays here spans tools or describes results.
const CONVENTIONS = [
  '- Ids may be sent as numbers or strings; project_id and group_id also take a full path. Branch names, refs, tag names, file paths and wiki slugs containing / are given as they are; none may be empty or have a . or .. part. ' +
    'note_id, award_id, issue_link_id, link_id, discussion_id and to-do ids are the id fields the list tools return.',
  '- Paginated list tools return {items, pagination: {page, per_page, next_page, total, total_pages}}; next_page is null on the last page; total and total_pages are null where GitLab does not count (lists above 10,000 items, commits).',
  '- Limits: titles 255 characters, descriptions and comment bodies 1,000,000, search 1,000; numeric ids are positive whole numbers.',
  "- Read tools return lean records (null, empty and presentation fields dropped; users as {id, username, name}; flags only when true); full_response: true returns the forge's records untouched. " +
    'A result over the size limit is cut at a whole item and says truncated: true with how to get the rest. Text others wrote comes without invisible characters and hidden Markdown; file contents, diffs and blame come exact, with invisible_characters saying where such characters are. ' +
    'A write whose merge request or commit text says "Closes #12" lists those issues in closes_issues.',
  '- GitLab silently ignores fields the caller may not set (assignees, labels, milestone and weight below Reporter).',
  '- Premium/Ultimate only: weight, iteration_id, burndown events, blocks/is_blocked_by issue links, code_owner_approval_required, group wikis.',
];

const CLOSING = [
  '- delete_* tools and unprotect_branch cannot be undone.',
  '- Failures are isError results whose text starts with a kind: validation (a parameter is wrong, named first; nothing was sent to GitLab), ' +
    'not_found, permission, conflict, rate_limited, upstream, timeout or mismatch.',
];

export const INSTRUCTIONS = [
  "Tools act on a GitLab forge with the caller's own token; the forge enforces the caller's role. Conventions (tool descriptions state only exceptions):",
  ...CONVENTIONS,
  ...TOOL_GROUPS.flatMap((group) => TOOL_GROUP_INFO[group].instructions),
  ...CLOSING,
].join('\n');
