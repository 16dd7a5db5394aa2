// JSON shapes of the discovery records: Entities::Project (lib/api/entities/project.rb, the fields
// the fake knows), Entities::Group, Entities::Namespace, Entities::Member, Entities::UserBasic and
// Entities::User (lib/api/entities/user*.rb), Entities::Event (lib/api/entities/event.rb) and
// Entities::Label / ProjectLabel (lib/api/entities/label.rb, project_label.rb).
import { paidTier } from '../edition';
import type { ForgeModel, Group, Project, User } from '../model';
import type { ForgeEvent, Label } from '../model-discovery';
import { presentUser } from './present';

/** The access a user has to a project: its own membership or the highest of its groups' (GitLab's max_member_access). */
export function effectiveLevel(m: ForgeModel, p: Project, userId: number): number {
  const own = m.accessLevel(p, userId);
  const group = p.namespace.kind === 'user' ? undefined : m.groups.get(p.namespace.id);
  return Math.max(own, group ? m.groupAccessLevel(group, userId) : 0);
}

/** Can this user read the project (GitLab's read_project): members, or any signed-in user of an internal or public one. */
export function canRead(m: ForgeModel, p: Project, userId: number): boolean {
  return effectiveLevel(m, p, userId) > 0 || p.visibility !== 'private';
}

export function canReadGroup(m: ForgeModel, g: Group, userId: number): boolean {
  return g.visibility !== 'private' || m.groupAccessLevel(g, userId) > 0;
}

function namespaceOf(m: ForgeModel, p: Project) {
  const group = m.groups.get(p.namespace.id);
  if (group && p.namespace.kind !== 'user') {
    return {
      id: group.id,
      name: group.name,
      path: group.path,
      kind: 'group',
      full_path: group.full_path,
      parent_id: group.parent_id,
      avatar_url: null,
      web_url: group.web_url,
    };
  }
  const owner = [...m.users.values()].find((u) => m.discovery.users.get(u.id)?.namespaceId === p.namespace.id);
  return {
    id: p.namespace.id,
    name: owner?.name ?? p.namespace.full_path,
    path: p.namespace.full_path,
    kind: 'user',
    full_path: p.namespace.full_path,
    parent_id: null,
    avatar_url: null,
    web_url: `${m.webBase}/${p.namespace.full_path}`,
  };
}

export interface ProjectOptions {
  license?: boolean;
  statistics?: boolean;
  userId?: number;
}

/** Entities::Project as a signed-in user sees it (the fields this fake models). */
export function presentProjectDetails(m: ForgeModel, p: Project, opts: ProjectOptions = {}) {
  const facts = m.discovery.projects.get(p.id);
  const parent = p.forked_from_project_id === undefined ? undefined : m.projects.get(p.forked_from_project_id);
  const openIssues = [...p.issues.values()].filter((i) => i.state === 'opened').length;
  const out: Record<string, unknown> = {
    id: p.id,
    description: facts?.description ?? null,
    name: p.name,
    name_with_namespace: p.path_with_namespace.split('/').join(' / '),
    path: p.path,
    path_with_namespace: p.path_with_namespace,
    created_at: facts?.created_at ?? '2023-12-30T10:00:00.000Z',
    default_branch: p.default_branch,
    tag_list: facts?.topics ?? [],
    topics: facts?.topics ?? [],
    ssh_url_to_repo: `git@${new URL(m.webBase).host}:${p.path_with_namespace}.git`,
    http_url_to_repo: `${p.web_url}.git`,
    web_url: p.web_url,
    readme_url: `${p.web_url}/-/blob/${p.default_branch}/README.md`,
    forks_count: [...m.projects.values()].filter((x) => x.forked_from_project_id === p.id).length,
    avatar_url: null,
    star_count: facts?.star_count ?? 0,
    last_activity_at: facts?.last_activity_at ?? '2024-01-31T12:00:00.000Z',
    namespace: namespaceOf(m, p),
    _links: { self: `${m.webBase}/api/v4/projects/${p.id}`, issues: `${m.webBase}/api/v4/projects/${p.id}/issues` },
    empty_repo: p.branches.size === 0,
    archived: facts?.archived ?? false,
    visibility: p.visibility,
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    open_issues_count: openIssues,
    creator_id: 1,
    import_status: 'none',
    shared_runners_enabled: true,
    lfs_enabled: true,
    request_access_enabled: true,
    merge_method: 'merge',
    squash_option: 'default_off',
    ci_config_path: null,
    only_allow_merge_if_pipeline_succeeds: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    printing_merge_request_link_enabled: true,
    shared_with_groups: [],
  };
  if (parent) {
    out.forked_from_project = {
      id: parent.id,
      name: parent.name,
      name_with_namespace: parent.path_with_namespace.split('/').join(' / '),
      path: parent.path,
      path_with_namespace: parent.path_with_namespace,
      http_url_to_repo: `${parent.web_url}.git`,
      web_url: parent.web_url,
    };
  }
  if (opts.userId !== undefined) {
    const own = m.accessLevel(p, opts.userId);
    const group = m.groups.get(p.namespace.id);
    const groupLevel = group && p.namespace.kind !== 'user' ? m.groupAccessLevel(group, opts.userId) : 0;
    out.permissions = {
      project_access: own ? { access_level: own, notification_level: 3 } : null,
      group_access: groupLevel ? { access_level: groupLevel, notification_level: 3 } : null,
    };
  }
  if (opts.license) {
    const license = facts?.license ?? null;
    out.license_url = license ? `${p.web_url}/-/blob/${p.default_branch}/LICENSE` : null;
    out.license = license;
  }
  if (opts.statistics) {
    out.statistics = {
      commit_count: p.commits.size,
      storage_size: 1_048_576,
      repository_size: 917_504,
      wiki_size: 0,
      lfs_objects_size: 0,
      job_artifacts_size: 131_072,
      packages_size: 0,
      snippets_size: 0,
    };
  }
  return out;
}

/** Entities::Group (a list's item; GET /groups/:id adds details). */
export function presentGroup(m: ForgeModel, g: Group) {
  return {
    id: g.id,
    web_url: g.web_url,
    name: g.name,
    path: g.path,
    description: g.path === 'acme' ? 'Acme Corporation' : `The ${g.name} teams`,
    visibility: g.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: false,
    mentions_disabled: null,
    lfs_enabled: true,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: true,
    full_name: g.full_path
      .split('/')
      .map((part) => m.findGroup(part)?.name ?? part)
      .join(' / '),
    full_path: g.full_path,
    created_at: '2023-06-01T09:00:00.000Z',
    parent_id: g.parent_id,
  };
}

/** Entities::Namespace; EE adds the plan and seat counts of a top-level namespace (ee/lib/ee/api/entities/namespace.rb). */
export function presentNamespace(
  m: ForgeModel,
  ns: { id: number; name: string; path: string; kind: 'user' | 'group'; full_path: string; parent_id: number | null; web_url: string },
) {
  const out: Record<string, unknown> = {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.full_path,
    parent_id: ns.parent_id,
    avatar_url: null,
    web_url: ns.web_url,
  };
  if (ns.kind === 'group') out.members_count_with_descendants = 3;
  if (paidTier(m) && ns.parent_id === null) {
    out.billable_members_count = 3;
    out.plan = m.edition === 'gitlab.com' ? 'premium' : 'default';
    out.trial_ends_on = null;
    out.trial = false;
  }
  return out;
}

export function groupNamespace(g: Group) {
  return { id: g.id, name: g.name, path: g.path, kind: 'group' as const, full_path: g.full_path, parent_id: g.parent_id, web_url: g.web_url };
}

export function userNamespace(m: ForgeModel, u: User) {
  const id = m.discovery.users.get(u.id)?.namespaceId ?? u.id + 10;
  return { id, name: u.name, path: u.username, kind: 'user' as const, full_path: u.username, parent_id: null, web_url: `${m.webBase}/${u.username}` };
}

/** Entities::UserBasic with the state GitLab keeps (blocked users included). */
export function presentUserBasic(m: ForgeModel, u: User) {
  const facts = m.discovery.users.get(u.id);
  return { ...presentUser(m, u), state: facts?.state ?? 'active', locked: false };
}

/** Entities::User as GET /users/:id shows it to a signed-in non-admin. */
export function presentUserDetails(m: ForgeModel, u: User) {
  const facts = m.discovery.users.get(u.id);
  return {
    ...presentUserBasic(m, u),
    created_at: facts?.created_at ?? '2023-06-01T09:00:00.000Z',
    bio: facts?.bio ?? '',
    location: '',
    public_email: '',
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: '',
    organization: '',
    job_title: facts?.job_title ?? '',
    bot: facts?.bot ?? false,
  };
}

/** Entities::Member: the user, the access level and when it ends. */
export function presentMember(m: ForgeModel, u: User, level: number) {
  const facts = m.discovery.users.get(u.id);
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    state: facts?.state ?? 'active',
    avatar_url: `${m.webBase}/uploads/-/system/user/avatar/${u.id}/avatar.png`,
    web_url: `${m.webBase}/${u.username}`,
    access_level: level,
    created_at: '2023-12-30T10:00:00.000Z',
    expires_at: null,
  };
}

export function presentEvent(m: ForgeModel, e: ForgeEvent) {
  const author = m.users.get(e.author_id)!;
  const out: Record<string, unknown> = {
    id: e.id,
    project_id: e.project_id,
    action_name: e.action_name,
    target_id: e.target_id,
    target_iid: e.target_iid,
    target_type: e.target_type,
    author_id: e.author_id,
    target_title: e.target_title,
    created_at: e.created_at,
    author: presentUser(m, author),
    author_username: author.username,
  };
  if (e.push_data) out.push_data = { ...e.push_data };
  if (e.note)
    out.note = {
      ...e.note,
      type: null,
      author: presentUser(m, author),
      created_at: e.created_at,
      updated_at: e.created_at,
      system: false,
      resolvable: false,
      confidential: false,
      internal: false,
    };
  return out;
}

export interface LabelCounts {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
}

/** Entities::ProjectLabel (is_project_label, priority) or GroupLabel; counts with with_counts=true. */
export function presentLabel(l: Label, kind: 'project' | 'group', counts?: LabelCounts, inProject = true) {
  const out: Record<string, unknown> = {
    id: l.id,
    name: l.name,
    description: l.description,
    description_html: l.description ?? '',
    text_color: textColor(l.color),
    color: l.color,
    subscribed: false,
  };
  if (inProject) Object.assign(out, { priority: l.priority, is_project_label: kind === 'project' });
  if (counts) Object.assign(out, counts);
  return out;
}

/** GitLab picks black or white text for a label's colour (LabelsHelper#text_color_for_bg). */
function textColor(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return '#FFFFFF';
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#333333' : '#FFFFFF';
}
