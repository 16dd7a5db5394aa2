// Every record kind's lean projection (D33) on a record shaped as GitLab sends it
// (test/fixtures/gitlab-records.ts): presentation and empty values gone, users reduced, the fields an
// agent acts on kept, and the whole at most 60% of the forge's JSON.
import { describe, expect, test } from 'bun:test';
import { ALL_TOOLS } from '../src/tools/catalog';
import { RECORD_KINDS, type RecordKindName } from '../src/tools/lean';
import { GITLAB_RECORDS } from './fixtures/gitlab-records';

const kinds = Object.keys(RECORD_KINDS) as RecordKindName[];
const lean = (kind: RecordKindName) => RECORD_KINDS[kind].lean(structuredClone(GITLAB_RECORDS[kind]));

/** Every object in `value`, at any depth. */
function objects(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) value.forEach((v) => objects(v, found));
  else if (value && typeof value === 'object') {
    found.push(value as Record<string, unknown>);
    Object.values(value).forEach((v) => objects(v, found));
  }
  return found;
}

describe.each(kinds)('lean %s', (kind) => {
  test("drops null and empty values, presentation fields and users' extras", () => {
    const text = JSON.stringify(lean(kind));
    expect(text).not.toContain(':null');
    expect(text).not.toContain(':[]');
    expect(text).not.toContain(':{}');
    expect(text).not.toContain('""');
    for (const field of ['avatar_url', '_links', 'time_stats', 'references', 'author_email', 'committer_email']) expect(text).not.toContain(`"${field}"`);
    // A user or member record is itself a user: its own state, bot flag and access level stay; users inside it are reduced.
    const own = kind === 'user' || kind === 'member' ? 1 : 0;
    for (const o of objects(lean(kind)).slice(own)) if ('username' in o) expect(Object.keys(o).sort()).toEqual(['id', 'name', 'username']);
  });

  test("is at most 60% of the forge's JSON", () => {
    const size = JSON.stringify(lean(kind)).length;
    const forge = JSON.stringify(GITLAB_RECORDS[kind]).length;
    // A milestone, a blame range and a diff are mostly what an agent reads; a burndown event has nothing but a null to drop.
    // A merge request's file diff is a diff; a file read is its content; a diff version is its three SHAs; a draft
    // note is its text and the diff position (SHAs and lines) it sits on. A code hit is its lines (search_code keeps only
    // the matching ones: bench/result-size.ts). A wiki page is its content, like a file. A work item comment is its text,
    // author and thread (the GraphQL documents ask for nothing else); a work item type is its widgets and allowed statuses.
    if (
      ![
        'burndown_event',
        'blame_range',
        'diff',
        'milestone',
        'mr_diff',
        'file',
        'mr_version',
        'draft_note',
        'code_hit',
        'wiki_page',
        'work_item_note',
        'work_item_type',
      ].includes(kind)
    )
      expect(size / forge).toBeLessThanOrEqual(0.6);
    else expect(size).toBeLessThan(forge);
  });
});

describe('what an agent acts on is kept', () => {
  test('issue', () => {
    expect(lean('issue')).toMatchObject({
      id: 1042,
      iid: 42,
      project_id: 5,
      title: expect.any(String),
      description: expect.stringContaining('Steps:'),
      state: 'opened',
      labels: ['bug', 'auth'],
      milestone: { id: 12, iid: 3, title: 'v2.4', state: 'active', web_url: expect.any(String) },
      author: { id: 1, username: 'maria', name: 'Maria Jones' },
      assignees: [{ id: 2, username: 'dev', name: 'Dev Eloper' }],
      due_date: '2026-02-20',
      web_url: expect.stringContaining('/issues/42'),
      user_notes_count: 3,
      merge_requests_count: 1,
    });
  });
  test('commit: the message only when it says more than the title; dates once when equal', () => {
    const c = lean('commit');
    expect(c).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      title: expect.any(String),
      author_name: 'Dev Eloper',
      stats: { total: 4 },
      status: 'success',
      last_pipeline: { id: 9001, status: 'success' },
    });
    expect(c.message).toContain('Closes #42');
    expect(c).not.toHaveProperty('committed_date');
    expect(RECORD_KINDS.commit.lean({ id: 'a', title: 'One line', message: 'One line\n' })).toEqual({ id: 'a', title: 'One line' });
  });
  test('note, discussion, branch, protected branch, todo, status, merge request', () => {
    expect(lean('note')).toMatchObject({ id: 3001, body: expect.any(String), author: { username: 'dev' }, resolvable: true, resolved: false });
    expect((lean('discussion').notes as unknown[]).length).toBe(2);
    expect(lean('branch')).toMatchObject({
      name: 'fix/sso-expiry',
      commit: { id: expect.any(String), title: expect.any(String) },
      protected: false,
      merged: false,
      can_push: true,
      default: false,
    });
    expect(lean('protected_branch')).toMatchObject({ name: 'main', push_access_levels: [{ access_level: 40 }], allow_force_push: false });
    expect(lean('todo')).toMatchObject({
      id: 102,
      action_name: 'assigned',
      state: 'pending',
      target: { iid: 42, title: expect.any(String) },
      project: { path_with_namespace: 'acme/platform' },
    });
    expect(lean('commit_status')).toMatchObject({ name: 'lint', status: 'success', pipeline_id: 9001 });
    expect(lean('merge_request')).toMatchObject({
      iid: 17,
      source_branch: 'fix/sso-expiry',
      target_branch: 'main',
      detailed_merge_status: 'mergeable',
      reviewers: [{ username: 'maria' }],
    });
  });
  test('tag, release, release link, wiki page', () => {
    expect(lean('tag')).toEqual({
      name: 'v2.4.0',
      commit_sha: (GITLAB_RECORDS.tag.commit as { id: string }).id,
      commit_title: expect.any(String),
      message: 'Release v2.4.0',
      protected: true,
      release: true,
      created_at: expect.any(String),
    });
    expect(lean('release')).toMatchObject({
      tag_name: 'v2.4.0',
      name: 'Release v2.4.0',
      commit_sha: expect.any(String),
      milestones: [{ id: 12, title: 'v2.4' }],
      links: [{ id: 1, direct_asset_path: '/bin/api-linux-amd64-1.tar.gz', link_type: 'package' }, { id: 2 }],
      web_url: 'https://gitlab.example.com/acme/platform/-/releases/v2.4.0',
    });
    expect(JSON.stringify(lean('release'))).not.toContain('archive');
    expect(lean('release_link')).toEqual({
      id: 1,
      name: 'api-linux-amd64-1',
      direct_asset_path: '/bin/api-linux-amd64-1.tar.gz',
      link_type: 'package',
    });
    expect(RECORD_KINDS.release_link.lean({ id: 3, name: 'n', url: 'https://x.test/a', direct_asset_url: 'https://x.test/a', link_type: 'other' })).toEqual({
      id: 3,
      name: 'n',
      url: 'https://x.test/a',
    });
    expect(lean('wiki_page')).toEqual({ slug: 'guides/deploy-runbook', content: expect.stringMatching(/^# Deploy runbook/) });
    expect(RECORD_KINDS.wiki_page.lean({ slug: 'home', title: 'Start here', format: 'asciidoc', content: 'a<!-- hidden -->b\u200B' })).toEqual({
      slug: 'home',
      title: 'Start here',
      format: 'asciidoc',
      content: 'ab',
    });
  });
  test('a projection never fails on a record missing its fields', () => {
    for (const kind of kinds) expect(() => RECORD_KINDS[kind].lean({})).not.toThrow();
  });
  // A forge (or whatever answers in its place) may send any JSON in any field.
  test.each([
    ['empty strings', ''],
    ['dots', '..'],
    ['a huge string', 'x'.repeat(200_000)],
    ['numbers', -1],
    ['arrays', [null, '..', { id: '..' }]],
    ['objects', { id: { nested: true }, username: ['x'] }],
    ['null', null],
    ['true', true],
  ])('a projection never fails when every field holds %s, and prints as JSON', (_, value) => {
    for (const kind of kinds) {
      const hostile = Object.fromEntries(Object.keys(GITLAB_RECORDS[kind]).map((key) => [key, structuredClone(value)]));
      const projected = RECORD_KINDS[kind].lean(hostile);
      expect(() => JSON.stringify(projected)).not.toThrow();
      if (kind === 'milestone_summary') expect(projected).not.toContainAnyKeys(['project_id', 'web_url']);
    }
  });
});

describe('declarations', () => {
  test('every read tool names its record kind (so it is lean and takes full_response)', () => {
    // A text tool (a job log's lines) is no record: it takes full_response as its own (define.ts).
    expect(ALL_TOOLS.filter((t) => t.mode === 'read' && !t.record && !t.text).map((t) => t.name)).toEqual([]);
    for (const tool of ALL_TOOLS.filter((t) => t.mode === 'read')) expect([tool.name, 'full_response' in tool.input.properties]).toEqual([tool.name, true]);
  });
  test('every kind has a GitLab-shaped example record', () => {
    expect(Object.keys(GITLAB_RECORDS).sort()).toEqual([...kinds].sort());
  });
});
