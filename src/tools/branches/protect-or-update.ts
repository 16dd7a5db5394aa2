// protect_branch's real behaviour (D20): create the rule; when one exists, update it.
// GitLab's PATCH changes push/merge/unprotect levels only through `allowed_to_*` entries, which only
// its EE code declares (ee/lib/ee/api/helpers/protected_branches_helpers.rb; the Community Edition
// drops them unread), so a level change is a PATCH where that works and otherwise a replacement of
// the rule (unprotect, then protect again), putting the old rule back if the new one is refused.
// Three promises (docs/forge-editions.md): a replacement keeps every entry of the old rule (role
// levels, users, groups, deploy keys), a rule is never unprotected when nothing would change, and the
// result never reports a change GitLab did not make: what it ignored is listed in `not_applied`.
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import type { ToolContext } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { refusePaidOnCommunityEdition } from '../tiers';

type Level = 0 | 30 | 40 | 60;
const KINDS = ['push', 'merge', 'unprotect'] as const;
type Kind = (typeof KINDS)[number];

interface ProtectRequest {
  name: string;
  push_access_level?: Level;
  merge_access_level?: Level;
  unprotect_access_level?: Level;
  allow_force_push?: boolean;
  code_owner_approval_required?: boolean;
}

interface AccessEntry {
  id?: number;
  access_level?: number | null;
  user_id?: number | null;
  group_id?: number | null;
  deploy_key_id?: number | null;
}

interface ProtectedBranch {
  name: string;
  push_access_levels?: AccessEntry[];
  merge_access_levels?: AccessEntry[];
  /** Absent on the Community Edition, which has no unprotect levels. */
  unprotect_access_levels?: AccessEntry[];
  allow_force_push?: boolean;
  code_owner_approval_required?: boolean;
}

type Targets = Partial<Record<Kind, AccessEntry[]>>;

const isRole = (e: AccessEntry) => typeof e.access_level === 'number' && !e.user_id && !e.group_id && !e.deploy_key_id;
const entriesOf = (rule: ProtectedBranch, kind: Kind) => rule[`${kind}_access_levels`];

/** One entry as GitLab identifies it: who it grants, not its row id. */
function entryKey(e: AccessEntry): string {
  if (e.user_id) return `user ${e.user_id}`;
  if (e.group_id) return `group ${e.group_id}`;
  if (e.deploy_key_id) return `deploy key ${e.deploy_key_id}`;
  return `role ${e.access_level}`;
}

const keys = (entries: AccessEntry[] | undefined) => (entries ?? []).map(entryKey).sort();
const sameEntries = (a: AccessEntry[] | undefined, b: AccessEntry[] | undefined) =>
  a !== undefined && b !== undefined && keys(a).join('|') === keys(b).join('|');

/** The entries each kind should end with: the rule's own, its role entries replaced by a wanted level. */
function targetsFor(rule: ProtectedBranch, wanted: ProtectRequest): Targets {
  const targets: Targets = {};
  for (const kind of KINDS) {
    const current = entriesOf(rule, kind);
    const level = wanted[`${kind}_access_level`];
    if (current === undefined) continue;
    targets[kind] = level === undefined ? current : [...current.filter((e) => !isRole(e)), { access_level: level }];
  }
  return targets;
}

/** An entry as the allowed_to_* arrays take it. */
function entryParam(e: AccessEntry): Record<string, number> {
  if (e.user_id) return { user_id: e.user_id };
  if (e.group_id) return { group_id: e.group_id };
  if (e.deploy_key_id) return { deploy_key_id: e.deploy_key_id };
  return { access_level: e.access_level as number };
}

/** Kinds whose entries a plain `*_access_level` cannot express (several entries, or users, groups, deploy keys). */
const needsAllowedTo = (targets: Targets) => KINDS.filter((k) => targets[k] !== undefined && !(targets[k]!.length === 1 && isRole(targets[k]![0])));

/** POST body creating a rule with exactly these entries and flags. */
function postBody(name: string, targets: Targets, flags: { allow_force_push: boolean; code_owner_approval_required?: boolean }): Record<string, unknown> {
  const body: Record<string, unknown> = { name, allow_force_push: flags.allow_force_push };
  for (const kind of KINDS) {
    const entries = targets[kind];
    if (entries === undefined) continue;
    if (entries.length === 1 && isRole(entries[0])) body[`${kind}_access_level`] = entries[0].access_level;
    else body[`allowed_to_${kind}`] = entries.map(entryParam);
  }
  if (flags.code_owner_approval_required !== undefined) body.code_owner_approval_required = flags.code_owner_approval_required;
  return body;
}

/** What the forge did not do of what was asked, in words an agent can act on. */
function notApplied(rule: ProtectedBranch, targets: Targets, wanted: ProtectRequest, levelKinds: readonly Kind[]): string[] {
  const missed: string[] = [];
  for (const kind of levelKinds) {
    if (sameEntries(entriesOf(rule, kind), targets[kind])) continue;
    const got = entriesOf(rule, kind);
    missed.push(`${kind}_access_level (the forge ${got === undefined ? 'has no such level' : `kept ${keys(got).join(', ') || 'nothing'}`})`);
  }
  if (wanted.allow_force_push !== undefined && rule.allow_force_push !== wanted.allow_force_push) missed.push('allow_force_push');
  if (wanted.code_owner_approval_required !== undefined && rule.code_owner_approval_required !== wanted.code_owner_approval_required) {
    missed.push('code_owner_approval_required');
  }
  return missed;
}

/**
 * A code-owner approval the caller did not ask to change that GitLab turned off all the same (16.x EE
 * resets it on every PATCH that does not send it, gitlab-org/gitlab#422092; it is sent, so this is what
 * an instance still dropped, e.g. one whose licence no longer covers it).
 */
function codeOwnersLost(before: ProtectedBranch, after: ProtectedBranch, wanted: ProtectRequest): string[] {
  return wanted.code_owner_approval_required === undefined && before.code_owner_approval_required === true && after.code_owner_approval_required !== true
    ? ['code_owner_approval_required (GitLab turned it off; it was on)']
    : [];
}

const result = (action: string, rule: ProtectedBranch, missed: string[]) =>
  missed.length ? { action, protected_branch: rule, not_applied: missed } : { action, protected_branch: rule };

const levelsGiven = (wanted: ProtectRequest) => KINDS.filter((k) => wanted[`${k}_access_level`] !== undefined);

/**
 * GitLab.com offers no 60 (admin) for protected-branch levels (app/models/concerns/protected_ref_access.rb:
 * allowed_access_levels leaves ADMIN out there), so its 400 on a 60 the caller asked for says why.
 */
export async function protectOrUpdate(ctx: ToolContext, projectId: string, wanted: ProtectRequest) {
  try {
    return await protectOrUpdateRule(ctx, projectId, wanted);
  } catch (error) {
    if (
      error instanceof ToolError &&
      error.status === 400 &&
      /does not have a valid value/.test(error.message) &&
      KINDS.some((k) => wanted[`${k}_access_level`] === 60)
    ) {
      throw new ToolError(error.kind, `${error.message}; 60 (admin) is offered on self-managed GitLab only, not on GitLab.com`, 400);
    }
    throw error;
  }
}

async function protectOrUpdateRule(ctx: ToolContext, projectId: string, wanted: ProtectRequest) {
  const { forge } = ctx;
  // Both paths are filled before the first request, so a bad name never gets as far as the POST (D31).
  const base = fillPath('/projects/{project_id}/protected_branches', { project_id: projectId });
  const rulePath = fillPath('/projects/{project_id}/protected_branches/{branch_name}', { project_id: projectId, branch_name: wanted.name });
  await refusePaidOnCommunityEdition(ctx, [
    { parameter: 'unprotect_access_level', used: wanted.unprotect_access_level !== undefined },
    { parameter: 'code_owner_approval_required', used: wanted.code_owner_approval_required !== undefined },
  ]);
  const asked = levelsGiven(wanted);
  try {
    const created = await forge.json<ProtectedBranch>({ method: 'POST', path: base, body: createBody(wanted) });
    const targets: Targets = Object.fromEntries(asked.map((k) => [k, [{ access_level: wanted[`${k}_access_level`] }]]));
    return result('created', created, notApplied(created, targets, wanted, asked));
  } catch (error) {
    if (!(error instanceof ToolError) || error.status !== 409) throw error;
  }
  const existing = await forge.json<ProtectedBranch>({ method: 'GET', path: rulePath });
  const targets = targetsFor(existing, wanted);
  // A level the rule does not show is one this forge does not have (CE: unprotect): nothing to change there.
  const changing = asked.filter((k) => targets[k] !== undefined && !sameEntries(entriesOf(existing, k), targets[k]));
  const absent = asked.filter((k) => targets[k] === undefined);
  const flags: Record<string, unknown> = {};
  if (wanted.allow_force_push !== undefined && wanted.allow_force_push !== existing.allow_force_push) flags.allow_force_push = wanted.allow_force_push;
  if (wanted.code_owner_approval_required !== undefined && wanted.code_owner_approval_required !== existing.code_owner_approval_required) {
    flags.code_owner_approval_required = wanted.code_owner_approval_required;
  }
  if (changing.length === 0 && Object.keys(flags).length === 0) return result('unchanged', existing, notApplied(existing, targets, wanted, absent));

  const edition = changing.length > 0 && ctx.instance ? (await ctx.instance()).edition : null;
  // Set when GitLab answered a PATCH but left the levels alone: it ignores allowed_to_*, so a POST would too.
  let allowedToIgnored = edition === 'ce';
  if (changing.length === 0 || edition !== 'ce') {
    const patch: Record<string, unknown> = { ...flags };
    // GitLab 16.x EE declares code_owner_approval_required with `default: false` for the PATCH too
    // (ee/lib/ee/api/helpers/protected_branches_helpers.rb; gitlab-org/gitlab#422092): a PATCH without
    // it turns code-owner approval off. So the rule's own value is always sent when it is not changing.
    if (patch.code_owner_approval_required === undefined && typeof existing.code_owner_approval_required === 'boolean') {
      patch.code_owner_approval_required = existing.code_owner_approval_required;
    }
    for (const kind of changing) {
      const roles = (entriesOf(existing, kind) ?? []).filter(isRole);
      patch[`allowed_to_${kind}`] = [...roles.map((e) => ({ id: e.id, _destroy: true })), { access_level: wanted[`${kind}_access_level`] }];
    }
    try {
      const patched = await forge.json<ProtectedBranch>({ method: 'PATCH', path: rulePath, body: patch });
      const missed = [...notApplied(patched, targets, wanted, [...changing, ...absent]), ...codeOwnersLost(existing, patched, wanted)];
      // Levels GitLab ignored (no allowed_to_* on this instance) are changed by replacing the rule below.
      if (!changing.some((k) => !sameEntries(entriesOf(patched, k), targets[k]))) return result('updated', patched, missed);
      allowedToIgnored = true;
    } catch (error) {
      // Some builds refuse allowed_to_* outright; anything else (403, 404) is the caller's answer.
      if (!(error instanceof ToolError) || changing.length === 0 || error.kind !== 'validation') throw error;
    }
  }
  // On CE (or when the PATCH did not take) the replacement carries the flags too.
  return replaceRule(forge, base, rulePath, existing, targets, wanted, allowedToIgnored, [...changing, ...absent]);
}

function createBody(wanted: ProtectRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { name: wanted.name, allow_force_push: wanted.allow_force_push ?? false };
  for (const kind of KINDS) if (wanted[`${kind}_access_level`] !== undefined) body[`${kind}_access_level`] = wanted[`${kind}_access_level`];
  if (wanted.code_owner_approval_required !== undefined) body.code_owner_approval_required = wanted.code_owner_approval_required;
  return body;
}

async function replaceRule(
  forge: ForgeClient,
  base: string,
  rulePath: string,
  existing: ProtectedBranch,
  targets: Targets,
  wanted: ProtectRequest,
  allowedToIgnored: boolean,
  levelKinds: Kind[],
) {
  const oldTargets = targetsFor(existing, {} as ProtectRequest);
  const partial = needsAllowedTo(targets);
  if (allowedToIgnored && (partial.length > 0 || needsAllowedTo(oldTargets).length > 0)) {
    // Without allowed_to_* a POST takes one role level per kind: recreating (or restoring) would drop
    // the other entries. Refuse before unprotecting anything.
    const kinds = partial.length > 0 ? partial : needsAllowedTo(oldTargets);
    throw invalidArgument(
      `${kinds[0]}_access_level`,
      `the rule for ${existing.name} has ${kinds.map((k) => `${k} entries ${keys(entriesOf(existing, k)).join(', ')}`).join('; ')}, which this GitLab (no allowed_to_*, as on the Community Edition) cannot recreate; nothing was changed`,
    );
  }
  const flags = (w: ProtectRequest) => ({
    allow_force_push: w.allow_force_push ?? existing.allow_force_push ?? false,
    code_owner_approval_required: w.code_owner_approval_required ?? existing.code_owner_approval_required,
  });
  await forge.json({ method: 'DELETE', path: rulePath });
  let replaced: ProtectedBranch | undefined;
  let failure: unknown;
  try {
    replaced = await forge.json<ProtectedBranch>({ method: 'POST', path: base, body: postBody(existing.name, targets, flags(wanted)) });
    // A recreated rule that lost entries (allowed_to_* ignored) is no replacement: put the old one back.
    const lost = KINDS.filter((k) => targets[k] !== undefined && !sameEntries(entriesOf(replaced!, k), targets[k]));
    if (lost.length === 0)
      return result('replaced', replaced, [...notApplied(replaced, targets, wanted, levelKinds), ...codeOwnersLost(existing, replaced, wanted)]);
    failure = new ToolError(
      'mismatch',
      `GitLab recreated the rule without some of its entries (${lost.map((k) => `${k}: ${keys(targets[k]).join(', ')}`).join('; ')})`,
    );
    await forge.json({ method: 'DELETE', path: rulePath, restores: true });
  } catch (error) {
    failure ??= error;
  }
  const reason = failure instanceof Error ? failure.message : String(failure);
  try {
    // Putting the old rule back is sent even when the call's budget is spent (D30 with D20).
    await forge.json({ method: 'POST', path: base, body: postBody(existing.name, oldTargets, flags({} as ProtectRequest)), restores: true });
  } catch (restoreError) {
    const why = restoreError instanceof Error ? restoreError.message : String(restoreError);
    throw new ToolError(
      'upstream',
      `replacing the rule for ${existing.name} failed (${reason}) and restoring the old rule failed too (${why}); the branch is now unprotected`,
    );
  }
  const kind = failure instanceof ToolError ? failure.kind : 'upstream';
  const status = failure instanceof ToolError ? failure.status : null;
  throw new ToolError(kind, `could not change the rule for ${existing.name}: ${reason}; the previous rule was restored`, status);
}
