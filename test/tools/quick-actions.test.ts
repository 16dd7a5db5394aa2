// The quick-action guard (D36) read as GitLab reads text, through every text-writing tool on the
// SDK client: GitLab's own extractor spec cases (spec/lib/gitlab/quick_actions/extractor_spec.rb),
// the shapes an outside red team found (carriage returns, other whitespace, fences the two eras
// of GitLab read differently, missing names), and the command list with where each name came
// from. Also: a write whose text holds GitLab's closing pattern says so in `closes_issues`.
import { describe, expect, test } from 'bun:test';
import { QUICK_ACTION_DEFINITIONS, QUICK_ACTIONS } from '../../src/text/quick-action-names';
import { findQuickAction } from '../../src/text/quick-actions';
import { ALL_TOOLS } from '../../src/tools/catalog';
import { ISSUE_SEED, SEED } from '../support/fake-forge';
import { extractQuickActions } from '../support/fake-forge/quick-actions';
import { useHarness } from '../support/harness';
import { structured, toolError } from '../support/mcp-client';
import { REFUSED, WRITTEN } from '../support/quick-action-cases';

const h = useHarness({ FORGE_TOOLSETS: 'all' });
const P = String(SEED.project);
const issue = (iid: number) => h.forge.model.projects.get(SEED.project)!.issues.get(iid)!;

type Args = Record<string, unknown>;
/** Each tool with a text GitLab reads for quick actions, and arguments putting `text` there. */
const WRITERS: Record<string, (text: string) => Args> = {
  create_issue: (text) => ({ project_id: P, title: 'Copy', description: text }),
  update_issue: (text) => ({ project_id: P, issue_iid: 2, description: text }),
  create_issue_note: (text) => ({ project_id: P, issue_iid: 1, body: text }),
  update_issue_note: (text) => ({ project_id: P, issue_iid: '1', note_id: String(ISSUE_SEED.commentNote), body: text }),
  create_note: (text) => ({ project_id: P, noteable_type: 'merge_request', noteable_iid: 1, body: text }),
  create_merge_request: (text) => ({ project_id: P, title: 'MR', source_branch: 'develop', target_branch: 'main', description: text }),
  update_merge_request: (text) => ({ project_id: P, merge_request_iid: 1, description: text }),
  create_merge_request_thread: (text) => ({ project_id: P, merge_request_iid: 1, body: text }),
  create_merge_request_discussion_note: (text) => ({ project_id: P, merge_request_iid: 1, discussion_id: 'a'.repeat(40), body: text }),
  create_draft_note: (text) => ({ project_id: P, merge_request_iid: 1, body: text }),
  create_wiki_page: (text) => ({ project_id: P, title: 'Plan', content: text }),
  update_wiki_page: (text) => ({ project_id: P, slug: 'home', content: text }),
  create_group_wiki_page: (text) => ({ group_id: 'acme/platform', title: 'Plan', content: text }),
  update_group_wiki_page: (text) => ({ group_id: 'acme/platform', slug: 'handbook', content: text }),
  create_work_item: (text) => ({ namespace_path: 'acme/platform/api', type: 'ISSUE', title: 'Copy', description: text }),
  update_work_item: (text) => ({ namespace_path: 'acme/platform/api', iid: '101', description: text }),
  create_work_item_note: (text) => ({ id: 'gid://gitlab/WorkItem/9003', body: text }),
};
const PARAMETER: Record<string, string> = {
  create_issue: 'description',
  update_issue: 'description',
  create_merge_request: 'description',
  update_merge_request: 'description',
  create_wiki_page: 'content',
  update_wiki_page: 'content',
  create_group_wiki_page: 'content',
  update_group_wiki_page: 'content',
  create_work_item: 'description',
  update_work_item: 'description',
};

describe('the command list (quick-action-names.ts)', () => {
  test('every name comes from a named GitLab source, once; the old ones and /board_move are there', () => {
    const sources = new Set(QUICK_ACTION_DEFINITIONS.map((d) => d.source));
    for (const source of sources) expect(source).toMatch(/^(ee\/)?[a-z_]+_actions\.rb$|^docs$/);
    expect(new Set(QUICK_ACTIONS).size).toBe(QUICK_ACTIONS.length);
    for (const name of QUICK_ACTIONS) expect(name).toMatch(/^[a-z_]+$/);
    for (const name of ['board_move', 'wip', 'draft', 'spent', 'cc', 'child_epic', 'tag', 'reassign_reviewer', 'blocked_by'])
      expect(QUICK_ACTIONS).toContain(name);
    expect(QUICK_ACTION_DEFINITIONS.find((d) => d.names.includes('wip'))).toMatchObject({ names: ['draft', 'wip'], source: 'merge_request_actions.rb' });
  });

  test('every name and alias, at a line start, is refused', () => {
    for (const name of QUICK_ACTIONS) expect(findQuickAction(`text\n/${name} x`)).toMatchObject({ line: 2 });
  });
});

describe('every text-writing tool refuses what GitLab would run (D36)', () => {
  test('the table covers every tool with a text GitLab reads for quick actions', () => {
    const marked = ALL_TOOLS.filter((t) =>
      Object.values((t.input as unknown as { properties: Record<string, { userText?: boolean }> }).properties).some((p) => p.userText),
    ).map((t) => t.name);
    expect(Object.keys(WRITERS).sort()).toEqual(marked.sort());
  });

  test.each(Object.keys(WRITERS))('%s', async (tool) => {
    const c = await h.as();
    h.forge.requests.length = 0;
    for (const [name, text, line] of REFUSED) {
      const error = toolError(await c.call(tool, WRITERS[tool](text)));
      expect({ name, kind: error.kind }).toEqual({ name, kind: 'validation' });
      expect({ name, message: error.message }).toEqual({ name, message: expect.stringMatching(new RegExp(`^${PARAMETER[tool] ?? 'body'}: line ${line} "`)) });
    }
    expect(h.forge.requests).toEqual([]);
  });

  test('update_issue_description_patch: the built description is read as GitLab reads it', async () => {
    const c = await h.as();
    // Front matter is front matter only at the top; the patch puts a line before it.
    for (const [name, text, line] of REFUSED.filter(([, text]) => !text.startsWith('---'))) {
      issue(1).description = 'Steps:\n1. Open the app';
      h.forge.requests.length = 0;
      const error = toolError(
        await c.call('update_issue_description_patch', {
          project_id: P,
          issue_iid: 1,
          patch_type: 'search_replace',
          patch: `<<<<<<< SEARCH\n1. Open the app\n=======\n${text}\n>>>>>>> REPLACE`,
        }),
      );
      expect({ name, message: error.message }).toEqual({ name, message: expect.stringMatching(new RegExp(`^patch: line ${line + 1} "`)) });
      expect(h.forge.requests.map((r) => r.method)).toEqual(['GET']);
    }
  });

  test('the refusal shows the line with its control characters escaped, and says when a fence was not trusted', async () => {
    const c = await h.as();
    expect(toolError(await c.call('create_issue_note', { project_id: P, issue_iid: 1, body: '/close\f\n' })).message).toStartWith(
      'body: line 1 "/close\\f" is a GitLab quick action',
    );
    expect(toolError(await c.call('create_issue_note', { project_id: P, issue_iid: 1, body: '~~~\n/close\n~~~' })).message).toContain(
      'not a code fence every GitLab release skips',
    );
  });

  test.each(WRITTEN)('written as text: %s', async (_name, text) => {
    const c = await h.as();
    const note = structured<{ body: string }>(await c.call('create_issue_note', { project_id: P, issue_iid: 1, body: text }));
    expect(note.body.replaceAll('\r', '')).toBe(text.replaceAll('\r', ''));
  });
});

describe("against GitLab's older extractor (the fake forge runs it on issue descriptions)", () => {
  const open = useHarness({ FORGE_TOOLSETS: 'all', FORGE_ALLOW_QUICK_ACTIONS: 'true' });
  const ran = () => open.forge.model.quickActionsRun.map((r) => r.command);

  // The fence shapes GitLab's later (CommonMark) era runs cannot be shown here: this fake reads as the older one.
  test("with the guard off, the red team's shapes close the issue: they are commands to GitLab", async () => {
    const c = await open.as();
    for (const text of ['\r/close', '/\rclose', '/clo\rse', 'Thanks!\n\r/close', '/close\f\n', '/close\v\n', '~~~\n/close\n~~~', 'Log:\n```\n/close']) {
      const issue2 = open.forge.model.projects.get(SEED.project)!.issues.get(2)!;
      Object.assign(issue2, { state: 'opened', closed_at: null });
      open.forge.model.quickActionsRun.length = 0;
      const updated = structured<{ state: string }>(await c.call('update_issue', { project_id: P, issue_iid: 2, description: text }));
      expect({ text, state: updated.state, ran: ran() }).toEqual({ text, state: 'closed', ran: ['close'] });
    }
  });

  test('every text it runs is refused by the guard; no text the guard lets through is run', () => {
    for (const [name, text] of REFUSED) {
      if (extractQuickActions(text).commands.length > 0) expect({ name, refused: findQuickAction(text) !== undefined }).toEqual({ name, refused: true });
    }
    for (const [name, text] of WRITTEN) expect({ name, commands: extractQuickActions(text).commands }).toEqual({ name, commands: [] });
  });
});

describe('closes_issues: text GitLab reads for its closing pattern (D36)', () => {
  test('create_merge_request and update_merge_request name the issues the merge would close', async () => {
    const c = await h.as();
    const created = structured<Args>(
      await c.call('create_merge_request', {
        project_id: P,
        title: 'Gateway',
        source_branch: 'develop',
        target_branch: 'main',
        description: 'Closes #12\nAlso fixes group/proj#3 and #4',
      }),
    );
    expect(created.closes_issues).toEqual(['#12', 'group/proj#3', '#4']);
    const updated = structured<Args>(await c.call('update_merge_request', { project_id: P, merge_request_iid: created.iid, title: 'Resolves #5' }));
    expect(updated.closes_issues).toEqual(['#5']);
    const plain = structured<Args>(
      await c.call('update_merge_request', { project_id: P, merge_request_iid: created.iid, description: 'See #12; encloses #9; CLOSES #8' }),
    );
    expect(plain).not.toHaveProperty('closes_issues');
  });

  test('push_files and create_or_update_file name the issues the commit would close', async () => {
    const c = await h.as();
    const pushed = structured<Args>(
      await c.call('push_files', {
        project_id: P,
        branch: 'main',
        commit_message: 'Docs\n\nFixes group/proj#3',
        files: [{ file_path: 'docs/closing.md', content: 'x' }],
      }),
    );
    expect(pushed.closes_issues).toEqual(['group/proj#3']);
    const written = structured<Args>(
      await c.call('create_or_update_file', {
        project_id: P,
        branch: 'main',
        file_path: 'docs/closing2.md',
        content: 'y',
        commit_message: 'Closing https://gitlab.example/a/b/-/issues/7',
      }),
    );
    expect(written).toMatchObject({ action: 'created', closes_issues: ['https://gitlab.example/a/b/-/issues/7'] });
    const quiet = structured<Args>(
      await c.call('create_or_update_file', { project_id: P, branch: 'main', file_path: 'docs/closing3.md', content: 'z', commit_message: 'Add docs' }),
    );
    expect(quiet).not.toHaveProperty('closes_issues');
  });
});
