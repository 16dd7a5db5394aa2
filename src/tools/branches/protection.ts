// Protected branch tools. protect_branch creates a rule or updates the existing one (SPEC:
// "protected (rule updated)"; DECISIONS D20), since GitLab's POST answers 409 for a second rule.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { pagination, projectId } from '../params';
import { restTool } from '../rest';
import { protectOrUpdate } from './protect-or-update';

const ruleName = Type.String({ minLength: 1, description: 'Branch name or wildcard pattern, e.g. main or release/*.' });

export const listProtectedBranches = restTool({
  name: 'list_protected_branches',
  title: 'List protected branches',
  description: 'List the protection rules of a project (names or wildcard patterns with their push, merge and unprotect access levels).',
  group: 'branches',
  mode: 'read',
  input: Type.Object(
    { project_id: projectId(), search: Type.Optional(Type.String({ description: 'Only rules whose name contains this text.' })), ...pagination },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/projects/{project_id}/protected_branches', list: true },
});

export const getProtectedBranch = restTool({
  name: 'get_protected_branch',
  title: 'Get protected branch',
  description: 'Get one protection rule by branch name or wildcard pattern.',
  group: 'branches',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), branch_name: ruleName }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/protected_branches/{branch_name}' },
});

const accessLevel = (who: string) =>
  Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(30), Type.Literal(40), Type.Literal(60)], {
      description: `Who may ${who}: 0 no one, 30 developers and maintainers, 40 maintainers, 60 admins. Forge default (40) when omitted.`,
      hint: 'must be one of 0 (no access), 30 (developer), 40 (maintainer), 60 (admin)',
    }),
  );

export const protectBranch = defineTool({
  name: 'protect_branch',
  title: 'Protect branch',
  description:
    'Protect a branch or wildcard pattern, or update its existing rule. Access levels: 0 no one, 30 developer, 40 maintainer, 60 admin. ' +
    'On free tiers changing push/merge levels of an existing rule replaces it (unprotect, then protect; the old rule is restored if that fails). ' +
    'The result says whether the rule was created, updated or replaced.',
  group: 'branches',
  mode: 'write',
  idempotent: true,
  endpoint: 'POST /projects/{project_id}/protected_branches (PATCH or DELETE+POST …/{branch_name} to update)',
  input: Type.Object(
    {
      project_id: projectId(),
      branch_name: Type.Optional(ruleName),
      name: Type.Optional(Type.String({ minLength: 1, description: 'Deprecated alias of branch_name.' })),
      push_access_level: accessLevel('push'),
      merge_access_level: accessLevel('merge'),
      unprotect_access_level: accessLevel('unprotect'),
      allow_force_push: Type.Optional(Type.Boolean({ description: 'Allow force pushes (default false).' })),
      code_owner_approval_required: Type.Optional(Type.Boolean({ description: 'Require code owner approval (default false; paid tiers).' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.branch_name === undefined && args.name === undefined) throw invalidArgument('branch_name', 'is required');
    if (args.branch_name !== undefined && args.name !== undefined && args.branch_name !== args.name) {
      throw invalidArgument('name', 'is a deprecated alias of branch_name; give one of them, not two different values');
    }
  },
  handler: (args, { forge }) =>
    protectOrUpdate(forge, args.project_id, {
      name: (args.branch_name ?? args.name) as string,
      push_access_level: args.push_access_level,
      merge_access_level: args.merge_access_level,
      unprotect_access_level: args.unprotect_access_level,
      allow_force_push: args.allow_force_push,
      code_owner_approval_required: args.code_owner_approval_required,
    }),
});

export const unprotectBranch = restTool({
  name: 'unprotect_branch',
  title: 'Unprotect branch',
  description: 'Remove the protection rule of a branch or wildcard pattern; anyone with push access can then push, force-push or delete it.',
  group: 'branches',
  mode: 'write',
  destructive: true,
  input: Type.Object({ project_id: projectId(), branch_name: ruleName }, { additionalProperties: false }),
  rest: {
    method: 'DELETE',
    path: '/projects/{project_id}/protected_branches/{branch_name}',
    empty: (args) => ({ unprotected: true, branch_name: args.branch_name }),
  },
});

export const protectionTools = [listProtectedBranches, getProtectedBranch, protectBranch, unprotectBranch];
