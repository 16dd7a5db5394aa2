// What the discovery endpoints read that the rest of the fake forge does not need: a project's
// description, topics and activity, user states and namespaces, labels, events, and whether the
// instance has advanced search. Kept on the model (ForgeModel.discovery), so reset() starts afresh.
import type { Edition } from './edition';

export interface ProjectFacts {
  description: string | null;
  topics: string[];
  archived: boolean;
  star_count: number;
  created_at: string;
  last_activity_at: string;
  /** Key of the project's licence (GET /projects/:id?license=true), or none detected. */
  license: { key: string; name: string; nickname: string | null; html_url: string; source_url: string | null } | null;
}

export interface UserFacts {
  state: 'active' | 'blocked' | 'deactivated';
  bot: boolean;
  /** The user's personal namespace (GitLab's namespace id, shared with groups' ids). */
  namespaceId: number;
  created_at: string;
  bio: string;
  job_title: string;
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string | null;
  /** Project labels only (GitLab's label priorities); null: not prioritized. */
  priority: number | null;
}

export interface ForgeEvent {
  id: number;
  project_id: number | null;
  author_id: number;
  /** GitLab's action name as events show it ('opened', 'pushed to', 'commented on', 'closed', …). */
  action_name: string;
  /** The `action` filter value it answers to (created, updated, closed, reopened, pushed, commented, merged, …). */
  action: string;
  target_type: 'Issue' | 'MergeRequest' | 'Milestone' | 'Note' | 'DiffNote' | null;
  target_id: number | null;
  target_iid: number | null;
  target_title: string | null;
  created_at: string;
  push_data?: {
    commit_count: number;
    action: 'pushed' | 'created' | 'removed';
    ref_type: 'branch' | 'tag';
    commit_from: string | null;
    commit_to: string | null;
    ref: string;
    commit_title: string | null;
    ref_count: null;
  };
  note?: { id: number; body: string; noteable_type: string; noteable_id: number; noteable_iid: number };
}

export class Discovery {
  projects = new Map<number, ProjectFacts>();
  users = new Map<number, UserFacts>();
  /** 'project:<id>' or 'group:<id>' → that parent's own labels. */
  labels = new Map<string, Label[]>();
  events: ForgeEvent[] = [];
  nextLabelId = 1;
  /**
   * Advanced search (Elasticsearch/OpenSearch) or exact code search (Zoekt) configured: group and
   * instance searches of code, commits, wikis and comments answer. Unset: by edition — GitLab.com
   * has it for the paid namespace the fake plays, a self-managed instance has none until an admin
   * sets one up (ee/app/services/ee/search_service.rb: use_elasticsearch?).
   */
  advancedSearch?: boolean;

  labelsOf(kind: 'project' | 'group', id: number): Label[] {
    const key = `${kind}:${id}`;
    let list = this.labels.get(key);
    if (!list) this.labels.set(key, (list = []));
    return list;
  }

  hasAdvancedSearch(edition: Edition): boolean {
    return this.advancedSearch ?? edition === 'gitlab.com';
  }
}
