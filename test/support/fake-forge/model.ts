// In-memory model of the fake GitLab forge. Plain data plus read helpers; HTTP semantics
// (status codes, error bodies, permissions) live in handlers/.
import { IssueTracker } from './model-issues';
import { MergeRequestReviews } from './model-merge-requests';
import { Discovery } from './model-discovery';
import { ReleaseStore } from './model-releases';
import { WorkItemStore } from './model-work-items';
import type { Edition, Version } from './edition';

export const ACCESS = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50, admin: 60 } as const;

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
}

export interface TokenInfo {
  userId: number;
  /** 'job' tokens are only accepted through the JOB-TOKEN header (or job_token=). */
  kind: 'personal' | 'job';
  /**
   * Which credential GitLab sees (fake-forge/tokens.ts): a classic personal access token (the
   * default), a fine-grained one, a project or group access token (a PAT of a bot user), an OAuth
   * access token. Job tokens are `kind: 'job'`.
   */
  type?: 'classic' | 'fine-grained' | 'project' | 'group' | 'oauth';
  /** Classic, project, group and OAuth tokens: GitLab's scopes (default ['api']). */
  scopes?: string[];
  /** Fine-grained tokens: the permissions granted, `read_user`, `read_issue`, `create_issue`, … */
  permissions?: string[];
  /** `YYYY-MM-DD`: from that day (midnight UTC) GitLab refuses the token. */
  expiresAt?: string | null;
  /** The token's id and name in /personal_access_tokens/self. */
  id?: number;
  name?: string;
}

export interface DiffFile {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
  /** GitLab empties the diff of a file over its patch limit (too_large) or folded away (collapsed). */
  too_large?: boolean;
  collapsed?: boolean;
}

export interface Commit {
  id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  parent_ids: string[];
  trailers: Record<string, string>;
  diffs: DiffFile[];
}

export interface AccessEntry {
  id: number;
  access_level: number;
  user_id: number | null;
  group_id: number | null;
  /** Push entries only (EE allowed_to_push; shown from GitLab 16.0). */
  deploy_key_id?: number | null;
}

export interface ProtectedBranch {
  id: number;
  name: string; // exact name or wildcard pattern such as release/*
  push: AccessEntry[];
  merge: AccessEntry[];
  unprotect: AccessEntry[];
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
}

export interface BlameRange {
  commitId: string;
  lines: string[];
}

export interface RepoFile {
  path: string;
  /** The file exists at a ref only when this commit is reachable from it. */
  introducedBy: string;
  blame: BlameRange[];
}

export interface CommitStatus {
  id: number;
  sha: string;
  ref: string;
  status: string;
  name: string;
  stage: string;
  target_url: string | null;
  description: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  allow_failure: boolean;
  coverage: number | null;
  authorId: number;
  pipeline_id: number;
  /** Superseded by a newer status of the same name in the same pipeline (hidden unless all=true). */
  retried: boolean;
}

export interface Milestone {
  id: number;
  iid: number;
  /** Exactly one of project_id / group_id is set. */
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string;
  state: 'active' | 'closed';
  due_date: string | null;
  start_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  author_id: number;
  assignee_ids: number[];
  labels: string[];
  /** Global id of a project or group milestone. */
  milestone_id: number | null;
  issue_type: 'issue' | 'incident' | 'test_case' | 'task';
  weight: number | null;
  confidential: boolean;
  discussion_locked: boolean;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  closed_by_id: number | null;
}

/** Just enough of a merge request for the milestone endpoints. */
export interface MergeRequest {
  id: number;
  iid: number;
  /** The target project, where the merge request lives (GitLab's project_id is its target_project_id). */
  project_id: number;
  /** The project its source branch is in, a fork of the target's fork network; absent: the target itself. */
  source_project_id?: number;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged';
  source_branch: string;
  target_branch: string;
  author_id: number;
  /** Global id of a project or group milestone. */
  milestone_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface Group {
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: 'private' | 'internal' | 'public';
  web_url: string;
  /** user id → access level (inherited by subgroups and projects below). */
  members: Map<number, number>;
  milestones: Milestone[];
}

export interface Project {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  default_branch: string;
  visibility: 'private' | 'internal' | 'public';
  web_url: string;
  /** kind: GitLab's namespace kind, `user` for a personal namespace (absent: a group). */
  namespace: { id: number; full_path: string; kind?: 'user' | 'group' };
  /** user id → access level */
  members: Map<number, number>;
  branches: Map<string, string>; // name → sha
  tags: Map<string, string>; // name → sha
  commits: Map<string, Commit>;
  protectedBranches: ProtectedBranch[];
  files: Map<string, RepoFile>;
  statuses: CommitStatus[];
  /** iid → issue */
  issues: Map<number, Issue>;
  milestones: Milestone[];
  mergeRequests: MergeRequest[];
  /** The project this one was forked from (GitLab's forked_from_project); absent: not a fork. */
  forked_from_project_id?: number;
}

/** Glob match used by GitLab's protected ref rules: `*` matches any run of characters, `/` included. */
const globCache = new Map<string, RegExp>();
export function wildcardMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  let re = globCache.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    globCache.set(pattern, re);
  }
  return re.test(name);
}

export class ForgeModel {
  webBase = 'http://forge.test';
  /** Which GitLab this fake plays (edition.ts, docs/forge-editions.md); tests may switch it. */
  edition: Edition = 'ee-premium';
  version: Version = '17.6.0';
  /** Shorthand kept for older tests: a licensed paid tier (`ee-premium`, `gitlab.com`). */
  get premium(): boolean {
    return this.edition === 'ee-premium' || this.edition === 'gitlab.com';
  }
  set premium(paid: boolean) {
    this.edition = paid ? 'ee-premium' : 'ce';
  }
  users = new Map<number, User>();
  tokens = new Map<string, TokenInfo>();
  projects = new Map<number, Project>();
  groups = new Map<number, Group>();
  /** Notes, discussions, issue links, award emoji and to-dos (model-issues.ts). */
  tracker = new IssueTracker();
  /** Merge request review state: versions, approvals, diff positions, draft notes (model-merge-requests.ts). */
  reviews = new MergeRequestReviews();
  /** Tags' messages, protected tags, releases with their links, project and group wikis (model-releases.ts). */
  releases = new ReleaseStore();
  /** Work items of the GraphQL API (model-work-items.ts). */
  workItems = new WorkItemStore();
  /** GitLab's GraphQL limits for a signed-in caller (app/graphql/gitlab_schema.rb); tests lower them. */
  graphqlLimits = { complexity: 250, depth: 20 };
  /**
   * Namespaces (full paths) whose "Require a commit SHA on the merge requests API" setting is on: a merge
   * without sha is 400 there (lib/api/merge_requests.rb, `require_sha_for_merge?`). Tests switch it.
   */
  shaRequiredForMerge = new Set<string>();
  /** Project facts, user states, labels, events, advanced search (model-discovery.ts). */
  discovery = new Discovery();
  nextId = { status: 1, protectedBranch: 1, accessLevel: 1, pipeline: 1, issue: 1, milestone: 1 };
  /** Quick actions GitLab ran from issue descriptions (quick-actions.ts), oldest first. */
  quickActionsRun: { project_id: number; iid: number; command: string }[] = [];
  /** Clock for created/started/finished timestamps; tests may pin it. */
  clock: () => Date = () => new Date();

  /** Replace every field with another model's (reset keeps object identity for handlers holding it). */
  replaceWith(other: ForgeModel): void {
    Object.assign(this, other);
  }

  now(): string {
    return this.clock().toISOString();
  }

  /** Numeric id or full path, case-insensitive like GitLab's find_by_full_path. */
  findProject(idOrPath: string): Project | undefined {
    if (/^\d+$/.test(idOrPath)) return this.projects.get(Number(idOrPath));
    const want = idOrPath.toLowerCase();
    for (const p of this.projects.values()) if (p.path_with_namespace.toLowerCase() === want) return p;
    return undefined;
  }

  /** Numeric id or full path, case-insensitive. */
  findGroup(idOrPath: string): Group | undefined {
    if (/^\d+$/.test(idOrPath)) return this.groups.get(Number(idOrPath));
    const want = idOrPath.toLowerCase();
    for (const g of this.groups.values()) if (g.full_path.toLowerCase() === want) return g;
    return undefined;
  }

  /** The group and its ancestors, nearest first. */
  groupChain(g: Group): Group[] {
    const chain: Group[] = [];
    for (let cur: Group | undefined = g; cur; cur = cur.parent_id === null ? undefined : this.groups.get(cur.parent_id)) chain.push(cur);
    return chain;
  }

  groupAccessLevel(g: Group, userId: number): number {
    return Math.max(ACCESS.none, ...this.groupChain(g).map((x) => x.members.get(userId) ?? ACCESS.none));
  }

  accessLevel(p: Project, userId: number): number {
    return p.members.get(userId) ?? ACCESS.none;
  }

  /** Members see everything; internal/public projects are readable by any signed-in user. */
  canSee(p: Project, userId: number): boolean {
    return this.accessLevel(p, userId) > 0 || p.visibility !== 'private';
  }

  /** The root of the fork network a project is in (GitLab's fork_network.root_project): itself when it is no fork. */
  forkRoot(p: Project): Project {
    const seen = new Set<number>();
    let root = p;
    while (root.forked_from_project_id !== undefined && !seen.has(root.id)) {
      seen.add(root.id);
      const parent = this.projects.get(root.forked_from_project_id);
      if (!parent) break;
      root = parent;
    }
    return root;
  }

  /** GitLab's Project#in_fork_network_of?: both projects belong to one fork network. */
  inSameForkNetwork(a: Project, b: Project): boolean {
    return this.forkRoot(a) === this.forkRoot(b);
  }

  /** Branch, tag, full sha or unique sha prefix (≥ 4 hex chars) → sha. */
  resolveRef(p: Project, ref: string): string | undefined {
    const b = p.branches.get(ref);
    if (b) return b;
    const t = p.tags.get(ref);
    if (t) return t;
    if (!/^[0-9a-f]{4,40}$/i.test(ref)) return undefined;
    const lower = ref.toLowerCase();
    if (p.commits.has(lower)) return lower;
    const hits = [...p.commits.keys()].filter((id) => id.startsWith(lower));
    return hits.length === 1 ? hits[0] : undefined;
  }

  /** Ids of commits reachable from the heads (heads included). */
  reachable(p: Project, heads: string[], firstParent = false): Set<string> {
    const seen = new Set<string>();
    const stack = [...heads];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      const c = p.commits.get(id);
      if (!c) continue;
      seen.add(id);
      if (firstParent) {
        if (c.parent_ids.length) stack.push(c.parent_ids[0]);
      } else stack.push(...c.parent_ids);
    }
    return seen;
  }

  /** Commits reachable from the given heads, newest committed_date first (git log default order). */
  log(p: Project, heads: string[], firstParent = false): Commit[] {
    return [...this.reachable(p, heads, firstParent)]
      .map((id) => p.commits.get(id)!)
      .sort((a, b) => Date.parse(b.committed_date) - Date.parse(a.committed_date) || (a.id < b.id ? -1 : 1));
  }

  isAncestor(p: Project, ancestor: string, of: string): boolean {
    return this.reachable(p, [of]).has(ancestor);
  }

  matchingRules(p: Project, branch: string): ProtectedBranch[] {
    return p.protectedBranches.filter((r) => wildcardMatch(r.name, branch));
  }

  /** Would this user be allowed to push to the branch (protected rules included)? */
  canPush(p: Project, userId: number, branch: string): boolean {
    const level = this.accessLevel(p, userId);
    const rules = this.matchingRules(p, branch);
    if (rules.length === 0) return level >= ACCESS.developer;
    return rules.some((r) => r.push.some((e) => e.access_level > 0 && level >= e.access_level));
  }

  /** Branches whose history contains the sha, default branch first then by name. */
  branchesContaining(p: Project, sha: string): string[] {
    const names = [...p.branches.keys()].filter((n) => this.isAncestor(p, sha, p.branches.get(n)!)).sort();
    const i = names.indexOf(p.default_branch);
    if (i > 0) names.unshift(...names.splice(i, 1));
    return names;
  }
}
