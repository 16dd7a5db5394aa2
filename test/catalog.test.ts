// The catalog: every tool's listing (snapshot), annotations (D14), group and read-only selection
// (D13), and the protocol errors of tools/call.
import { describe, expect, test } from 'bun:test';
import { TOOL_GROUPS, type ToolGroup } from '../src/tools/groups';
import type { TSchema } from '@sinclair/typebox';
import { ALL_TOOLS, selectTools, toolListing } from '../src/tools/catalog';
import { restAdvice } from '../src/tools/bounded-result';
import { DEFAULT_TOOLS } from '../src/tools/default-set';
import { bytesPerToolBudget, groupBytesPerTool, LISTING_AT_868E772, listingBytes } from '../src/tools/listing-size';
import { useApps } from './support/apps';
import { connect, rpc, INITIALIZE } from './support/mcp-client';
import { pathParametersOf } from './tools/arguments';
import { matchToolSnapshot, snapshotNames } from './support/toolsnap';

const TOKEN = 'glpat-catalog-test-000001';
const FORGE = 'http://127.0.0.1:9/api/v4';
const app = useApps(() => FORGE, 'all');

async function listedNames(overrides: Record<string, string>): Promise<string[]> {
  const session = await connect(app(overrides), { 'Private-Token': TOKEN });
  const { tools } = await session.client.listTools();
  await session.close();
  return tools.map((t) => t.name);
}

const names = (filter: (t: (typeof ALL_TOOLS)[number]) => boolean) => ALL_TOOLS.filter(filter).map((t) => t.name);

describe('tools/list', () => {
  // One reviewed snapshot per tool (test/support/toolsnap.ts; missing ones are refused under CI).
  test.each(ALL_TOOLS.map((t) => [t.name, t] as const))('%s: its listing is its reviewed snapshot (test/__toolsnaps__)', (name, tool) => {
    matchToolSnapshot(name, toolListing(tool));
  });
  test('every snapshot in test/__toolsnaps__ is a tool the catalog has', () => {
    expect(snapshotNames().filter((name) => !ALL_TOOLS.some((t) => t.name === name))).toEqual([]);
  });

  // Every client reads the listing into a model: bytes go to parameter descriptions only where
  // they change what a model does (D40). LISTING_AT_868E772 holds each group's tools/list bytes
  // measured at 868e772, before parameters carried descriptions (issue 37).
  test.each(TOOL_GROUPS.map((g) => [g]))('%s: its tools/list bytes per tool stay within 1.3 times those at 868e772', (group) => {
    const perTool = groupBytesPerTool(group);
    expect(perTool).toBeGreaterThan(0);
    expect(perTool).toBeLessThanOrEqual(bytesPerToolBudget(group));
    expect(bytesPerToolBudget(group)).toBe(Math.floor(1.3 * Math.round(LISTING_AT_868E772[group].bytes / LISTING_AT_868E772[group].tools)));
  });
  // A parameter whose name and type say all it is needs no description; every other one says its
  // format, its convention or the default that surprises (D40). Keep this list short.
  const SELF_EXPLANATORY = new Set([
    // Plain text and the page number (per_page's default is not plain, so it is described).
    ...['page', 'title', 'description', 'body', 'content', 'commit_message', 'author_name', 'author_email'],
    // Enums and flags whose values say what they do.
    ...['state', 'state_event', 'sort', 'order_by', 'confidential', 'draft', 'squash'],
    ...['branch_name', 'tag_name'],
  ]);
  test('every parameter has a description unless its name says all (D40)', () => {
    const bare: string[] = [];
    for (const tool of ALL_TOOLS.map(toolListing)) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        if (!SELF_EXPLANATORY.has(name) && !(schema as { description?: string }).description) bare.push(`${tool.name}.${name}`);
      }
    }
    expect(bare).toEqual([]);
  });
  // D41: output schemas add to tools/list what docs/decisions.md D41 measures; each tool's stays
  // within 3 KB of JSON and each group's within 24 KB, so a kind's schema cannot grow unnoticed.
  test('every output schema stays within 3 KB of JSON, every group of them within 24 KB', () => {
    const bytes = (tool: (typeof ALL_TOOLS)[number]) => JSON.stringify(toolListing(tool).outputSchema).length;
    expect(ALL_TOOLS.filter((t) => bytes(t) > 3 * 1024).map((t) => t.name)).toEqual([]);
    for (const group of TOOL_GROUPS) {
      const total = ALL_TOOLS.filter((t) => t.group === group).reduce((sum, t) => sum + bytes(t), 0);
      expect([group, total <= 24 * 1024]).toEqual([group, true]);
    }
  });

  test('every tool refuses parameters it does not know (closed input schemas, checked server-side)', () => {
    for (const tool of ALL_TOOLS) expect([tool.name, tool.input.additionalProperties]).toEqual([tool.name, false]);
  });

  test('every value a tool puts in a URL path is checked as an identifier or can only be digits (D31)', () => {
    const unchecked: string[] = [];
    for (const tool of ALL_TOOLS) {
      for (const name of pathParametersOf(tool)) {
        const schema = (tool.input.properties as Record<string, TSchema>)[name];
        const digitsOnly = schema.type === 'integer' || schema.pattern === '^[1-9][0-9]*$';
        if (schema.identifier !== true && !digitsOnly) unchecked.push(`${tool.name}.${name}`);
      }
    }
    expect(unchecked).toEqual([]);
  });

  test('project and group ids, branch names and refs are identifiers wherever they appear, in a path or not, or can only be digits (D31)', () => {
    // create_merge_request's target_project_id is GitLab's numeric id only: digits cannot name another endpoint.
    const checked = (schema: TSchema) => schema.identifier === true || schema.type === 'integer' || schema.pattern === '^[1-9][0-9]*$';
    const marks = (name: string) =>
      ALL_TOOLS.filter((t) => name in t.input.properties && t.name !== 'list_todos') // list_todos filters by numeric ids only
        .map((t) => [t.name, name, checked(t.input.properties[name] as TSchema)]);
    for (const name of ['project_id', 'group_id', 'target_project_id', 'branch', 'ref', 'ref_name', 'default_branch', 'sha', 'file_path', 'discussion_id']) {
      expect(marks(name).length).toBeGreaterThan(0);
      for (const [tool, , marked] of marks(name)) expect([tool, name, marked]).toEqual([tool, name, true]);
    }
    expect((ALL_TOOLS.find((t) => t.name === 'protect_branch')!.input.properties.name as TSchema).identifier).toBe(true);
  });

  test('tool names are unique and fit the MCP name rules', () => {
    const all = ALL_TOOLS.map((t) => t.name);
    expect(new Set(all).size).toBe(all.length);
    for (const name of all) expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
  });

  test('every tool has a title, a description, annotations and an object schema', () => {
    for (const tool of ALL_TOOLS.map(toolListing)) {
      expect(tool.title?.length).toBeGreaterThan(3);
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"hint"');
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"identifier"');
      expect(tool.annotations).toMatchObject({ openWorldHint: true });
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint).toBe('boolean');
    }
  });

  test('the advice of a result cut at MAX_RESULT_BYTES names only parameters of its tool (D33)', () => {
    for (const tool of ALL_TOOLS) {
      const named = restAdvice(tool)(3).match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [];
      expect([tool.name, named.filter((word) => !(word in tool.input.properties))]).toEqual([tool.name, []]);
    }
  });

  test('deletes and unprotect are destructive; reads are read-only and never destructive (D14)', () => {
    for (const tool of ALL_TOOLS) {
      const a = toolListing(tool).annotations!;
      if (tool.name.startsWith('delete_') || tool.name === 'unprotect_branch') expect(a.destructiveHint).toBe(true);
      if (tool.mode === 'read') expect(a).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      if (tool.name.startsWith('get_') || tool.name.startsWith('list_')) expect(tool.mode).toBe('read');
    }
  });
});

describe('selection (D13)', () => {
  const matrix: [string, Record<string, string>, ToolGroup[]][] = [
    // The former default, asked for by name: a deployment that sets FORGE_TOOLSETS sees no change (D40).
    ['FORGE_TOOLSETS=branches,issues', { FORGE_TOOLSETS: 'branches,issues' }, ['branches', 'issues']],
    // `all` is every group but variables, whose values are secrets: that one is named (D13).
    ['FORGE_TOOLSETS=all', { FORGE_TOOLSETS: 'all' }, TOOL_GROUPS.filter((g) => g !== 'variables')],
    ['FORGE_TOOLSETS=all,variables', { FORGE_TOOLSETS: 'all,variables' }, [...TOOL_GROUPS]],
    ['FORGE_TOOLSETS=variables', { FORGE_TOOLSETS: 'variables' }, ['variables']],
    ['FORGE_TOOLSETS=branches', { FORGE_TOOLSETS: 'branches' }, ['branches']],
    ['FORGE_TOOLSETS=milestones', { FORGE_TOOLSETS: 'milestones' }, ['milestones']],
    ['FORGE_TOOLSETS=issues,branches,issues', { FORGE_TOOLSETS: 'issues,branches,issues' }, ['branches', 'issues']],
    ['branches + USE_MILESTONE', { FORGE_TOOLSETS: 'branches', USE_MILESTONE: 'true' }, ['milestones', 'branches']],
  ];
  test.each(matrix)('%s lists exactly its groups', async (_, overrides, groups) => {
    expect(await listedNames(overrides)).toEqual(names((t) => groups.includes(t.group)));
  });

  // D40: without FORGE_TOOLSETS, the default set, chosen by tool name in src/tools/default-set.ts.
  const inDefault = (t: (typeof ALL_TOOLS)[number]) => DEFAULT_TOOLS.has(t.name);
  const defaults: [string, Record<string, string>, (t: (typeof ALL_TOOLS)[number]) => boolean][] = [
    // An empty value is not given (D2): the default applies, whatever the test harness names.
    ['FORGE_TOOLSETS unset', { FORGE_TOOLSETS: '' }, inDefault],
    ['FORGE_TOOLSETS=default', { FORGE_TOOLSETS: 'default' }, inDefault],
    ['FORGE_TOOLSETS=default,pipelines', { FORGE_TOOLSETS: 'default,pipelines' }, (t) => inDefault(t) || t.group === 'pipelines'],
    ['USE_MILESTONE=true', { FORGE_TOOLSETS: '', USE_MILESTONE: 'true' }, (t) => inDefault(t) || t.group === 'milestones'],
    ['FORGE_TOOLSETS=all,default', { FORGE_TOOLSETS: 'all,default' }, (t) => t.group !== 'variables'],
  ];
  test.each(defaults)('%s lists the default set and the groups named', async (_, overrides, filter) => {
    expect(await listedNames(overrides)).toEqual(names(filter));
  });

  test('every name of the default set is a tool, and the set holds at most 40 tools in 32 KB of tools/list (D40)', () => {
    expect([...DEFAULT_TOOLS].filter((name) => !ALL_TOOLS.some((t) => t.name === name))).toEqual([]);
    expect(DEFAULT_TOOLS.size).toBeGreaterThanOrEqual(30);
    expect(DEFAULT_TOOLS.size).toBeLessThanOrEqual(40);
    expect(listingBytes(ALL_TOOLS.filter(inDefault))).toBeLessThanOrEqual(32 * 1024);
    expect(ALL_TOOLS.filter(inDefault).some((t) => t.group === 'variables')).toBe(false);
  });

  test('the default set does the work agents are asked for most (D40)', () => {
    const jobs = {
      'who am I': ['whoami'],
      'find a project': ['list_projects', 'get_project', 'search'],
      'read and write issues': ['list_issues', 'get_issue', 'create_issue', 'update_issue', 'create_issue_note', 'list_issue_discussions'],
      'review and comment on a merge request': [
        'list_merge_requests',
        'get_merge_request',
        'list_merge_request_diffs',
        'mr_discussions',
        'create_merge_request_thread',
        'create_merge_request_discussion_note',
        'approve_merge_request',
      ],
      'see why a pipeline failed': ['list_pipelines', 'get_pipeline', 'list_pipeline_jobs', 'get_pipeline_job', 'get_pipeline_job_output'],
      'read a file': ['get_file_contents', 'get_repository_tree'],
    };
    for (const [job, tools] of Object.entries(jobs)) expect([job, tools.filter((t) => !DEFAULT_TOOLS.has(t))]).toEqual([job, []]);
  });

  test('read-only mode lists only read tools', async () => {
    const listed = await listedNames({ FORGE_TOOLSETS: 'all,variables', FORGE_READ_ONLY_MODE: 'true' });
    expect(listed).toEqual(names((t) => t.mode === 'read'));
    expect(listed.length).toBeGreaterThan(0);
  });

  test('selectTools is a pure filter over groups and mode', () => {
    for (const group of TOOL_GROUPS) {
      const picked = selectTools(ALL_TOOLS, { groups: new Set([group]), readOnly: true });
      expect(picked.every((t) => t.group === group && t.mode === 'read')).toBe(true);
    }
  });
});

describe('tools/call protocol errors', () => {
  test('read-only mode refuses a write tool at call time, without an upstream call', async () => {
    const session = await connect(app({ FORGE_TOOLSETS: 'branches', FORGE_READ_ONLY_MODE: 'true' }), { 'Private-Token': TOKEN });
    const result = await session.call('delete_branch', { project_id: '1', branch_name: 'x' });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { kind: string } }).error.kind).toBe('permission');
    await session.close();
  });

  test('an unknown tool is a JSON-RPC -32602 error with a plain message', async () => {
    const a = app({});
    const init = await rpc(a, INITIALIZE, { 'Private-Token': TOKEN });
    const sid = init.headers.get('mcp-session-id')!;
    const response = await rpc(a, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }, { 'mcp-session-id': sid });
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
  });

  test('a tool of a disabled group is unknown', async () => {
    const session = await connect(app({ FORGE_TOOLSETS: 'issues' }), { 'Private-Token': TOKEN });
    await expect(session.call('get_branch', { project_id: '1', branch_name: 'x' })).rejects.toThrow('Unknown tool: get_branch');
    await session.close();
  });

  test('arguments that are not an object, or miss required ones, are a validation result naming the parameter', async () => {
    const session = await connect(app({ FORGE_TOOLSETS: 'branches,issues' }), { 'Private-Token': TOKEN });
    const result = await session.call('get_branch', { project_id: '1' });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'validation: branch_name: is required' }]);
    const extra = await session.call('get_branch', { project_id: '1', branch_name: 'x', colour: 'red' });
    expect((extra.structuredContent as { error: { message: string } }).error.message).toBe('colour: is not a parameter of this tool');
    await session.close();
  });

  test('a missing required parameter says so, even when the parameter has a format hint', async () => {
    const session = await connect(app({ FORGE_TOOLSETS: 'branches,issues' }), { 'Private-Token': TOKEN });
    const result = await session.call('get_issue', { project_id: '1' });
    expect((result.structuredContent as { error: { message: string } }).error.message).toBe('issue_iid: is required');
    await session.close();
  });

  test('numbers are accepted where a string id is expected', async () => {
    const session = await connect(app({ FORGE_TOOLSETS: 'branches,issues' }), { 'Private-Token': TOKEN });
    // The forge is unreachable here: getting past validation shows up as an upstream error.
    const result = await session.call('get_branch', { project_id: 42, branch_name: 'main' });
    expect((result.structuredContent as { error: { kind: string } }).error.kind).toBe('upstream');
    await session.close();
  });
});
