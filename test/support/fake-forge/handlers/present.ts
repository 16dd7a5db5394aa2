// JSON shapes of GitLab entities (field order follows GitLab's API entities).
import { paidTier } from '../edition';
import type { AccessEntry, Commit, CommitStatus, ForgeModel, Project, ProtectedBranch, User } from '../model';

export function presentUser(m: ForgeModel, u: User) {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    state: 'active',
    locked: false,
    avatar_url: `${m.webBase}/uploads/-/system/user/avatar/${u.id}/avatar.png`,
    web_url: `${m.webBase}/${u.username}`,
  };
}

export function presentProject(p: Project) {
  return {
    id: p.id,
    name: p.name,
    path: p.path,
    path_with_namespace: p.path_with_namespace,
    name_with_namespace: p.path_with_namespace.split('/').join(' / '),
    default_branch: p.default_branch,
    visibility: p.visibility,
    web_url: p.web_url,
    namespace: { kind: 'group', ...p.namespace },
  };
}

export function stats(c: Commit) {
  let additions = 0;
  let deletions = 0;
  for (const d of c.diffs)
    for (const line of d.diff.split('\n')) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
    }
  return { additions, deletions, total: additions + deletions };
}

export interface CommitOpts {
  trailers?: boolean;
  stats?: boolean;
}

export function presentCommit(p: Project, c: Commit, opts: CommitOpts = {}) {
  const trailers = opts.trailers ? { ...c.trailers } : {};
  const extended = Object.fromEntries(Object.entries(trailers).map(([k, v]) => [k, [v]]));
  const out: Record<string, unknown> = {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committed_date,
    parent_ids: [...c.parent_ids],
    title: c.title,
    message: c.message,
    author_name: c.author_name,
    author_email: c.author_email,
    authored_date: c.authored_date,
    committer_name: c.committer_name,
    committer_email: c.committer_email,
    committed_date: c.committed_date,
    trailers,
    extended_trailers: extended,
    web_url: `${p.web_url}/-/commit/${c.id}`,
  };
  if (opts.stats) out.stats = stats(c);
  return out;
}

/** `defaultReach` (commits reachable from the default branch) lets list calls compute it once. */
export function presentBranch(m: ForgeModel, p: Project, userId: number, name: string, defaultReach?: Set<string>) {
  const sha = p.branches.get(name)!;
  const rules = m.matchingRules(p, name);
  const isDefault = name === p.default_branch;
  const defaultHead = p.branches.get(p.default_branch);
  const reach = defaultReach ?? (defaultHead ? m.reachable(p, [defaultHead]) : new Set<string>());
  const devCan = (kind: 'push' | 'merge') => rules.some((r) => r[kind].some((e) => e.access_level === 30 && e.user_id === null && e.group_id === null));
  return {
    name,
    commit: presentCommit(p, p.commits.get(sha)!, { trailers: true }),
    merged: !isDefault && reach.has(sha),
    protected: rules.length > 0,
    developers_can_push: devCan('push'),
    developers_can_merge: devCan('merge'),
    can_push: m.canPush(p, userId, name),
    default: isDefault,
    web_url: `${p.web_url}/-/tree/${name}`,
  };
}

const LEVEL_NAMES: Record<number, string> = { 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Admins' };

/**
 * Entities::ProtectedRefAccess (lib/api/entities/protected_ref_access.rb): deploy_key_id where the
 * access kind has one (push); user_id and group_id come from EE (ee/lib/ee/api/entities/protected_ref_access.rb).
 */
function presentAccess(m: ForgeModel, e: AccessEntry, withDeployKey: boolean) {
  const user = e.user_id !== null ? m.users.get(e.user_id) : undefined;
  const description = user
    ? user.name
    : e.group_id !== null
      ? `Group ${e.group_id}`
      : e.deploy_key_id
        ? `Deploy key ${e.deploy_key_id}`
        : (LEVEL_NAMES[e.access_level] ?? String(e.access_level));
  const out: Record<string, unknown> = { id: e.id, access_level: e.access_level, access_level_description: description };
  if (withDeployKey) out.deploy_key_id = e.deploy_key_id ?? null;
  if (paidTier(m)) Object.assign(out, { user_id: e.user_id, group_id: e.group_id });
  return out;
}

/** Entities::ProtectedBranch; unprotect levels and code owner approval are EE's (ee/lib/ee/api/entities/protected_branch.rb). */
export function presentProtected(m: ForgeModel, r: ProtectedBranch) {
  const out: Record<string, unknown> = {
    id: r.id,
    name: r.name,
    push_access_levels: r.push.map((e) => presentAccess(m, e, true)),
    merge_access_levels: r.merge.map((e) => presentAccess(m, e, false)),
    allow_force_push: r.allow_force_push,
  };
  if (paidTier(m)) {
    out.unprotect_access_levels = r.unprotect.map((e) => presentAccess(m, e, false));
    out.code_owner_approval_required = r.code_owner_approval_required;
  }
  return out;
}

export function presentStatus(m: ForgeModel, s: CommitStatus) {
  const u = m.users.get(s.authorId);
  return {
    id: s.id,
    sha: s.sha,
    ref: s.ref,
    status: s.status,
    name: s.name,
    target_url: s.target_url,
    description: s.description,
    created_at: s.created_at,
    started_at: s.started_at,
    finished_at: s.finished_at,
    allow_failure: s.allow_failure,
    coverage: s.coverage,
    author: u ? presentUser(m, u) : null,
    pipeline_id: s.pipeline_id,
  };
}

/** Composite status of a set of jobs, roughly as GitLab computes a pipeline status. */
export function compositeStatus(statuses: CommitStatus[]): string | null {
  if (statuses.length === 0) return null;
  const has = (st: string) => statuses.some((s) => s.status === st);
  if (has('running') || (has('pending') && statuses.some((s) => s.status !== 'pending'))) return 'running';
  if (has('pending')) return 'pending';
  if (statuses.some((s) => s.status === 'failed' && !s.allow_failure)) return 'failed';
  if (has('canceled')) return 'canceled';
  if (statuses.every((s) => s.status === 'skipped')) return 'skipped';
  return 'success';
}
