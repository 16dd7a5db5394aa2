// Identifier hygiene (D31): no value can make a tool's request leave the tool's own
// endpoint. Runtimes and forges resolve "." and ".." path segments, so `unprotect_branch` with
// branch_name ".." would otherwise send DELETE /projects/42 (delete project on a real GitLab).
// Tested over every tool and every path parameter, both through the whole app (schema checks)
// and by calling handlers directly (the check in fillPath, for paths filled late).
import { describe, expect, test } from 'bun:test';
import type { ForgeClient, ForgeRequest } from '../src/forge/client';
import { encodeSegment, fillPath, identifierProblem } from '../src/forge/encode';
import { ALL_TOOLS } from '../src/tools/catalog';
import { ToolError } from '../src/tools/errors';
import { SEED } from './support/fake-forge';
import { useHarness } from './support/harness';
import { structured, toolError } from './support/mcp-client';
import { baselineArguments, isDotSegment, pathParametersOf, templatesOf, withinTemplates } from './tools/arguments';

/** Values that are, or can turn into, an empty, "." or ".." segment somewhere between the agent and GitLab. */
const HOSTILE = [
  '.',
  '..',
  'a/../..',
  '../x',
  'x/..',
  './x',
  'x/.',
  'a/./b',
  '%2e%2e',
  '%2E',
  '%2e',
  '.%2e',
  '%2E.',
  '..%2f',
  '..%2F',
  '%2e%2e%2f',
  '%2e%2e%2F..',
  '%252e%252e',
  'a%2F..%2Fb',
  '..\\x',
  'x\\..',
  '\u2024',
  '\u2024\u2024',
  '\uFF0E',
  '\uFF0E\uFF0E',
  '\uFF0E\uFF0E\uFF0Fx',
  '',
  ' ',
  '   ',
  '\t',
  'a//b',
  '/x',
  'x/',
  'a\u0000b',
  'a\nb',
];

// variables is never part of `all` (D13): named so its tools are attacked too.
const h = useHarness({ FORGE_TOOLSETS: 'all,variables' });

describe('the identifier rule (src/forge/encode.ts)', () => {
  test.each(HOSTILE.map((v) => [JSON.stringify(v), v]))('%s is refused', (_, value) => {
    expect(identifierProblem(value)).toBeString();
    expect(() => encodeSegment(value, 'branch_name')).toThrow(ToolError);
  });

  test.each([
    ['main', 'main'],
    ['feature/login', 'feature%2Flogin'],
    ['acme/platform/api', 'acme%2Fplatform%2Fapi'],
    ['acme%2Fplatform%2Fapi', 'acme%2Fplatform%2Fapi'],
    ['release/*', 'release%2F*'],
    ['v1.0.0', 'v1.0.0'],
    ['.gitlab-ci.yml', '.gitlab-ci.yml'],
    ['docs/.hidden/a..b', 'docs%2F.hidden%2Fa..b'],
    ['...', '...'],
    ['main..feature', 'main..feature'],
    ['100%', '100%25'],
    ['café', 'caf%C3%A9'],
    [42, '42'],
  ])('%p is kept and encoded once as %p', (value, encoded) => {
    expect(encodeSegment(value, 'x')).toBe(encoded);
    expect(isDotSegment(encoded)).toBe(false);
  });

  test('fillPath names the parameter and never builds the path', () => {
    const template = '/projects/{project_id}/protected_branches/{branch_name}';
    const attempt = (args: Record<string, unknown>) => {
      try {
        return fillPath(template, args);
      } catch (error) {
        return error;
      }
    };
    for (const value of HOSTILE) {
      const error = attempt({ project_id: '42', branch_name: value });
      expect(error).toBeInstanceOf(ToolError);
      expect((error as ToolError).kind).toBe('validation');
      expect((error as ToolError).message).toStartWith('branch_name: ');
      expect((attempt({ project_id: value, branch_name: 'main' }) as ToolError).message).toStartWith('project_id: ');
    }
    expect(fillPath(template, { project_id: 'acme/api', branch_name: 'release/*' })).toBe('/projects/acme%2Fapi/protected_branches/release%2F*');
  });

  test('the messages say what is wrong', () => {
    expect(identifierProblem('')).toBe('must not be empty');
    expect(identifierProblem('  ')).toBe('must not be empty');
    expect(identifierProblem('..')).toBe(
      'must not be "." or ".." nor contain a "." or ".." part between slashes (percent-encoded or look-alike dots included)',
    );
    expect(identifierProblem('a//b')).toBe('must not have an empty part between slashes (a leading, trailing or double "/")');
    expect(identifierProblem('a\u0000b')).toBe('must not contain control characters');
  });
});

describe('every tool, every path parameter, through the app', () => {
  const tools = ALL_TOOLS.map((tool) => [tool.name, tool] as const);

  test('every tool names its endpoint templates, and every template parameter is a parameter of the tool', () => {
    for (const tool of ALL_TOOLS) {
      const templates = templatesOf(tool);
      if (templates.length === 0) throw new Error(`${tool.name} names no endpoint template: give it an endpoint`);
      for (const name of pathParametersOf(tool)) expect([tool.name, name in tool.input.properties]).toEqual([tool.name, true]);
    }
  });

  test.each(tools)('%s: no hostile value leaves the endpoint', async (_, tool) => {
    const templates = templatesOf(tool);
    const parameters = pathParametersOf(tool);
    const baseline = baselineArguments(tool);
    const client = await h.as();
    for (const parameter of parameters) {
      for (const value of HOSTILE) {
        const before = h.forge.requests.length;
        const result = await client.call(tool.name, { ...baseline, [parameter]: value });
        const sent = h.forge.requests.slice(before).map((r) => r.path.replace(/^\/api\/v4/, ''));
        const label = `${tool.name} ${parameter}=${JSON.stringify(value)}`;
        if (result.isError && toolError(result).kind === 'validation') {
          expect([label, toolError(result).message.startsWith(`${parameter}: `), sent]).toEqual([label, true, []]);
        } else {
          expect([label, sent.filter((path) => !withinTemplates(path, templates))]).toEqual([label, []]);
        }
      }
    }
  });
});

/** A forge client that records what a handler would send and answers with an empty object. */
function recordingForge(sent: string[]): ForgeClient {
  const record = async (request: ForgeRequest) => {
    sent.push(request.path);
    return {};
  };
  return {
    json: record,
    list: async (request: ForgeRequest) => {
      sent.push(request.path);
      return { items: [], pagination: {} };
    },
    allPages: async (request: ForgeRequest) => {
      sent.push(request.path);
      return [];
    },
  } as unknown as ForgeClient;
}

describe('every tool, every path parameter, straight to the handler (no schema check in front)', () => {
  test.each(ALL_TOOLS.map((tool) => [tool.name, tool] as const))('%s: fillPath refuses what the schema would have', async (_, tool) => {
    const templates = templatesOf(tool);
    const baseline = baselineArguments(tool);
    for (const parameter of pathParametersOf(tool)) {
      for (const value of HOSTILE) {
        const sent: string[] = [];
        const label = `${tool.name} ${parameter}=${JSON.stringify(value)}`;
        let refusal: unknown;
        try {
          await tool.handler({ ...baseline, [parameter]: value } as never, { forge: recordingForge(sent) });
        } catch (error) {
          refusal = error;
        }
        if (refusal instanceof ToolError && refusal.kind === 'validation' && refusal.message.startsWith(`${parameter}: `)) {
          expect([label, sent]).toEqual([label, []]);
        } else {
          // Whatever else happened, nothing left the endpoint.
          expect([label, sent.filter((path) => !withinTemplates(path, templates))]).toEqual([label, []]);
        }
      }
    }
  });
});

// get_job_artifact_file sends the path in the archive as GitLab's wildcard route reads it: its parts
// as path segments, each checked by the identifier rule and encoded once, so no part can be a dot
// segment or carry a slash of its own.
describe('an artifact path: one segment per part, each checked', () => {
  test.each([
    ['test-output/login.txt', 'test-output/login.txt'],
    ['reports/junit 1.xml', 'reports/junit%201.xml'],
    ['a%2Fb', 'a/b'], // D26: a path without a slash but with %2F arrives encoded, and is decoded once
    ['docs/100%/x', 'docs/100%25/x'],
    ['.hidden/a..b', '.hidden/a..b'],
  ])('%p is sent as …/artifacts/%s', async (artifact_path, sent) => {
    const c = await h.as();
    await c.call('get_job_artifact_file', { project_id: SEED.projectPath, job_id: 1006, artifact_path });
    const path = h
      .upstream()
      .at(-1)!
      .replace(/^GET \/api\/v4\/projects\/[^/]+\/jobs\/1006\/artifacts\//, '');
    expect(path).toBe(sent);
    expect(path.split('/').some(isDotSegment)).toBe(false);
  });
});

// D26: GitLab's project and group paths never hold `%`, so percent-encoding in such an id is an
// encoded form, decoded once wherever the id goes: a path segment encodes the plain path once, a
// JSON body carries it plain. Names, refs and file paths keep a `%` they hold when they also hold `/`.
describe('project and group ids: every form reaches GitLab as GitLab reads it, decoded once', () => {
  test.each([
    ['acme/platform/api', 'acme%2Fplatform%2Fapi'],
    ['acme%2Fplatform%2Fapi', 'acme%2Fplatform%2Fapi'],
    ['acme/platform%2Fapi', 'acme%2Fplatform%2Fapi'],
    ['acme%2fplatform/api', 'acme%2Fplatform%2Fapi'],
    ['acme%252Fplatform', 'acme%252Fplatform'],
    ['42', '42'],
  ])('project_id %p → /projects/%s/…', (value, segment) => {
    expect(fillPath('/projects/{project_id}/repository/files/{file_path}', { project_id: value, file_path: 'docs/100%2Fdone.md' })).toBe(
      `/projects/${segment}/repository/files/docs%2F100%252Fdone.md`,
    );
    expect(fillPath('/groups/{group_id}/milestones', { group_id: value })).toBe(`/groups/${segment}/milestones`);
  });

  test('a partly encoded project or group id through the client is encoded once, not twice', async () => {
    const c = await h.as();
    expect(structured<{ name: string }>(await c.call('get_branch', { project_id: 'acme/platform%2Fapi', branch_name: 'main' })).name).toBe('main');
    structured(await c.call('list_group_milestones', { group_id: 'acme%2fplatform' }));
    expect(h.upstream()).toEqual(['GET /api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/main', 'GET /api/v4/groups/acme%2Fplatform/milestones']);
  });

  // Decoded once, these would put a control character in the path GitLab reads or in a body.
  const ENCODED_CONTROLS = ['p%00', 'g%0d%0ap', 'acme%2Fp%7F', 'acme/p%09x'];

  test.each(ENCODED_CONTROLS)('project_id %p: an encoded control character is refused, nothing sent', async (value) => {
    const c = await h.as();
    const result = await c.call('get_branch', { project_id: value, branch_name: 'main' });
    expect([toolError(result).kind, toolError(result).message]).toEqual(['validation', 'project_id: must not contain control characters']);
    expect(h.upstream()).toEqual([]);
  });

  // Project ids a tool sends in its body rather than its path (create_issue_link's target_project_id).
  const bodyIds = ALL_TOOLS.flatMap((tool) =>
    Object.keys(tool.input.properties)
      .filter(
        (name) =>
          /(?:^|_)(?:project|group)_id$/.test(name) &&
          !pathParametersOf(tool).includes(name) &&
          (tool.input.properties[name] as { identifier?: boolean }).identifier,
      )
      .map((name) => [tool.name, name, tool] as const),
  );

  test('the tools that send a project id in a body are known', () => {
    expect(bodyIds.map(([tool, name]) => `${tool}.${name}`)).toEqual(['create_issue_link.target_project_id']);
  });

  test.each(bodyIds)('%s %s: no hostile value is sent, encoded or not', async (_, parameter, tool) => {
    const client = await h.as();
    for (const value of [...HOSTILE, 'acme%2F..%2Fx', 'acme/%2e%2e/x', 'acme%252F..%252Fx', '%25252e%25252e', 'acme%2F%2E%2E', ...ENCODED_CONTROLS]) {
      const before = h.forge.requests.length;
      const result = await client.call(tool.name, { ...baselineArguments(tool), [parameter]: value });
      const label = `${tool.name} ${parameter}=${JSON.stringify(value)}`;
      expect([label, result.isError && toolError(result).kind, toolError(result).message.startsWith(`${parameter}: `), h.forge.requests.slice(before)]).toEqual(
        [label, 'validation', true, []],
      );
    }
  });
});

describe('the critical cases of D31', () => {
  test('unprotect_branch with branch_name ".." is refused; the project and its rules stay', async () => {
    const c = await h.as();
    const result = await c.call('unprotect_branch', { project_id: String(SEED.project), branch_name: '..' });
    expect(toolError(result).kind).toBe('validation');
    expect(toolError(result).message).toStartWith('branch_name: must not be "." or ".."');
    expect(h.upstream()).toEqual([]);
    expect(h.forge.model.findProject(String(SEED.project))?.protectedBranches.map((r) => r.name)).toContain('main');
  });

  const P = String(SEED.project);
  test.each([
    ['get_protected_branch', { project_id: P, branch_name: '..' }, 'branch_name'],
    ['delete_group_milestone', { group_id: '..', milestone_id: '1' }, 'group_id'],
    ['create_commit_status', { project_id: P, sha: '..', state: 'success' }, 'sha'],
    ['get_commit', { project_id: P, sha: '%2e%2e' }, 'sha'],
    ['get_file_blame', { project_id: P, file_path: 'a/../../..', ref: 'main' }, 'file_path'],
    ['create_issue_note', { project_id: P, issue_iid: '1', body: 'hi', discussion_id: '..' }, 'discussion_id'],
    ['protect_branch', { project_id: P, branch_name: '..' }, 'branch_name'],
    ['protect_branch', { project_id: P, name: '..%2f' }, 'name'],
    ['list_issues', { project_id: '..' }, 'project_id'],
    ['create_issue_link', { project_id: P, issue_iid: '1', target_project_id: '..', target_issue_iid: '1' }, 'target_project_id'],
    ['create_branch', { project_id: P, branch: '..', ref: 'main' }, 'branch'],
  ])('%s %j → validation naming %s, nothing sent', async (name, args, parameter) => {
    const c = await h.as();
    const result = await c.call(name, args);
    expect(toolError(result).kind).toBe('validation');
    expect(toolError(result).message).toStartWith(`${parameter}: `);
    expect(h.upstream()).toEqual([]);
  });

  test('ordinary names with dots and slashes still reach the forge as one segment', async () => {
    const c = await h.as();
    const branch = structured<{ name: string }>(await c.call('get_branch', { project_id: SEED.projectPath, branch_name: SEED.featureBranch }));
    expect(branch.name).toBe(SEED.featureBranch);
    const tag = await c.call('get_commit', { project_id: SEED.projectPathEncoded, sha: SEED.tag });
    expect(structured<{ id: string }>(tag).id).toBe(SEED.tagSha);
    expect(h.upstream()).toEqual([
      'GET /api/v4/projects/acme%2Fplatform%2Fapi/repository/branches/feature%2Flogin',
      'GET /api/v4/projects/acme%2Fplatform%2Fapi/repository/commits/v1.0.0',
    ]);
  });
});

// D26: a branch name, ref or file path without `/` but with `%2F` arrives encoded. URL paths always
// decoded it; queries and bodies now read it the same, so a name is one name wherever it is sent.
describe('names with their slashes %2F-encoded: the same name in a path, a query and a body', () => {
  const P = String(SEED.project);
  test('a branch created, read and deleted as feature%2Fnew is feature/new every time', async () => {
    const c = await h.as();
    const created = structured<{ name: string }>(await c.call('create_branch', { project_id: P, branch: 'feature%2Fnew', ref: 'main' }));
    expect(created.name).toBe('feature/new');
    expect(h.forge.requests[0].body).toEqual({ branch: 'feature/new', ref: 'main' });
    expect(structured<{ name: string }>(await c.call('get_branch', { project_id: P, branch_name: 'feature%2Fnew' })).name).toBe('feature/new');
    structured(await c.call('list_commits', { project_id: P, ref_name: 'feature%2Flogin', path: 'src%2Fapp.ts' }));
    expect(Object.fromEntries(h.forge.requests.at(-1)!.query)).toMatchObject({ ref_name: 'feature/login', path: 'src/app.ts' });
    structured(await c.call('delete_branch', { project_id: P, branch_name: 'feature%2Fnew' }));
    const project = h.forge.model.projects.get(SEED.project)!;
    expect(project.branches.has('feature/new')).toBe(false);
    expect(project.branches.has('feature/login')).toBe(true);
  });

  test('a literal % beside a real slash is taken as written, in a body as in a path', async () => {
    const c = await h.as();
    const created = structured<{ name: string }>(await c.call('create_branch', { project_id: P, branch: 'docs/100%2Fdone', ref: 'main' }));
    expect(created.name).toBe('docs/100%2Fdone');
    expect(structured<{ name: string }>(await c.call('get_branch', { project_id: P, branch_name: 'docs/100%2Fdone' })).name).toBe('docs/100%2Fdone');
    expect(h.upstream().at(-1)).toBe(`GET /api/v4/projects/${P}/repository/branches/docs%2F100%252Fdone`);
  });

  test("push_files reads each action's paths so too: created as docs%2Fnew.md, the file is docs/new.md", async () => {
    const c = await h.as();
    const files = [
      { file_path: 'docs%2Fnew.md', content: 'new' },
      { action: 'move', file_path: 'docs%2Fmoved.md', previous_path: 'README.md' },
      { file_path: 'docs/100%2Fdone.md', content: 'kept as written beside a real slash' },
    ];
    const sent = structuredClone(files);
    structured(await c.call('push_files', { project_id: P, branch: 'feature%2Fdocs', start_branch: 'main', commit_message: 'Docs', files }));
    const body = h.forge.requests.at(-1)!.body as { branch: string; actions: { file_path: string; previous_path?: string }[] };
    expect(body.branch).toBe('feature/docs');
    expect(body.actions.map((a) => [a.file_path, a.previous_path])).toEqual([
      ['docs/new.md', undefined],
      ['docs/moved.md', 'README.md'],
      ['docs/100%2Fdone.md', undefined],
    ]);
    const read = structured<{ content: string }>(await c.call('get_file_contents', { project_id: P, file_path: 'docs/new.md', ref: 'feature/docs' }));
    expect(read.content).toBe('new');
    // The caller's arguments are left as they were sent.
    expect(files).toEqual(sent);
  });

  test('push_files: one path written plain and %2F-encoded is one path, named twice → refused, nothing sent', async () => {
    const c = await h.as();
    const result = await c.call('push_files', {
      project_id: P,
      branch: 'main',
      commit_message: 'Twice',
      files: [
        { file_path: 'docs/a.md', content: 'a' },
        { file_path: 'docs%2Fa.md', content: 'b' },
      ],
    });
    expect(toolError(result).kind).toBe('validation');
    expect(toolError(result).message).toBe('files[1].file_path: docs/a.md is already changed by files[0]; one action per path');
    expect(h.upstream()).toEqual([]);
  });

  test('push_files: a decoded path is held to the identifier rule: docs%2F.. is refused, nothing sent', async () => {
    const c = await h.as();
    const result = await c.call('push_files', { project_id: P, branch: 'main', commit_message: 'Up', files: [{ file_path: 'docs%2F..', content: 'x' }] });
    expect(toolError(result).kind).toBe('validation');
    expect(toolError(result).message).toStartWith('files[0].file_path: ');
    expect(h.upstream()).toEqual([]);
  });

  test('a decoded name is held to the identifier rule: feature%2F.. is refused, nothing sent', async () => {
    const c = await h.as();
    const result = await c.call('create_branch', { project_id: P, branch: 'feature%2F..', ref: 'main' });
    expect(toolError(result).kind).toBe('validation');
    expect(toolError(result).message).toStartWith('branch: ');
    expect(h.upstream()).toEqual([]);
  });
});

// Wiki slugs and tag names are one URL segment on GitLab (NO_SLASH_URL_PART_REGEX in lib/api/wikis.rb,
// tags.rb and releases.rb): a slash in them reaches GitLab %2F-encoded, once, whether sent plain or
// already encoded; a dot segment anywhere in them is refused before anything is sent.
describe('wiki slugs and tag names with slashes: one segment, encoded once', () => {
  test.each([
    ['get_wiki_page', { project_id: '42', slug: 'guides/setup' }, '/projects/42/wikis/guides%2Fsetup'],
    ['get_wiki_page', { project_id: '42', slug: 'guides%2Fsetup' }, '/projects/42/wikis/guides%2Fsetup'],
    ['get_group_wiki_page', { group_id: 'acme/platform', slug: 'a/b/c' }, '/groups/acme%2Fplatform/wikis/a%2Fb%2Fc'],
    ['get_tag', { project_id: '42', tag_name: 'release/2024' }, '/projects/42/repository/tags/release%2F2024'],
    ['get_release', { project_id: '42', tag_name: 'release%2F2024' }, '/projects/42/releases/release%2F2024'],
    ['list_release_links', { project_id: '42', tag_name: 'release/2024' }, '/projects/42/releases/release%2F2024/assets/links'],
  ])('%s %p → …%s', async (tool, args, tail) => {
    const c = await h.as();
    await c.call(tool, args);
    const paths = h.upstream().filter((r) => !r.endsWith('/metadata'));
    expect(paths).toHaveLength(1);
    expect(paths[0].endsWith(tail)).toBe(true);
  });

  test.each(['guides/../../../issues', 'guides/%2e%2e/x', '..%2F..%2Fissues', 'a/./b'])('slug or tag %p is refused, nothing sent', async (value) => {
    const c = await h.as();
    for (const [tool, name] of [
      ['get_wiki_page', 'slug'],
      ['delete_wiki_page', 'slug'],
      ['delete_tag', 'tag_name'],
      ['delete_release', 'tag_name'],
    ]) {
      expect(toolError(await c.call(tool, { project_id: String(SEED.project), [name]: value })).kind).toBe('validation');
    }
    expect(h.upstream()).toEqual([]);
  });
});
