// Protected branch tools. protect_branch creates a rule or updates the existing one (docs/spec.md:
// "protected (rule updated)"; D20), since GitLab's POST answers 409 for a second rule.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { pagination, projectId, refName, search } from '../params';
import { restTool } from '../rest';
import { protectOrUpdate } from './protect-or-update';
import { ANY_OBJECT, B, fields, S, STRINGS } from '../lean/schema-parts';

/** A branch name or a wildcard pattern such as release/*. */
const ruleName = refName('Branch or pattern (release/*)');

const listProtectedBranches = restTool({
  name: 'list_protected_branches',
  title: 'List protected branches',
  description: 'List branch protection rules.',
  group: 'branches',
  mode: 'read',
  record: 'protected_branch',
  input: Type.Object({ project_id: projectId(), search: search('Part of the name'), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/protected_branches', list: true },
});

const getProtectedBranch = restTool({
  name: 'get_protected_branch',
  title: 'Get protected branch',
  description: 'Get the protection rule of a branch or wildcard.',
  group: 'branches',
  mode: 'read',
  record: 'protected_branch',
  input: Type.Object({ project_id: projectId(), branch_name: ruleName }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/protected_branches/{branch_name}' },
});

// The levels' meaning is on each parameter (D40).
const accessLevel = () =>
  Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(30), Type.Literal(40), Type.Literal(60)], {
      hint: 'must be one of 0 (no access), 30 (developer), 40 (maintainer), 60 (admin)',
      description: '0 none, 30 developer, 40 maintainer (default), 60 admin',
    }),
  );

// GitLab refuses 0 here: a rule nobody may unprotect could never be removed.
const unprotectLevel = () =>
  Type.Optional(
    Type.Union([Type.Literal(30), Type.Literal(40), Type.Literal(60)], {
      hint: 'must be one of 30 (developer), 40 (maintainer), 60 (admin); 0 is not allowed, since nobody could then unprotect the branch',
      description: '30 developer, 40 maintainer (default), 60 admin',
    }),
  );

const protectBranch = defineTool({
  name: 'protect_branch',
  title: 'Protect branch',
  description: 'Protect a branch or pattern, or update its rule. Level 60 (admin) is self-managed only.',
  group: 'branches',
  mode: 'write',
  idempotent: true,
  endpoint:
    'POST /projects/{project_id}/protected_branches; to update, GET and PATCH (or DELETE and POST) /projects/{project_id}/protected_branches/{branch_name}',
  output: fields({ action: S, protected_branch: ANY_OBJECT, not_applied: STRINGS }),
  input: Type.Object(
    {
      project_id: projectId(),
      branch_name: Type.Optional(ruleName),
      name: Type.Optional(refName('Alias of branch_name')),
      push_access_level: accessLevel(),
      merge_access_level: accessLevel(),
      unprotect_access_level: unprotectLevel(),
      allow_force_push: Type.Optional(Type.Boolean({ description: 'Pushers may force-push' })),
      code_owner_approval_required: Type.Optional(Type.Boolean({ description: 'Premium: code owners approve' })),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.branch_name === undefined && args.name === undefined) throw invalidArgument('branch_name', 'is required');
    if (args.branch_name !== undefined && args.name !== undefined && args.branch_name !== args.name) {
      throw invalidArgument('name', 'is a deprecated alias of branch_name; give one of them, not two different values');
    }
  },
  handler: (args, ctx) =>
    protectOrUpdate(ctx, args.project_id, {
      name: (args.branch_name ?? args.name) as string,
      push_access_level: args.push_access_level,
      merge_access_level: args.merge_access_level,
      unprotect_access_level: args.unprotect_access_level,
      allow_force_push: args.allow_force_push,
      code_owner_approval_required: args.code_owner_approval_required,
    }),
});

const unprotectBranch = restTool({
  name: 'unprotect_branch',
  title: 'Unprotect branch',
  description: 'Unprotect a branch or pattern, allowing force-push and deletion.',
  group: 'branches',
  mode: 'write',
  destructive: true,
  output: fields({ unprotected: B, branch_name: S }, true),
  input: Type.Object({ project_id: projectId(), branch_name: ruleName }, { additionalProperties: false }),
  rest: {
    method: 'DELETE',
    path: '/projects/{project_id}/protected_branches/{branch_name}',
    empty: (args) => ({ unprotected: true, branch_name: args.branch_name }),
  },
});

export const protectionTools = [listProtectedBranches, getProtectedBranch, protectBranch, unprotectBranch];
