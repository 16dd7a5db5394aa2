// Protected branches: list, get, protect (POST), update (PATCH), unprotect (DELETE).
import type { AccessEntry, ForgeModel, Project, ProtectedBranch } from '../model';
import type { Ctx } from './http';
import { ACCESS, ApiError, json, loadProject, notFound, paramError, requireLevel, route, type Route } from './http';
import { atLeast, paidTier } from '../edition';
import { listResponse } from './paginate';
import { presentProtected } from './present';

const LEVELS = [0, 30, 40, 60];
const KINDS = ['push', 'merge', 'unprotect'] as const;
type Kind = (typeof KINDS)[number];

/**
 * ProtectedBranch::UnprotectAccessLevel.allowed_access_levels drops NO_ACCESS (a rule nobody could
 * unprotect), so Grape refuses unprotect_access_level 0 like an unknown level.
 */
const UNPROTECT_LEVELS = LEVELS.filter((l) => l !== 0);

/**
 * ProtectedRefAccess.allowed_access_levels (app/models/concerns/protected_ref_access.rb) leaves out
 * ADMIN (60) on GitLab.com, and the API declares each level with `values:` from it: 60 is a 400 there,
 * for push, merge and unprotect levels and in allowed_to_* entries alike.
 */
const offered = (m: ForgeModel, levels: number[]) => (m.edition === 'gitlab.com' ? levels.filter((l) => l !== ACCESS.admin) : levels);

function level(ctx: Ctx, name: string): number | undefined {
  const v = ctx.input.int(name);
  const allowed = offered(ctx.model, name === 'unprotect_access_level' ? UNPROTECT_LEVELS : LEVELS);
  if (v !== undefined && !allowed.includes(v)) throw paramError(`${name} does not have a valid value`);
  return v;
}

/**
 * unprotect_access_level, allowed_to_* and code_owner_approval_required are declared only in GitLab's
 * EE code (ee/lib/ee/api/helpers/protected_branches_helpers.rb, optional_params_ee); on CE the
 * params block is empty (lib/api/helpers/protected_branches_helpers.rb), so Grape drops them unread.
 */
function eeParam(ctx: Ctx, name: string): unknown {
  return paidTier(ctx.model) ? ctx.input.raw(name) : undefined;
}

function allowedTo(ctx: Ctx, kind: Kind): Record<string, unknown>[] | undefined {
  const key = `allowed_to_${kind}`;
  const v = eeParam(ctx, key);
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((e) => typeof e === 'object' && e !== null)) throw paramError(`${key} is invalid`);
  return list as Record<string, unknown>[];
}

function toInt(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) ? n : null;
}

function entry(m: ForgeModel, key: string, raw: Record<string, unknown>): AccessEntry {
  const user_id = toInt(raw.user_id);
  const group_id = toInt(raw.group_id);
  const deploy_key_id = key.endsWith('push') ? toInt(raw.deploy_key_id) : null;
  let access_level = toInt(raw.access_level);
  if (user_id !== null || group_id !== null || deploy_key_id !== null) access_level = access_level ?? ACCESS.maintainer;
  if (access_level === null || !offered(m, LEVELS).includes(access_level)) throw paramError(`${key}[access_level] does not have a valid value`);
  return { id: m.nextId.accessLevel++, access_level, user_id, group_id, deploy_key_id };
}

/** Apply Premium-style edits: {id, _destroy} removes, {id, access_level} updates, anything else adds. */
function applyEdits(m: ForgeModel, list: AccessEntry[], key: string, edits: Record<string, unknown>[]): AccessEntry[] {
  let out = [...list];
  for (const e of edits) {
    const id = toInt(e.id);
    const existing = id !== null ? out.find((x) => x.id === id) : undefined;
    if (existing && (e._destroy === true || e._destroy === 'true' || e._destroy === '1')) out = out.filter((x) => x !== existing);
    else if (existing) Object.assign(existing, { ...entry(m, key, { ...existing, ...e }), id: existing.id });
    else out.push(entry(m, key, e));
  }
  return out;
}

/**
 * GitLab 16.x EE declares code_owner_approval_required for POST and PATCH alike with `default: false`
 * (ee/lib/ee/api/helpers/protected_branches_helpers.rb, optional_params_ee), so a PATCH that does not
 * send it turns code-owner approval off (gitlab-org/gitlab#422092); later releases declare it without a
 * default, and a PATCH without it leaves it alone.
 */
const patchResetsCodeOwners = (m: ForgeModel) => paidTier(m) && !atLeast(m, 17, 0);

function findRule(ctx: Ctx, p: Project): ProtectedBranch {
  const r = p.protectedBranches.find((x) => x.name === ctx.params.name);
  if (!r) throw notFound();
  return r;
}

export const protectedRoutes: Route[] = [
  route('GET', '/projects/:id/protected_branches', (ctx) => {
    const p = loadProject(ctx);
    const search = ctx.input.str('search')?.toLowerCase();
    const rules = p.protectedBranches.filter((r) => !search || r.name.toLowerCase().includes(search));
    return listResponse(ctx, rules, (r) => presentProtected(ctx.model, r));
  }),

  route('GET', '/projects/:id/protected_branches/:name', (ctx) => {
    const p = loadProject(ctx);
    return json(presentProtected(ctx.model, findRule(ctx, p)));
  }),

  route('POST', '/projects/:id/protected_branches', (ctx) => {
    const p = loadProject(ctx);
    const m = ctx.model;
    const name = ctx.input.required('name');
    const levels = {
      push: level(ctx, 'push_access_level'),
      merge: level(ctx, 'merge_access_level'),
      unprotect: eeParam(ctx, 'unprotect_access_level') === undefined ? undefined : level(ctx, 'unprotect_access_level'),
    };
    const allowForcePush = ctx.input.bool('allow_force_push') ?? false;
    const codeOwners = (eeParam(ctx, 'code_owner_approval_required') === undefined ? undefined : ctx.input.bool('code_owner_approval_required')) ?? false;
    const allowed = Object.fromEntries(KINDS.map((k) => [k, allowedTo(ctx, k)])) as Record<Kind, Record<string, unknown>[] | undefined>;
    requireLevel(ctx, p, ACCESS.maintainer);
    if (p.protectedBranches.some((r) => r.name === name)) throw new ApiError(409, { message: `Protected branch '${name}' already exists` });
    if (name.trim() === '') throw new ApiError(422, { message: ["Name can't be blank"] });
    const entries = (k: Kind): AccessEntry[] => {
      const list = levels[k] !== undefined ? [entry(m, `${k}_access_level`, { access_level: levels[k] })] : [];
      list.push(...(allowed[k] ?? []).map((e) => entry(m, `allowed_to_${k}`, e)));
      return list.length ? list : [entry(m, `${k}_access_level`, { access_level: ACCESS.maintainer })];
    };
    const rule: ProtectedBranch = {
      id: m.nextId.protectedBranch++,
      name,
      push: entries('push'),
      merge: entries('merge'),
      unprotect: entries('unprotect'),
      allow_force_push: allowForcePush,
      code_owner_approval_required: codeOwners,
    };
    p.protectedBranches.push(rule);
    return json(presentProtected(m, rule), 201);
  }),

  // CE's PATCH changes allow_force_push only; levels change through the EE allowed_to_* arrays.
  route('PATCH', '/projects/:id/protected_branches/:name', (ctx) => {
    const p = loadProject(ctx);
    const allowForcePush = ctx.input.bool('allow_force_push');
    const codeOwners =
      eeParam(ctx, 'code_owner_approval_required') === undefined
        ? patchResetsCodeOwners(ctx.model)
          ? false
          : undefined
        : ctx.input.bool('code_owner_approval_required');
    const allowed = KINDS.map((k) => [k, allowedTo(ctx, k)] as const);
    requireLevel(ctx, p, ACCESS.maintainer);
    const r = findRule(ctx, p);
    if (allowForcePush !== undefined) r.allow_force_push = allowForcePush;
    if (codeOwners !== undefined) r.code_owner_approval_required = codeOwners;
    for (const [k, edits] of allowed) if (edits) r[k] = applyEdits(ctx.model, r[k], `allowed_to_${k}`, edits);
    return json(presentProtected(ctx.model, r));
  }),

  route('DELETE', '/projects/:id/protected_branches/:name', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.maintainer);
    const r = findRule(ctx, p);
    p.protectedBranches = p.protectedBranches.filter((x) => x !== r);
    return new Response(null, { status: 204 });
  }),
];
