// protect_branch's real behaviour (D20): create the rule; when one exists, update it.
// GitLab's PATCH changes push/merge/unprotect levels only through `allowed_to_*` entries on paid
// tiers (free tiers ignore or refuse them), so a level change is tried with PATCH, checked, and
// otherwise done by replacing the rule — putting the old one back if the new one is refused.
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { ToolError } from '../errors';

type Level = 0 | 30 | 40 | 60;
const LEVELS = ['push', 'merge', 'unprotect'] as const;
type LevelName = (typeof LEVELS)[number];

export interface ProtectRequest {
  name: string;
  push_access_level?: Level;
  merge_access_level?: Level;
  unprotect_access_level?: Level;
  allow_force_push?: boolean;
  code_owner_approval_required?: boolean;
}

interface AccessEntry {
  id?: number;
  access_level: number | null;
  user_id?: number | null;
  group_id?: number | null;
  deploy_key_id?: number | null;
}

interface ProtectedBranch {
  name: string;
  push_access_levels?: AccessEntry[];
  merge_access_levels?: AccessEntry[];
  unprotect_access_levels?: AccessEntry[];
  allow_force_push?: boolean;
  code_owner_approval_required?: boolean;
}

function roleEntries(rule: ProtectedBranch, level: LevelName): AccessEntry[] {
  return (rule[`${level}_access_levels`] ?? []).filter((e) => e.access_level !== null && !e.user_id && !e.group_id && !e.deploy_key_id);
}

/** The rule's role-based level, when it has exactly one (what POST creates). */
function currentLevel(rule: ProtectedBranch, level: LevelName): number | undefined {
  const entries = roleEntries(rule, level);
  return entries.length === 1 ? (entries[0].access_level as number) : undefined;
}

function levelsMatch(rule: ProtectedBranch, wanted: ProtectRequest): boolean {
  return LEVELS.every((l) => wanted[`${l}_access_level`] === undefined || currentLevel(rule, l) === wanted[`${l}_access_level`]);
}

/** POST body that recreates `rule` with `wanted` applied on top (omitted values keep the old ones). */
function recreateBody(rule: ProtectedBranch, wanted: ProtectRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { name: rule.name };
  for (const l of LEVELS) {
    const value = wanted[`${l}_access_level`] ?? currentLevel(rule, l);
    if (value !== undefined) body[`${l}_access_level`] = value;
  }
  body.allow_force_push = wanted.allow_force_push ?? rule.allow_force_push ?? false;
  const codeOwners = wanted.code_owner_approval_required ?? rule.code_owner_approval_required;
  if (codeOwners !== undefined) body.code_owner_approval_required = codeOwners;
  return body;
}

function createBody(wanted: ProtectRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { name: wanted.name, allow_force_push: wanted.allow_force_push ?? false };
  for (const l of LEVELS) if (wanted[`${l}_access_level`] !== undefined) body[`${l}_access_level`] = wanted[`${l}_access_level`];
  if (wanted.code_owner_approval_required !== undefined) body.code_owner_approval_required = wanted.code_owner_approval_required;
  return body;
}

export async function protectOrUpdate(forge: ForgeClient, projectId: string, wanted: ProtectRequest) {
  // Both paths are filled before the first request, so a bad name never gets as far as the POST (D31).
  const base = fillPath('/projects/{project_id}/protected_branches', { project_id: projectId });
  const rulePath = fillPath('/projects/{project_id}/protected_branches/{branch_name}', { project_id: projectId, branch_name: wanted.name });
  try {
    const created = await forge.json<ProtectedBranch>({ method: 'POST', path: base, body: createBody(wanted) });
    return { action: 'created', protected_branch: created };
  } catch (error) {
    if (!(error instanceof ToolError) || error.status !== 409) throw error;
  }
  const existing = await forge.json<ProtectedBranch>({ method: 'GET', path: rulePath });
  const changesLevels = !levelsMatch(existing, wanted);

  const patch: Record<string, unknown> = {};
  if (wanted.allow_force_push !== undefined) patch.allow_force_push = wanted.allow_force_push;
  if (wanted.code_owner_approval_required !== undefined) patch.code_owner_approval_required = wanted.code_owner_approval_required;
  if (changesLevels) {
    for (const l of LEVELS) {
      const level = wanted[`${l}_access_level`];
      if (level === undefined) continue;
      patch[`allowed_to_${l}`] = [...roleEntries(existing, l).map((e) => ({ id: e.id, _destroy: true })), { access_level: level }];
    }
  }
  if (Object.keys(patch).length === 0) return { action: 'unchanged', protected_branch: existing };

  try {
    const patched = await forge.json<ProtectedBranch>({ method: 'PATCH', path: rulePath, body: patch });
    if (!changesLevels || levelsMatch(patched, wanted)) return { action: 'updated', protected_branch: patched };
  } catch (error) {
    // Free tiers refuse allowed_to_* outright; anything else (403, 404) is the caller's answer.
    if (!(error instanceof ToolError) || !changesLevels || error.kind !== 'validation') throw error;
  }
  return replaceRule(forge, base, rulePath, existing, wanted);
}

async function replaceRule(forge: ForgeClient, base: string, rulePath: string, existing: ProtectedBranch, wanted: ProtectRequest) {
  await forge.json({ method: 'DELETE', path: rulePath });
  try {
    const replaced = await forge.json<ProtectedBranch>({ method: 'POST', path: base, body: recreateBody(existing, wanted) });
    return { action: 'replaced', protected_branch: replaced };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    try {
      // Putting the old rule back is sent even when the call's budget is spent (D30 with D20).
      await forge.json({ method: 'POST', path: base, body: recreateBody(existing, {} as ProtectRequest), restores: true });
    } catch (restoreError) {
      const why = restoreError instanceof Error ? restoreError.message : String(restoreError);
      throw new ToolError('upstream', `replacing the rule for ${existing.name} failed (${reason}) and restoring the old rule failed too (${why}); the branch is now unprotected`);
    }
    const kind = error instanceof ToolError ? error.kind : 'upstream';
    const status = error instanceof ToolError ? error.status : null;
    throw new ToolError(kind, `could not change the rule for ${existing.name}: ${reason}; the previous rule was restored`, status);
  }
}
