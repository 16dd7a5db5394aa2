// Per-request policy (D34): headers X-MCP-Toolsets, X-MCP-Tools, X-MCP-Exclude-Tools, X-MCP-Readonly
// and the paths /mcp/readonly, /mcp/x/{groups}[/readonly] narrow tools/list and tools/call on both
// lanes, and nothing a request says ever widens what the deployment allows: a matrix over
// deployments (groups, read-only, a read_api token) and requests (headers, paths, both).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { ALL_TOOLS } from '../src/tools/catalog';
import { DEFAULT_TOOLS } from '../src/tools/default-set';
import { PolicyCatalogs } from '../src/mcp/policy';
import { SEED, startFakeForge, TOKENS, type FakeForge } from './support/fake-forge';
import { resetForge, serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { ownTokens } from './support/fake-oauth-steps';
import { testConfig } from './support/config';
import { connect, INITIALIZE, MCP_URL, modernRpc, rpc, toolError, type Lane } from './support/mcp-client';

let forge: FakeForge;
const apps = new Map<string, ForgeApp>();
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await Promise.all([...apps.values()].map((a) => a.close()));
  await forge.stop();
});

/** One app per deployment setting, built once. */
function deployment(overrides: Record<string, string>): ForgeApp {
  const key = JSON.stringify(overrides);
  let app = apps.get(key);
  if (!app) {
    app = createApp(testConfig(forge.apiUrl, overrides));
    apps.set(key, app);
  }
  return app;
}

const AUTH = { 'Private-Token': TOKENS.maintainer };
const P = String(SEED.project);
const names = (filter: (t: (typeof ALL_TOOLS)[number]) => boolean) =>
  ALL_TOOLS.filter(filter)
    .map((t) => t.name)
    .sort();

async function listed(app: ForgeApp, lane: Lane, headers: Record<string, string> = {}, path = ''): Promise<string[]> {
  const c = await connect(app, { ...AUTH, ...headers }, `${MCP_URL}${path}`, { lane });
  try {
    return (await c.client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await c.close();
  }
}

async function called(app: ForgeApp, lane: Lane, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}, path = '') {
  const c = await connect(app, { ...AUTH, ...headers }, `${MCP_URL}${path}`, { lane });
  try {
    forge.requests.length = 0;
    return await c.call(name, args).then(
      (r) => ({ result: r, thrown: undefined }),
      (e: Error) => ({ result: undefined, thrown: e.message }),
    );
  } finally {
    await c.close();
  }
}

// Every group: variables is never part of `all` (D13), so it is named too.
const ALL = { FORGE_TOOLSETS: 'all,variables' };
// FORGE_TOOLSETS not given (an empty value): the default set (D40).
const DEFAULT = { FORGE_TOOLSETS: '' };
const reads = (groups: string[]) => names((t) => groups.includes(t.group) && t.mode === 'read');
const inGroups = (groups: string[]) => names((t) => groups.includes(t.group));

describe.each(['legacy', 'modern'] as Lane[])('tools/list on the %s lane', (lane) => {
  // [what, deployment, request headers, request path, expected tools]
  const matrix: [string, Record<string, string>, Record<string, string>, string, string[]][] = [
    ['no policy', ALL, {}, '', names(() => true)],
    ['X-MCP-Toolsets', ALL, { 'X-MCP-Toolsets': 'issues' }, '', inGroups(['issues'])],
    ['X-MCP-Tools', ALL, { 'X-MCP-Tools': 'get_issue, list_issues' }, '', ['get_issue', 'list_issues']],
    [
      'X-MCP-Exclude-Tools',
      ALL,
      { 'X-MCP-Exclude-Tools': 'delete_issue,delete_branch' },
      '',
      names((t) => !['delete_issue', 'delete_branch'].includes(t.name)),
    ],
    ['X-MCP-Readonly', ALL, { 'X-MCP-Readonly': 'true' }, '', names((t) => t.mode === 'read')],
    ['/mcp/readonly', ALL, {}, '/readonly', names((t) => t.mode === 'read')],
    ['/mcp/x/issues,branches', ALL, {}, '/x/issues,branches', inGroups(['issues', 'branches'])],
    ['/mcp/x/branches/readonly', ALL, {}, '/x/branches/readonly', reads(['branches'])],
    ['path and header intersect', ALL, { 'X-MCP-Toolsets': 'issues,milestones' }, '/x/issues,branches', inGroups(['issues'])],
    ['path and header with nothing in common: no tools', ALL, { 'X-MCP-Toolsets': 'milestones' }, '/x/issues', []],
    // Widening attempts: each gets at most what the deployment allows.
    [
      'read-only deployment + X-MCP-Tools naming a write tool',
      { ...ALL, FORGE_READ_ONLY_MODE: 'true' },
      { 'X-MCP-Tools': 'create_issue,get_issue' },
      '',
      ['get_issue'],
    ],
    [
      'read-only deployment + X-MCP-Readonly: false',
      { ...ALL, FORGE_READ_ONLY_MODE: 'true' },
      { 'X-MCP-Readonly': 'false' },
      '',
      names((t) => t.mode === 'read'),
    ],
    ['branches deployment + X-MCP-Toolsets: issues', { FORGE_TOOLSETS: 'branches' }, { 'X-MCP-Toolsets': 'issues' }, '', []],
    ['branches deployment + /mcp/x/issues,branches', { FORGE_TOOLSETS: 'branches' }, {}, '/x/issues,branches', inGroups(['branches'])],
    ['branches deployment + X-MCP-Tools naming issue tools', { FORGE_TOOLSETS: 'branches' }, { 'X-MCP-Tools': 'get_issue,get_branch' }, '', ['get_branch']],
    // D40: `default` names the default set's tools; a group narrows the default set to its tools.
    ['X-MCP-Toolsets: default', ALL, { 'X-MCP-Toolsets': 'default' }, '', names((t) => DEFAULT_TOOLS.has(t.name))],
    ['/mcp/x/default,wiki', ALL, {}, '/x/default,wiki', names((t) => DEFAULT_TOOLS.has(t.name) || t.group === 'wiki')],
    [
      'default deployment + X-MCP-Toolsets: pipelines',
      DEFAULT,
      { 'X-MCP-Toolsets': 'pipelines' },
      '',
      names((t) => DEFAULT_TOOLS.has(t.name) && t.group === 'pipelines'),
    ],
    ['default deployment + X-MCP-Toolsets: variables', DEFAULT, { 'X-MCP-Toolsets': 'variables' }, '', []],
    [
      'branches deployment + X-MCP-Toolsets: default',
      { FORGE_TOOLSETS: 'branches' },
      { 'X-MCP-Toolsets': 'default' },
      '',
      names((t) => DEFAULT_TOOLS.has(t.name) && t.group === 'branches'),
    ],
    [
      'issues deployment + every header at once',
      { FORGE_TOOLSETS: 'issues' },
      { 'X-MCP-Toolsets': 'issues,branches,milestones', 'X-MCP-Readonly': 'false', 'X-MCP-Exclude-Tools': 'get_issue' },
      '/x/issues,branches',
      names((t) => t.group === 'issues' && t.name !== 'get_issue'),
    ],
  ];
  test.each(matrix)('%s', async (_, settings, headers, path, expected) => {
    const got = await listed(deployment(settings), lane, headers, path);
    expect(got).toEqual(expected);
    // Never wider than the deployment's own list.
    const own = await listed(deployment(settings), lane);
    expect(got.every((name) => own.includes(name))).toBe(true);
  });
});

describe.each(['legacy', 'modern'] as Lane[])('tools/call on the %s lane', (lane) => {
  test('a tool the policy leaves out is unknown; a write under X-MCP-Readonly is refused; nothing reaches the forge', async () => {
    const app = deployment(ALL);
    const out = await called(app, lane, 'get_issue', { project_id: P, issue_iid: 1 }, { 'X-MCP-Toolsets': 'branches' });
    expect(out.thrown ?? JSON.stringify(out.result)).toContain('Unknown tool: get_issue');
    const ro = await called(app, lane, 'create_issue', { project_id: P, title: 'x' }, { 'X-MCP-Readonly': 'true' });
    expect(toolError(ro.result!)).toEqual({
      kind: 'permission',
      status: null,
      message: 'create_issue changes data and this request is read-only (X-MCP-Readonly or a /readonly path)',
    });
    const path = await called(app, lane, 'delete_branch', { project_id: P, branch_name: 'main' }, {}, '/x/branches/readonly');
    expect(toolError(path.result!).kind).toBe('permission');
    expect(forge.requests.filter((r) => r.path !== '/api/v4/user')).toEqual([]);
  });

  test('a read-only deployment stays read-only whatever the request says', async () => {
    const app = deployment({ ...ALL, FORGE_READ_ONLY_MODE: 'true' });
    const out = await called(app, lane, 'create_issue', { project_id: P, title: 'x' }, { 'X-MCP-Tools': 'create_issue', 'X-MCP-Readonly': 'false' });
    expect(out.thrown ?? JSON.stringify(out.result)).toMatch(/Unknown tool: create_issue|read-only mode/);
    expect(forge.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test('a tool the policy keeps works as usual', async () => {
    const out = await called(deployment(ALL), lane, 'get_issue', { project_id: P, issue_iid: 1 }, { 'X-MCP-Tools': 'get_issue' }, '/x/issues/readonly');
    expect(out.result?.isError).toBeFalsy();
  });
});

describe('refusals: 400 naming the header or path, on both lanes', () => {
  const cases: [string, Record<string, string>, string, string][] = [
    ['unknown group', { 'X-MCP-Toolsets': 'issues,snippets' }, '', 'X-MCP-Toolsets: unknown tool group "snippets"'],
    ['unknown tool', { 'X-MCP-Tools': 'get_issue,drop_database' }, '', 'X-MCP-Tools: unknown tool "drop_database"'],
    ['unknown excluded tool', { 'X-MCP-Exclude-Tools': 'nope' }, '', 'X-MCP-Exclude-Tools: unknown tool "nope"'],
    ['a name that is no name, shortened', { 'X-MCP-Tools': `${'a'.repeat(100)}<script>` }, '', `X-MCP-Tools: unknown tool "${'a'.repeat(64)}…"`],
    ['an empty list', { 'X-MCP-Toolsets': ' , ' }, '', 'X-MCP-Toolsets: names no tool group'],
    ['a huge header', { 'X-MCP-Tools': 'get_issue,'.repeat(1000) }, '', 'X-MCP-Tools: longer than 4096 characters'],
    ['too many names', { 'X-MCP-Exclude-Tools': Array(101).fill('get_issue').join(',') }, '', 'X-MCP-Exclude-Tools: more than 100 names'],
    ['a bad flag', { 'X-MCP-Readonly': 'yes please' }, '', 'X-MCP-Readonly: must be true or false'],
    ['unknown group in the path', {}, '/x/issues,admin', 'path: unknown tool group "admin"'],
    ['an empty path list', {}, '/x/', 'path: names no tool group'],
  ];
  test.each(cases)('%s', async (_, headers, path, message) => {
    const app = deployment(ALL);
    const legacy = await app.handle(
      new Request(`${MCP_URL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...AUTH, ...headers },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(legacy.status).toBe(400);
    expect(((await legacy.json()) as { error: { message: string } }).error.message).toBe(message);
    if (path === '') {
      const modern = await modernRpc(app, 'm1', 'tools/list', {}, { ...AUTH, ...headers });
      expect(modern.status).toBe(400);
      expect(await modern.json()).toMatchObject({ id: 'm1', error: { message } });
    }
  });

  test('other paths under /mcp are not found', async () => {
    for (const path of ['/x/issues/readonly/more', '/readonly/x/issues', '/x/issues/writable']) {
      const response = await rpc({ handle: (r) => deployment(ALL).handle(new Request(`${MCP_URL}${path}`, r)) }, INITIALIZE, AUTH);
      expect(response.status).toBe(404);
    }
  });
});

describe('legacy sessions keep the policy of their initialize', () => {
  test('later requests of the session neither drop nor change it', async () => {
    const app = deployment(ALL);
    const init = await rpc(app, INITIALIZE, { ...AUTH, 'X-MCP-Readonly': 'true', 'X-MCP-Toolsets': 'issues' });
    const sid = init.headers.get('mcp-session-id')!;
    await rpc(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...AUTH, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' });
    const list = await rpc(
      app,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18', 'X-MCP-Toolsets': 'branches,issues,milestones' },
    );
    const tools = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name).sort();
    expect(tools).toEqual(reads(['issues']));
  });

  test('stateless mode seals the policy into the session id', async () => {
    const app = createApp(
      testConfig(forge.apiUrl, { ...ALL, OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 7).toString('base64url') }),
      {
        sealer: await (await import('../src/sealing/from-config')).sealerFromConfig(
          testConfig(forge.apiUrl, { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 7).toString('base64url') }),
        ),
      },
    );
    apps.set('stateless', app);
    const init = await app.handle(
      new Request(`${MCP_URL}/x/branches/readonly`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...AUTH },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    const sid = init.headers.get('mcp-session-id')!;
    const list = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' });
    expect(((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name).sort()).toEqual(reads(['branches']));
  });
});

describe('modern lane cache hints', () => {
  test("a narrowed tools/list is private; the deployment's own is public", async () => {
    const app = deployment(ALL);
    const narrowed = (await (await modernRpc(app, 1, 'tools/list', {}, { ...AUTH, 'X-MCP-Readonly': 'true' })).json()) as { result: { cacheScope: string } };
    expect(narrowed.result.cacheScope).toBe('private');
    const own = (await (await modernRpc(app, 2, 'tools/list', {}, AUTH)).json()) as { result: { cacheScope: string } };
    expect(own.result.cacheScope).toBe('public');
  });

  test('the plain tools/call path honours the policy too', async () => {
    let taken = 0;
    const app = createApp(testConfig(forge.apiUrl, ALL), { onFastToolCall: () => taken++ });
    apps.set('fast', app);
    const response = await modernRpc(
      app,
      'c',
      'tools/call',
      { name: 'create_issue', arguments: { project_id: P, title: 'x' } },
      { ...AUTH, 'X-MCP-Readonly': 'true' },
    );
    const body = (await response.json()) as { result: { isError: boolean; structuredContent: { error: { kind: string } } } };
    expect(taken).toBe(1);
    expect(body.result.isError).toBe(true);
    expect(body.result.structuredContent.error.kind).toBe('permission');
  });
});

describe('a read_api token (D29) with policy headers', () => {
  let served: ServedOAuth;
  beforeAll(async () => {
    served = await serveOAuth(forge, {});
    resetForge(forge, served);
  });
  afterAll(() => served.stop());

  test('headers naming write tools list none of them, and a write call still gets the step-up 403', async () => {
    const token = (await ownTokens(served.url, { scope: 'read_api' })).access_token;
    const headers = { Authorization: `Bearer ${token}`, 'X-MCP-Tools': 'create_branch,get_branch,delete_branch', 'X-MCP-Readonly': 'false' };
    const c = await connect({ handle: (r) => fetch(new Request(r.url.replace(MCP_URL, `${served.url}/mcp`), r)) }, headers, MCP_URL, { lane: 'modern' });
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['get_branch']);
    await c.close();
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'create_branch',
        arguments: { project_id: P, branch: 'x', ref: 'main' },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    };
    const refused = await fetch(`${served.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'create_branch',
        ...headers,
      },
      body: JSON.stringify(message),
    });
    expect(refused.status).toBe(403);
  });
});

describe('policy catalogs', () => {
  test("one per distinct policy, built from the deployment's entries, bounded", () => {
    const base = deployment(ALL).catalog;
    const catalogs = new PolicyCatalogs(base, 2);
    const a = catalogs.for('r');
    expect(catalogs.for('r')).toBe(a);
    expect(catalogs.for(undefined)).toBe(base);
    catalogs.for('g=issues');
    catalogs.for('g=branches');
    expect(catalogs.size).toBe(2);
    expect(catalogs.for('r')).not.toBe(a);
    expect(a.listResult.tools[0]).toBe(base.listResult.tools.find((t) => t.name === a.listResult.tools[0].name)!);
  });
});
