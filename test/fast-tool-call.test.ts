// The modern lane's plain tools/call path (src/http/lane.ts, fast-tool-call.ts) against the SDK's own
// answers: every request is sent to two apps on the same fake forge, one with the path on and one
// with it off (every request to the SDK's createMcpHandler). Valid plain calls must be taken and
// answered exactly as the SDK answers them (status, headers, JSON body, metrics, log lines); near
// misses must not be taken, so the SDK answers them, including every protocol fault.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { plainModernToolCall } from '../src/http/lane';
import { sealerFromConfig } from '../src/sealing/from-config';
import type { Sealer } from '../src/sealing/sealer';
import { useApps } from './support/apps';
import { testConfig } from './support/config';
import { HOSTILE_ISSUE_FIELDS } from './support/hostile-text';
import { fastPathPair, type FastPathPair } from './support/fast-path-pair';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { MODERN_VERSION, modernHeaders, modernMessage, rpc } from './support/mcp-client';

const TOKEN = TOKENS.maintainer;
let forge: FakeForge;

const apps = useApps(() => forge.apiUrl);
const pair = (overrides: Record<string, string> = {}, sealer?: Sealer): FastPathPair => fastPathPair(apps, overrides, sealer);

beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => forge.reset());
afterAll(async () => {
  await forge.stop();
});

interface Answer {
  status: number;
  headers: [string, string][];
  body: unknown;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, headers: [...response.headers].sort(), body: text === '' ? '' : JSON.parse(text) };
}

/** The same request to both apps, the SDK-only one first; the forge is reset between them. */
async function both(p: FastPathPair, body: unknown, headers: Record<string, string>): Promise<{ fast: Answer; sdk: Answer }> {
  const sdk = await answer(await rpc(p.sdk, body, headers));
  forge.reset();
  const fast = await answer(await rpc(p.fast, body, headers));
  return { fast, sdk };
}

/** The tool_call and tool_call_failed log lines without what varies from run to run. */
const toolLines = (entries: Record<string, unknown>[]) =>
  entries.filter((e) => String(e.event).startsWith('tool_call')).map(({ time, ms, upstream_ms, request_id, ...rest }) => rest);

const project = String(SEED.project);
const VALID: { label: string; id: string | number; params: Record<string, unknown>; meta?: Record<string, unknown> }[] = [
  { label: 'get_branch, ok, string id', id: 'call-1', params: { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } } },
  { label: 'get_branch, ok, number id', id: 7, params: { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } } },
  { label: 'get_branch, not_found tool error', id: 8, params: { name: 'get_branch', arguments: { project_id: project, branch_name: 'no-such-branch' } } },
  { label: 'get_issue, ok', id: 'i-1', params: { name: 'get_issue', arguments: { project_id: SEED.projectPath, issue_iid: 1 } } },
  { label: 'list_issues, paginated', id: 9, params: { name: 'list_issues', arguments: { project_id: project, per_page: 2 } } },
  { label: 'get_issue, validation tool error', id: 10, params: { name: 'get_issue', arguments: { project_id: project, issue_iid: -1 } } },
  { label: 'list_todos, no arguments', id: 11, params: { name: 'list_todos' } },
  { label: 'get_issue, arguments {}', id: 12, params: { name: 'get_issue', arguments: {} } },
  { label: 'unknown tool (-32602)', id: 13, params: { name: 'no_such_tool', arguments: {} } },
  {
    label: 'clientInfo and empty capabilities',
    id: 14,
    params: { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } },
    meta: {
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1', title: 'C' },
      'io.modelcontextprotocol/clientCapabilities': { roots: {}, elicitation: {} },
    },
  },
  { label: 'a string id that JSON escapes', id: 'q"\\é\n', params: { name: 'get_issue', arguments: { project_id: project, issue_iid: 1 } } },
  { label: 'charset in Content-Type', id: 15, params: { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } } },
];

describe('plain calls: taken, and answered as the SDK answers them', () => {
  for (const c of VALID) {
    test(c.label, async () => {
      const p = pair();
      const message = modernMessage(c.id, 'tools/call', c.params);
      if (c.meta) message.params._meta = { ...message.params._meta, ...c.meta } as typeof message.params._meta;
      const headers = { ...modernHeaders(message), 'Private-Token': TOKEN, ...(c.id === 15 && { 'content-type': 'application/json; charset=utf-8' }) };
      // Plain, and modern by the SDK's own classification, which the prelude skips for it.
      const request = new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(message),
      });
      expect(plainModernToolCall(request, message)).toBeDefined();
      expect(await isLegacyRequest(request, message)).toBe(false);
      const { fast, sdk } = await both(p, message, headers);
      expect(p.taken()).toBe(1);
      expect(fast).toEqual(sdk);
      expect(sdk.status).toBe(200);
      expect(p.fast.metrics.toolCalls).toEqual(p.sdk.metrics.toolCalls);
      expect(toolLines(p.logs.fast())).toEqual(toolLines(p.logs.sdk()));
      // Every call has its audit line (D35), an unknown tool's too (outcome protocol_error).
      expect(toolLines(p.logs.sdk())).toHaveLength(1);
      if (c.params.name === 'no_such_tool') expect(toolLines(p.logs.sdk())[0]).toMatchObject({ event: 'tool_call', outcome: 'protocol_error' });
    });
  }

  // The answer embeds the result's own JSON text as structuredContent (fast-tool-call.ts): text the
  // printer must escape, and a result cut to MAX_RESULT_BYTES, come out as the SDK prints them.
  test.each(HOSTILE_ISSUE_FIELDS)('forge text with %s is answered as the SDK answers it', async (_, fields) => {
    const p = pair();
    const message = modernMessage('hostile', 'tools/call', { name: 'get_issue', arguments: { project_id: project, issue_iid: 1 } });
    const headers = { ...modernHeaders(message), 'Private-Token': TOKEN };
    const plant = () => Object.assign(forge.model.projects.get(SEED.project)!.issues.get(1)!, fields);
    plant();
    const sdk = await answer(await rpc(p.sdk, message, headers));
    forge.reset();
    plant();
    const fast = await answer(await rpc(p.fast, message, headers));
    expect(p.taken()).toBe(1);
    expect(fast).toEqual(sdk);
    const result = (sdk.body as { result: { structuredContent: Record<string, unknown>; content: { text: string }[] } }).result;
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  test('a bug in the tool (-32603) is answered as the SDK answers it, counted and logged alike', async () => {
    const p = pair();
    for (const app of [p.fast, p.sdk]) {
      app.catalog.call = async () => {
        throw new TypeError('boom in the tool');
      };
    }
    const message = modernMessage(21, 'tools/call', { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } });
    const { fast, sdk } = await both(p, message, { ...modernHeaders(message), 'Private-Token': TOKEN });
    expect(p.taken()).toBe(1);
    expect(fast).toEqual(sdk);
    expect((sdk.body as { error: { code: number } }).error.code).toBe(-32603);
    // The bug's own error line, then the call's audit line (D35).
    expect(toolLines(p.logs.sdk()).map((l) => l.event)).toEqual(['tool_call_failed', 'tool_call']);
    expect(toolLines(p.logs.sdk())[1]).toMatchObject({ outcome: 'error' });
    expect(toolLines(p.logs.fast())).toEqual(toolLines(p.logs.sdk()));
  });

  test('stateless mode: the modern lane is the same', async () => {
    const stateless = { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 5).toString('base64url') };
    const p = pair(stateless, await sealerFromConfig(testConfig(forge.apiUrl, stateless)));
    const message = modernMessage('s-1', 'tools/call', { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } });
    const { fast, sdk } = await both(p, message, { ...modernHeaders(message), 'Private-Token': TOKEN });
    expect(p.taken()).toBe(1);
    expect(fast).toEqual(sdk);
  });

  test("after the lane's checks: a missing credential and the rate limit are answered before it", async () => {
    const p = pair({ MAX_REQUESTS_PER_MINUTE: '1' });
    const message = modernMessage(1, 'tools/call', { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } });
    const noCredential = await answer(await rpc(p.fast, message, modernHeaders(message)));
    expect(noCredential.status).toBe(401);
    const first = await answer(await rpc(p.fast, message, { ...modernHeaders(message), 'Private-Token': TOKEN }));
    const second = await answer(await rpc(p.fast, message, { ...modernHeaders(message), 'Private-Token': TOKEN }));
    expect([first.status, second.status]).toEqual([429, 429]); // the address's one request was the refused one
    expect(p.taken()).toBe(0);
  });
});

const BRANCH = { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } };
const base = () =>
  modernMessage(31, 'tools/call', BRANCH) as Record<string, unknown> & { params: Record<string, unknown> & { _meta: Record<string, unknown> } };
const baseHeaders = () => ({ ...modernHeaders(modernMessage(31, 'tools/call', BRANCH)), 'Private-Token': TOKEN });
const withMeta = (meta: Record<string, unknown>) => {
  const m = base();
  m.params._meta = meta;
  return m;
};
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };
const without = (headers: Record<string, string>, name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));

const NEAR_MISSES: { label: string; body: () => unknown; headers: () => Record<string, string>; status?: number }[] = [
  { label: 'MCP-Protocol-Version missing', body: base, headers: () => without(baseHeaders(), 'mcp-protocol-version'), status: 400 },
  { label: 'MCP-Protocol-Version another revision', body: base, headers: () => ({ ...baseHeaders(), 'mcp-protocol-version': '2025-11-25' }), status: 400 },
  { label: 'Mcp-Method missing', body: base, headers: () => without(baseHeaders(), 'mcp-method'), status: 400 },
  { label: 'Mcp-Method mismatched', body: base, headers: () => ({ ...baseHeaders(), 'mcp-method': 'tools/list' }), status: 400 },
  { label: 'Mcp-Method in another case', body: base, headers: () => ({ ...baseHeaders(), 'mcp-method': 'Tools/Call' }), status: 400 },
  { label: 'Mcp-Name missing', body: base, headers: () => without(baseHeaders(), 'mcp-name'), status: 400 },
  { label: 'Mcp-Name mismatched', body: base, headers: () => ({ ...baseHeaders(), 'mcp-name': 'get_issue' }), status: 400 },
  {
    label: 'Mcp-Name base64-encoded (valid: the SDK serves it)',
    body: base,
    headers: () => ({ ...baseHeaders(), 'mcp-name': `=?base64?${btoa('get_branch')}?=` }),
    status: 200,
  },
  { label: 'Mcp-Name base64 of another name', body: base, headers: () => ({ ...baseHeaders(), 'mcp-name': `=?base64?${btoa('get_issue')}?=` }), status: 400 },
  {
    label: 'envelope names another version',
    body: () => withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }),
    headers: () => ({ ...baseHeaders(), 'mcp-protocol-version': 'v999.0.0' }),
    status: 400,
  },
  {
    label: 'envelope version differs from the header',
    body: () => withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
    headers: baseHeaders,
    status: 400,
  },
  {
    label: 'clientCapabilities missing',
    body: () => withMeta({ 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION }),
    headers: baseHeaders,
    status: 400,
  },
  {
    label: 'clientCapabilities not an object',
    body: () => withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': 'all' }),
    headers: baseHeaders,
    status: 400,
  },
  {
    label: 'clientCapabilities with content (valid: the SDK serves it)',
    body: () => withMeta({ ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }),
    headers: baseHeaders,
    status: 200,
  },
  { label: 'progressToken in _meta (valid: the SDK serves it)', body: () => withMeta({ ...ENVELOPE, progressToken: 'p1' }), headers: baseHeaders, status: 200 },
  { label: 'no _meta at all', body: () => ({ jsonrpc: '2.0', id: 31, method: 'tools/call', params: BRANCH }), headers: baseHeaders, status: 400 },
  { label: 'batch of one', body: () => [base()], headers: baseHeaders, status: 400 },
  { label: 'notification (no id)', body: () => ({ ...base(), id: undefined }), headers: baseHeaders, status: 202 },
  {
    label: 'another method (tools/list)',
    body: () => ({ ...base(), method: 'tools/list', params: { _meta: ENVELOPE } }),
    headers: () => ({ ...without(baseHeaders(), 'mcp-name'), 'mcp-method': 'tools/list' }),
    status: 200,
  },
  { label: 'id null', body: () => ({ ...base(), id: null }), headers: baseHeaders },
  { label: 'id a fraction', body: () => ({ ...base(), id: 1.5 }), headers: baseHeaders },
  { label: 'jsonrpc 1.0', body: () => ({ ...base(), jsonrpc: '1.0' }), headers: baseHeaders },
  { label: 'an extra member in the message', body: () => ({ ...base(), extra: true }), headers: baseHeaders },
  { label: 'arguments an array', body: () => ({ ...base(), params: { ...base().params, arguments: [1] } }), headers: baseHeaders, status: 200 },
  // The SDK's parse of the arguments (zod) leaves out a member named __proto__ and serves the call;
  // the plain path would pass it to the tool's validation, which refuses it as no parameter.
  {
    label: 'an argument named __proto__',
    body: () => ({
      ...base(),
      params: { ...base().params, arguments: JSON.parse(`{"project_id":"${project}","branch_name":"main","__proto__":{"search":"x"}}`) },
    }),
    headers: baseHeaders,
    status: 200,
  },
  { label: 'name not a string', body: () => ({ ...base(), params: { ...base().params, name: 7 } }), headers: () => without(baseHeaders(), 'mcp-name') },
  {
    label: 'name with a space (header cannot mirror it plainly)',
    body: () => ({ ...base(), params: { ...base().params, name: 'get branch' } }),
    headers: () => ({ ...baseHeaders(), 'mcp-name': 'get branch' }),
    status: 200,
  },
  { label: 'Content-Type text/plain', body: base, headers: () => ({ ...baseHeaders(), 'content-type': 'text/plain' }), status: 415 },
];

describe('near misses: not taken, answered by the SDK', () => {
  for (const c of NEAR_MISSES) {
    test(c.label, async () => {
      const p = pair();
      const { fast, sdk } = await both(p, c.body(), c.headers());
      expect(p.taken()).toBe(0);
      expect(fast).toEqual(sdk);
      if (c.status !== undefined) expect(sdk.status).toBe(c.status);
    });
  }

  test('whitespace around a header value: Headers strip it before either path reads it, so the answer is the same', async () => {
    const p = pair();
    const request = new Request('http://localhost/mcp', { method: 'POST', headers: { ...baseHeaders(), 'mcp-name': ' get_branch\t' } });
    expect(request.headers.get('mcp-name')).toBe('get_branch');
    const { fast, sdk } = await both(p, base(), { ...baseHeaders(), 'mcp-name': ' get_branch\t' });
    expect(fast).toEqual(sdk);
    expect(sdk.status).toBe(200);
  });

  test('the predicate itself refuses GET and a missing body', () => {
    const get = new Request('http://localhost/mcp', { method: 'GET', headers: baseHeaders() });
    expect(plainModernToolCall(get, base())).toBeUndefined();
    const post = new Request('http://localhost/mcp', { method: 'POST', headers: { ...baseHeaders(), 'content-type': 'application/json' } });
    expect(plainModernToolCall(post, undefined)).toBeUndefined();
    expect(plainModernToolCall(post, base())).toEqual({ id: 31, params: base().params as never });
  });
});
