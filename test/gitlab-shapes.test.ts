// The fake forge's records against GitLab's own shapes (docs/forge-editions.md, "Recorded shapes"):
// test/fixtures/gitlab-shapes.json holds the fields and JSON types of GitLab's entities as the Go client
// go-gitlab records them (struct json tags and recorded test responses; scripts/extract-gitlab-shapes.ts
// regenerates it from Debian's golang-github-xanzy-go-gitlab-dev). A field the fake returns that GitLab
// does not have, or a JSON type GitLab does not use, fails here. Fields GitLab added after that
// client release are listed below with the GitLab file that exposes them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import shapes from './fixtures/gitlab-shapes.json';
import { EDITIONS, ISSUE_SEED, SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';
type FieldShape = { types: string[]; struct?: string };
const STRUCTS = shapes.structs as Record<string, Record<string, FieldShape>>;

// lib/api/entities/user_basic.rb: `locked` (GitLab 16.x), on every user a record embeds.
const USER = { locked: ['boolean'] as JsonType[] };
// lib/api/entities/issue_basic.rb and issue.rb: fields GitLab added after that client release.
const ISSUE: Record<string, JsonType[]> = { type: ['string'], severity: ['string'], service_desk_reply_to: ['string', 'null'], has_tasks: ['boolean'] };
/** Fields newer than go-gitlab 0.73.1 (or not modelled by it), as GitLab's API entities expose them. */
const NEWER: Record<string, Record<string, JsonType[]>> = {
  // lib/api/entities/protected_ref_access.rb: the entry's id; deploy_key_id from GitLab 16.0.
  BranchAccessDescription: { id: ['number'], deploy_key_id: ['number', 'null'] },
  // lib/api/entities/related_issue.rb: list_issue_links' items are issues plus the link seen from this side.
  Issue: { ...ISSUE, issue_link_id: ['number'], link_type: ['string'], link_created_at: ['string'], link_updated_at: ['string'] },
  // lib/api/entities/issue.rb _links: closed_as_duplicate_of (15.x).
  IssueLinks: { closed_as_duplicate_of: ['string', 'null'] },
  // lib/api/entities/note.rb: internal, imported/imported_from, noteable_iid, commands_changes, confidential,
  // project_id; resolved_at of a resolvable note.
  Note: {
    internal: ['boolean'],
    imported: ['boolean'],
    imported_from: ['string'],
    noteable_iid: ['number'],
    commands_changes: ['object'],
    confidential: ['boolean'],
    resolved_at: ['string', 'null'],
    project_id: ['number'],
  },
  // lib/api/entities/award_emoji.rb: url (custom emoji).
  AwardEmoji: { url: ['string', 'null'] },
  // lib/api/entities/milestone.rb: group_id on group milestones.
  Milestone: { group_id: ['number'] },
  // lib/api/entities/commit.rb: extended_trailers (16.x); lib/api/entities/ci/pipeline_basic.rb: iid.
  Commit: { extended_trailers: ['object'] },
  PipelineInfo: { iid: ['number'] },
  // lib/api/entities/todo.rb: updated_at; an Issue target is presented with Entities::Issue (fields below).
  Todo: { updated_at: ['string'] },
  TodoTarget: {
    ...ISSUE,
    closed_at: ['string', 'null'],
    closed_by: ['object', 'null'],
    discussion_locked: ['boolean', 'null'],
    issue_type: ['string'],
    merge_requests_count: ['number'],
    references: ['object'],
  },
  // lib/api/entities/label_basic.rb: description_html; lib/api/entities/push_event_payload.rb: ref_count;
  // lib/api/entities/blob.rb: path.
  Label: { description_html: ['string'] },
  'ContributionEvent.PushData': { ref_count: ['number', 'null'] },
  Blob: { path: ['string'] },
  User: USER,
  'ContributionEvent.Author': USER,
  BasicUser: USER,
  IssueAssignee: USER,
  IssueAuthor: USER,
  IssueCloser: USER,
  'Note.Author': USER,
  'AwardEmoji.User': USER,
};
/** Where go-gitlab's Go type cannot be null but GitLab sends null (Go reads null as the zero value). */
const NULLABLE: Record<string, string[]> = {
  // lib/api/entities/note.rb: no resolver on an open thread; lib/api/entities/issue.rb: not moved, no weight.
  Note: ['resolved_by'],
  Issue: ['moved_to_id', 'weight'],
  // An issue target without a due date (lib/api/entities/issue_basic.rb).
  TodoTarget: ['due_date', 'moved_to_id', 'weight'],
  // ee/lib/ee/api/entities/protected_ref_access.rb: a role entry has no user or group.
  BranchAccessDescription: ['user_id', 'group_id'],
  // lib/api/entities/project.rb: no CI file of its own; lib/api/entities/group.rb: settings inherited from the
  // instance, a top-level group; lib/api/entities/namespace_basic.rb: a top-level namespace; a label without a
  // description (lib/api/entities/label_basic.rb); a push (no target) and a new branch (no commit_from) in
  // lib/api/entities/event.rb and push_event_payload.rb; basic search's code hits carry no blob id
  // (lib/gitlab/search/found_blob.rb); a licence without a nickname (lib/api/entities/license_basic.rb).
  Project: ['ci_config_path'],
  Group: ['auto_devops_enabled', 'mentions_disabled', 'parent_id'],
  Namespace: ['parent_id'],
  Label: ['description'],
  ContributionEvent: ['target_id', 'target_iid', 'target_type', 'target_title'],
  'ContributionEvent.PushData': ['commit_from'],
  Blob: ['id'],
  ProjectLicense: ['nickname'],
};

const jsonType = (v: unknown): JsonType => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType));

/** Every departure of `value` from struct `name`, as `path: problem`. */
function departures(value: unknown, name: string, path: string, out: string[]): string[] {
  const fields = STRUCTS[name];
  if (!fields) return out;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    const shape = fields[key];
    const newer = NEWER[name]?.[key];
    const allowed = [...(shape?.types ?? []), ...(newer ?? []), ...(NULLABLE[name]?.includes(key) ? ['null'] : [])];
    if (!shape && !newer) {
      out.push(`${path}.${key}: GitLab has no such field on ${name}`);
      continue;
    }
    if (!allowed.includes(jsonType(v))) out.push(`${path}.${key}: ${jsonType(v)}, GitLab sends ${allowed.join(' or ')}`);
    if (shape?.struct) {
      if (Array.isArray(v)) v.forEach((item, i) => departures(item, shape.struct!, `${path}.${key}[${i}]`, out));
      else departures(v, shape.struct, `${path}.${key}`, out);
    }
  }
  return out;
}

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(() => forge.stop());

async function get(path: string): Promise<unknown> {
  const response = await fetch(`${forge.apiUrl}${path}`, { headers: { 'private-token': TOKENS.maintainer } });
  expect([path, response.status]).toEqual([path, 200]);
  return response.json();
}

const I = `/projects/${SEED.project}/issues/1`;
const RECORDS: [string, string, () => Promise<string>][] = [
  ['an issue', 'Issue', async () => I],
  ['an issue list', 'Issue', async () => `/projects/${SEED.project}/issues?scope=all`],
  ['a milestone', 'Milestone', async () => `/projects/${SEED.project}/milestones/${SEED.milestones.v1}`],
  ['a branch', 'Branch', async () => `/projects/${SEED.project}/repository/branches/main`],
  ['a protected branch', 'ProtectedBranch', async () => `/projects/${SEED.project}/protected_branches/main`],
  ['a commit', 'Commit', async () => `/projects/${SEED.project}/repository/commits/${SEED.headSha}`],
  ['a commit list', 'Commit', async () => `/projects/${SEED.project}/repository/commits?with_stats=true`],
  ['discussions', 'Discussion', async () => `${I}/discussions`],
  ['award emoji', 'AwardEmoji', async () => `${I}/award_emoji`],
  ['note award emoji', 'AwardEmoji', async () => `${I}/notes/${ISSUE_SEED.replyNote}/award_emoji`],
  ['linked issues', 'Issue', async () => `${I}/links`],
  [
    'an issue link',
    'IssueLink',
    async () => {
      const links = (await get(`${I}/links`)) as { issue_link_id: number }[];
      return `${I}/links/${links[0].issue_link_id}`;
    },
  ],
  ['to-dos', 'Todo', async () => '/todos?state=done'],
  ['a project with licence and statistics', 'Project', async () => `/projects/${SEED.project}?license=true&statistics=true`],
  ['a fork', 'Project', async () => `/projects/${SEED.fork.project}`],
  ['a project list', 'Project', async () => '/projects'],
  ['a group', 'Group', async () => `/groups/${SEED.groups.acme}`],
  ['a group list', 'Group', async () => '/groups'],
  ['namespaces', 'Namespace', async () => '/namespaces'],
  ['project members', 'ProjectMember', async () => `/projects/${SEED.project}/members/all`],
  ['group members', 'GroupMember', async () => `/groups/${SEED.groups.platform}/members/all`],
  ['users', 'User', async () => '/users'],
  ['a user', 'User', async () => `/users/${SEED.users.developer}`],
  ['the caller', 'User', async () => '/user'],
  ['events', 'ContributionEvent', async () => `/projects/${SEED.project}/events`],
  ['project labels with counts', 'Label', async () => `/projects/${SEED.project}/labels?with_counts=true`],
  ['group labels', 'Label', async () => `/groups/${SEED.groups.platform}/labels`],
  ['code search hits', 'Blob', async () => `/projects/${SEED.project}/search?scope=blobs&search=start`],
];

describe.each(EDITIONS)('the fake forge (%s) returns records GitLab has', (edition) => {
  test.each(RECORDS)('%s (%s)', async (_, struct, pathOf) => {
    forge.reset();
    forge.model.edition = edition;
    const body = await get(await pathOf());
    const records = Array.isArray(body) ? body : [body];
    expect(records.length).toBeGreaterThan(0);
    expect(records.flatMap((r, i) => departures(r, struct, `[${i}]`, []))).toEqual([]);
  });
});

test('the fixture covers every entity the fake forge is checked for, from a named client release', () => {
  expect(shapes.source).toContain('golang-github-xanzy-go-gitlab-dev 0.73.1');
  for (const root of [
    'Issue',
    'Milestone',
    'Branch',
    'ProtectedBranch',
    'Commit',
    'Discussion',
    'AwardEmoji',
    'IssueLink',
    'Todo',
    'Project',
    'Group',
    'Namespace',
    'ProjectMember',
    'GroupMember',
    'User',
    'ContributionEvent',
    'Label',
    'Blob',
  ])
    expect(STRUCTS[root]).toBeDefined();
});
