// Issue 36's end-to-end scenario with the SDK v2 client on the modern lane, starting from nothing
// but a name: find the project by a word of its name, search its code for a function, open the file
// at the hit's lines, list its open bug issues, find who last changed the file and whether they are
// a member — with no id typed by hand, and exactly the upstream requests each step needs.
import { expect, test } from 'bun:test';
import { useHarness } from './support/harness';
import { structured } from './support/mcp-client';

const h = useHarness({ FORGE_TOOLSETS: 'projects,search,repository,issues,branches' });

type Page<T> = { items: T[] };

test("from a project's name to the member who last changed a function's file", async () => {
  const c = await h.on('modern');

  const projects = structured<Page<{ id: number; path_with_namespace: string }>>(await c.call('list_projects', { search: 'api' }));
  const project = projects.items[0].path_with_namespace;
  expect(project).toBe('acme/platform/api');

  const hits = structured<Page<{ path: string; ref: string; startline: number; lines: Record<string, string> }>>(
    await c.call('search_code', { project_id: project, search: 'function start' }),
  );
  const hit = hits.items[0];
  const [line] = Object.keys(hit.lines).map(Number);
  expect([hit.path, hit.lines[line]]).toEqual(['src/app.ts', 'export function start(port = config.port) {']);

  const file = structured<{ content: string; start_line: number; end_line: number }>(
    await c.call('get_file_contents', { project_id: project, file_path: hit.path, ref: hit.ref, start_line: line, end_line: line + 2 }),
  );
  expect(file.content.split('\n')[0]).toBe('export function start(port = config.port) {');

  const bugs = structured<Page<{ iid: number; labels: string[] }>>(
    await c.call('list_issues', { project_id: project, labels: ['bug'], state: 'opened', scope: 'all' }),
  );
  expect(bugs.items.map((i) => i.iid)).toEqual([1]);

  const commits = structured<Page<{ author_name: string }>>(await c.call('list_commits', { project_id: project, path: hit.path, per_page: 1 }));
  const author = commits.items[0].author_name;
  const members = structured<Page<Record<string, unknown>>>(await c.call('list_project_members', { project_id: project, query: author }));
  expect(members.items).toEqual([{ id: 1, username: 'maria', name: author, access_level: 40, access_level_name: 'Maintainer' }]);

  const p = '/api/v4/projects/acme%2Fplatform%2Fapi';
  expect(h.toolUpstream()).toEqual([
    'GET /api/v4/projects',
    `GET ${p}/search`,
    `GET ${p}/repository/files/src%2Fapp.ts/raw`,
    `GET ${p}/issues`,
    `GET ${p}/repository/commits`,
    `GET ${p}/members/all`,
  ]);
});
