// Branches and branch protection rules.
import { compact, isRecord, pick, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S, list } from './schema-parts';

/** The head commit of a branch: which commit, and what it says. */
function headCommit(value: unknown): Rec | undefined {
  return isRecord(value) ? pick(value, ['id', 'title', 'author_name', 'committed_date']) : undefined;
}

export const branch: RecordKind = {
  about: 'A branch: its head commit and what the caller may do with it.',
  schema: fields({
    name: S,
    commit: fields({ id: S, title: S, author_name: S, committed_date: S }),
    default: B,
    protected: B,
    merged: B,
    can_push: B,
    developers_can_push: B,
    developers_can_merge: B,
    web_url: S,
  }),
  lean: (r) =>
    compact({
      name: r.name,
      commit: headCommit(r.commit),
      default: r.default,
      protected: r.protected,
      merged: r.merged,
      can_push: r.can_push,
      developers_can_push: r.developers_can_push,
      developers_can_merge: r.developers_can_merge,
      web_url: r.web_url,
    }),
};

/** An access entry of a rule: a role level, or a user, group or deploy key. */
function accessEntries(value: unknown): Rec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  // A role level's description only restates the level (40: Maintainers); a user's or group's names it.
  return value.map((e) => {
    if (!isRecord(e)) return e as Rec;
    const named = e.user_id != null || e.group_id != null || e.deploy_key_id != null;
    return pick(e, named ? ['access_level', 'access_level_description', 'user_id', 'group_id', 'deploy_key_id'] : ['access_level']);
  });
}

const ACCESS_ENTRIES = list(fields({ access_level: I, access_level_description: S, user_id: I, group_id: I, deploy_key_id: I }));

export const protectedBranch: RecordKind = {
  about: 'A branch protection rule (a name or wildcard) and who may push, merge and unprotect.',
  schema: fields({
    id: I,
    name: S,
    push_access_levels: ACCESS_ENTRIES,
    merge_access_levels: ACCESS_ENTRIES,
    unprotect_access_levels: ACCESS_ENTRIES,
    allow_force_push: B,
    code_owner_approval_required: B,
  }),
  lean: (r) =>
    compact({
      id: r.id,
      name: r.name,
      push_access_levels: accessEntries(r.push_access_levels),
      merge_access_levels: accessEntries(r.merge_access_levels),
      unprotect_access_levels: accessEntries(r.unprotect_access_levels),
      allow_force_push: r.allow_force_push,
      code_owner_approval_required: r.code_owner_approval_required,
    }),
};
