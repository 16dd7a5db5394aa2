// Projects, groups and namespaces: what an agent needs to name one in the next call (id and full
// path) and to judge it (description, default branch, visibility, activity), without the settings,
// URLs to clone and feature switches GitLab adds (D33).
import { compact, flag, isRecord, pick } from './helpers';
import type { RecordKind } from './kind';
import { B, fields, I, S, STRINGS } from './schema-parts';

/** The caller's access to the project: the higher of its own membership and its group's. */
function accessLevel(permissions: unknown): number | undefined {
  if (!isRecord(permissions)) return undefined;
  const level = (x: unknown) => (isRecord(x) && typeof x.access_level === 'number' ? x.access_level : 0);
  const best = Math.max(level(permissions.project_access), level(permissions.group_access));
  return best > 0 ? best : undefined;
}

export const project: RecordKind = {
  about: 'A project: its id and full path (either names it in every other tool), what it is, its default branch and latest activity.',
  schema: fields({
    id: I,
    path_with_namespace: S,
    name: S,
    description: S,
    default_branch: S,
    visibility: S,
    topics: STRINGS,
    archived: B,
    empty_repo: B,
    forked_from_project: fields({ id: I, path_with_namespace: S }),
    open_issues_count: I,
    access_level: I,
    last_activity_at: S,
    web_url: S,
    license: fields({ key: S, name: S }),
    statistics: fields({ commit_count: I, repository_size: I, storage_size: I }),
  }),
  lean: (r) =>
    compact({
      id: r.id,
      path_with_namespace: r.path_with_namespace,
      // The name only where it says more than the path's last part.
      name: r.name !== r.path ? r.name : undefined,
      description: r.description,
      default_branch: r.default_branch,
      visibility: r.visibility,
      topics: r.topics,
      archived: flag(r.archived),
      empty_repo: flag(r.empty_repo),
      forked_from_project: isRecord(r.forked_from_project) ? pick(r.forked_from_project, ['id', 'path_with_namespace']) : undefined,
      open_issues_count: r.open_issues_count,
      access_level: accessLevel(r.permissions),
      last_activity_at: r.last_activity_at,
      web_url: r.web_url,
      license: isRecord(r.license) ? pick(r.license, ['key', 'name']) : undefined,
      statistics: isRecord(r.statistics) ? pick(r.statistics, ['commit_count', 'repository_size', 'storage_size']) : undefined,
    }),
};

export const group: RecordKind = {
  about: 'A group: its id and full path, what it is, and its parent group.',
  schema: fields({ id: I, full_path: S, name: S, description: S, visibility: S, parent_id: I, web_url: S }),
  lean: (r) =>
    compact({
      id: r.id,
      full_path: r.full_path,
      name: r.name !== r.path ? r.name : undefined,
      description: r.description,
      visibility: r.visibility,
      parent_id: r.parent_id,
      web_url: r.web_url,
    }),
};

export const namespace: RecordKind = {
  about: "A namespace a project can live in: a group or a user's personal namespace.",
  schema: fields({ id: I, full_path: S, name: S, kind: S, parent_id: I, plan: S }),
  lean: (r) => compact({ id: r.id, full_path: r.full_path, name: r.name !== r.path ? r.name : undefined, kind: r.kind, parent_id: r.parent_id, plan: r.plan }),
};
