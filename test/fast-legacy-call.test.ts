// The legacy lane's plain tools/call (src/http/lane.ts, fast-tool-call.ts) against the SDK's
// own answers, in both modes: every request is sent to two apps on the same fake forge (and, in
// stateless mode, the same sealer), one with the path on and one with it off (every request to the
// SDK's transport: a session's, or a fresh one per request). Valid plain calls must be taken and
// answered exactly as the SDK answers them (status, headers, JSON body, the session id or the
// caller sealed in the new one, metrics, log lines); near misses must not be taken, so the SDK
// answers them, including every protocol fault. Every POST ends on both paths, however requests
// overlap: a cancelled call, a session closed while a call runs, a reused request id.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { ForgeApp } from '../src/app';
import { isPlainLegacyRequest, plainLegacyToolCall } from '../src/http/lane';
import { sealerFromConfig } from '../src/sealing/from-config';
import type { Sealer } from '../src/sealing/sealer';
import { useApps } from './support/apps';
import { testConfig } from './support/config';
import { startHeldForge } from './support/held-forge';
import { HOSTILE_ISSUE_FIELDS } from './support/hostile-text';
import { fastPathPair, type FastPathPair } from './support/fast-path-pair';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE, connect, rpc } from './support/mcp-client';

const TOKEN = TOKENS.maintainer;
const STATELESS = { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 7).toString('base64url') };
let forge: FakeForge;

type Mode = 'stateless' | 'stateful';

interface Pair extends FastPathPair {
  mode: Mode;
  sealer: Sealer;
}
const apps = useApps(() => forge.apiUrl);

async function pair(mode: Mode, overrides: Record<string, string> = {}): Promise<Pair> {
  const sealer = await sealerFromConfig(testConfig(forge.apiUrl, STATELESS));
  const made = fastPathPair(apps, { ...(mode === 'stateless' && STATELESS), ...overrides }, sealer);
  return { ...made, mode, sealer };
}

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
  /** What the answer's freshly sealed Mcp-Session-Id holds but its issue time (each sealing differs in its bytes). */
  session?: Record<string, unknown>;
}

/** `sessionId`: the stateful session the request named, whose id the answer must carry. */
async function answer(response: Response, p: Pair, sessionId?: string): Promise<Answer> {
  const text = await response.text();
  const sid = response.headers.get('mcp-session-id');
  let session: Record<string, unknown> | undefined;
  if (p.mode === 'stateless' && sid !== null) {
    const opened = await p.sealer.open<Record<string, unknown>>('sid', sid);
    if (!opened.ok) throw new Error('the answer carries a session id that does not open');
    // Sealed a moment apart, the two may be issued in different seconds.
    const { iat, ...payload } = opened.payload;
    if (typeof iat !== 'number') throw new Error("the answer's session id has no issue time");
    session = payload;
  }
  if (p.mode === 'stateful' && sid !== null && sid !== sessionId) throw new Error(`the answer carries another session's id: ${sid}`);
  return {
    status: response.status,
    headers: [...response.headers].map(([k, v]): [string, string] => [k, k === 'mcp-session-id' ? '(session)' : v]).sort(),
    body: text === '' ? '' : JSON.parse(text),
    session,
  };
}

/** A session on each app: stateless ids open on both (one sealer, one audience), stateful ones are each app's own. */
async function sessions(p: Pair): Promise<{ fast: string; sdk: string }> {
  const open = async (app: ForgeApp) => {
    const response = await rpc(app, INITIALIZE, { 'Private-Token': TOKEN });
    await response.text();
    const id = response.headers.get('mcp-session-id')!;
    await (await rpc(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id })).text();
    return id;
  };
  if (p.mode === 'stateless') {
    const id = await open(p.sdk);
    return { fast: id, sdk: id };
  }
  return { fast: await open(p.fast), sdk: await open(p.sdk) };
}

/**
 * The same request to both apps, the SDK-only one first; the forge is reset between them.
 * `sids`: the session each app's request names (absent: none).
 */
async function both(p: Pair, body: unknown, headers: Record<string, string>, sids?: { fast: string; sdk: string }): Promise<{ fast: Answer; sdk: Answer }> {
  const named = (sid: string | undefined) => (sid ? { ...headers, 'mcp-session-id': sid } : headers);
  const sdk = await answer(await rpc(p.sdk, body, named(sids?.sdk)), p, sids?.sdk);
  forge.reset();
  const fast = await answer(await rpc(p.fast, body, named(sids?.fast)), p, sids?.fast);
  return { fast, sdk };
}

/** The tool_call and tool_call_failed log lines without what varies from run to run. */
const toolLines = (entries: Record<string, unknown>[]) =>
  entries.filter((e) => String(e.event).startsWith('tool_call')).map(({ time, ms, upstream_ms, request_id, session, ...rest }) => rest);

const call = (id: string | number, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });
const project = String(SEED.project);
const BRANCH = { name: 'get_branch', arguments: { project_id: project, branch_name: 'main' } };

type Credentials = 'token' | 'session' | 'both';
const VALID: { label: string; id: string | number; params: Record<string, unknown>; headers?: Record<string, string>; credentials?: Credentials }[] = [
  { label: 'get_branch, ok, string id, 2025-06-18', id: 'call-1', params: BRANCH, headers: { 'mcp-protocol-version': '2025-06-18' } },
  { label: 'get_branch, ok, number id, no version header', id: 7, params: BRANCH },
  { label: 'get_branch, 2025-11-25', id: 2, params: BRANCH, headers: { 'mcp-protocol-version': '2025-11-25' } },
  { label: 'get_branch, 2025-03-26', id: 3, params: BRANCH, headers: { 'mcp-protocol-version': '2025-03-26' } },
  { label: 'authenticated by the sealed session id alone (stateless rule 3)', id: 4, params: BRANCH, credentials: 'session' },
  { label: 'a live token beside a sealed session id', id: 5, params: BRANCH, credentials: 'both' },
  { label: 'get_branch, not_found tool error', id: 8, params: { name: 'get_branch', arguments: { project_id: project, branch_name: 'no-such-branch' } } },
  { label: 'get_issue by path, ok', id: 'i-1', params: { name: 'get_issue', arguments: { project_id: SEED.projectPath, issue_iid: 1 } } },
  { label: 'list_issues, paginated', id: 9, params: { name: 'list_issues', arguments: { project_id: project, per_page: 2 } } },
  { label: 'get_issue, validation tool error', id: 10, params: { name: 'get_issue', arguments: { project_id: project, issue_iid: -1 } } },
  { label: 'list_todos, no arguments', id: 11, params: { name: 'list_todos' } },
  { label: 'get_issue, arguments {}', id: 12, params: { name: 'get_issue', arguments: {} } },
  { label: 'unknown tool (-32602)', id: 13, params: { name: 'no_such_tool', arguments: {} } },
  { label: 'a tool name with a space (-32602)', id: 14, params: { name: 'get branch' } },
  { label: 'a string id that JSON escapes', id: 'q"\\é\n', params: { name: 'get_issue', arguments: { project_id: project, issue_iid: 1 } } },
  { label: 'charset in Content-Type', id: 15, params: BRANCH, headers: { 'content-type': 'application/json; charset=utf-8' } },
  { label: 'Accept in the other order, with a quality', id: 16, params: BRANCH, headers: { accept: 'text/event-stream;q=0.9, application/json' } },
];

const NEAR_MISSES: { label: string; body: unknown; headers?: Record<string, string>; status: number }[] = [
  { label: 'Accept without text/event-stream (406)', body: call(31, BRANCH), headers: { accept: 'application/json' }, status: 406 },
  { label: 'Accept empty (406)', body: call(31, BRANCH), headers: { accept: '' }, status: 406 },
  { label: 'Content-Type text/plain (415)', body: call(31, BRANCH), headers: { 'content-type': 'text/plain' }, status: 415 },
  { label: 'MCP-Protocol-Version 2024-11-05 (400)', body: call(31, BRANCH), headers: { 'mcp-protocol-version': '2024-11-05' }, status: 400 },
  { label: 'MCP-Protocol-Version a revision never served (400)', body: call(31, BRANCH), headers: { 'mcp-protocol-version': '2025-01-01' }, status: 400 },
  { label: 'a progress token in _meta (valid: the SDK serves it)', body: call(31, { ...BRANCH, _meta: { progressToken: 'p1' } }), status: 200 },
  { label: 'another member in params', body: call(31, { ...BRANCH, extra: true }), status: 200 },
  { label: 'arguments an array', body: call(31, { name: 'get_branch', arguments: [1] }), status: 200 },
  { label: 'arguments null', body: call(31, { name: 'get_branch', arguments: null }), status: 200 },
  { label: 'name not a string', body: call(31, { name: 7 }), status: 200 },
  { label: 'no params', body: { jsonrpc: '2.0', id: 31, method: 'tools/call' }, status: 200 },
  { label: 'another method (tools/list)', body: { jsonrpc: '2.0', id: 31, method: 'tools/list' }, status: 200 },
  { label: 'ping', body: { jsonrpc: '2.0', id: 31, method: 'ping' }, status: 200 },
  { label: 'a batch of one call', body: [call(31, BRANCH)], status: 200 },
  { label: 'a notification', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, status: 202 },
];

test('the predicate leaves every non-call to the SDK', () => {
  const request = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  expect(plainLegacyToolCall(request, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
  expect(plainLegacyToolCall(request, call(1, BRANCH))).toEqual({ id: 1, params: BRANCH as never });
});

for (const mode of ['stateless', 'stateful'] as const) {
  describe(`${mode} mode: plain legacy calls are taken, and answered as the SDK answers them`, () => {
    for (const c of VALID) {
      // A stateful session's calls name the session; only stateless mode serves a call without one.
      const credentials = c.credentials ?? (mode === 'stateless' ? 'token' : 'both');
      test(c.label, async () => {
        const p = await pair(mode);
        const sids = credentials === 'token' ? undefined : await sessions(p);
        const headers = { ...(credentials !== 'session' && { 'Private-Token': TOKEN }), ...c.headers };
        const message = call(c.id, c.params);
        const request = new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(message),
        });
        expect(isPlainLegacyRequest(request, message)).toBe(true);
        expect(plainLegacyToolCall(request, message)).toEqual({ id: c.id, params: c.params as never });
        const { fast, sdk } = await both(p, message, headers, sids);
        expect(p.taken()).toBe(1);
        expect(sdk.status).toBe(200);
        expect(sdk.headers).toContainEqual(['mcp-session-id', '(session)']);
        // A new stateless session's log tag is random; a session id's stays the session's.
        if (credentials === 'token') {
          expect(fast.session?.g).not.toBe(sdk.session?.g);
          expect({ ...fast, session: { ...fast.session, g: '' } }).toEqual({ ...sdk, session: { ...sdk.session, g: '' } });
        } else {
          expect(fast).toEqual(sdk);
        }
        if (mode === 'stateless') expect(sdk.session?.t).toBe(TOKEN);
        expect(p.fast.metrics.toolCalls).toEqual(p.sdk.metrics.toolCalls);
        expect(toolLines(p.logs.fast())).toEqual(toolLines(p.logs.sdk()));
        // Every call has its audit line (D35), an unknown tool's too (outcome protocol_error).
        expect(toolLines(p.logs.sdk())).toHaveLength(1);
        if (c.id === 13 || c.id === 14) expect(toolLines(p.logs.sdk())[0]).toMatchObject({ event: 'tool_call', outcome: 'protocol_error' });
      });
    }

    // The answer embeds the result's own JSON text as structuredContent (fast-tool-call.ts): text the
    // printer must escape, and a result cut to MAX_RESULT_BYTES, come out as the SDK prints them.
    test.each(HOSTILE_ISSUE_FIELDS)('forge text with %s is answered as the SDK answers it', async (_, fields) => {
      const p = await pair(mode);
      const sids = await sessions(p);
      const message = call('hostile', { name: 'get_issue', arguments: { project_id: project, issue_iid: 1 } });
      const plant = () => Object.assign(forge.model.projects.get(SEED.project)!.issues.get(1)!, fields);
      plant();
      const sdk = await answer(await rpc(p.sdk, message, { 'mcp-session-id': sids.sdk }), p, sids.sdk);
      forge.reset();
      plant();
      const fast = await answer(await rpc(p.fast, message, { 'mcp-session-id': sids.fast }), p, sids.fast);
      expect(p.taken()).toBe(1);
      expect(fast).toEqual(sdk);
      const result = (sdk.body as { result: { structuredContent: Record<string, unknown>; content: { text: string }[] } }).result;
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    });

    test('a bug in the tool (-32603) is answered as the SDK answers it, counted and logged alike', async () => {
      const p = await pair(mode);
      const sids = await sessions(p);
      for (const app of [p.fast, p.sdk]) {
        app.catalog.call = async () => {
          throw new TypeError('boom in the tool');
        };
      }
      const { fast, sdk } = await both(p, call(21, BRANCH), {}, sids);
      expect(p.taken()).toBe(1);
      expect(fast).toEqual(sdk);
      expect((sdk.body as { error: { code: number } }).error.code).toBe(-32603);
      expect(toolLines(p.logs.sdk()).map((l) => l.event)).toEqual(['tool_call_failed', 'tool_call']);
      expect(toolLines(p.logs.fast())).toEqual(toolLines(p.logs.sdk()));
    });

    test("after the lane's checks: no credential, a session id that does not open and a forge-refused token are answered before it", async () => {
      const p = await pair(mode);
      expect((await rpc(p.fast, call(1, BRANCH))).status).toBe(401);
      expect((await rpc(p.fast, call(2, BRANCH), { 'mcp-session-id': 'v1.sid.forged' })).status).toBe(404);
      const sids = await sessions(p);
      expect((await rpc(p.fast, call(3, BRANCH), { 'Private-Token': 'glpat-revoked-0000000000000', 'mcp-session-id': sids.fast })).status).toBe(
        mode === 'stateless' ? 401 : 200,
      );
      expect(p.taken()).toBe(mode === 'stateless' ? 0 : 1);
    });
  });

  describe(`${mode} mode: near misses are not taken, and answered by the SDK`, () => {
    for (const c of NEAR_MISSES) {
      test(c.label, async () => {
        const p = await pair(mode);
        const { fast, sdk } = await both(p, c.body, c.headers ?? {}, await sessions(p));
        expect(p.taken()).toBe(0);
        expect(fast).toEqual(sdk);
        expect(sdk.status).toBe(c.status);
      });
    }
  });
}

// Every legacy POST ends (docs/decisions.md D27). The SDK's transport drops an answer it owes when
// the client cancels the request, when the session closes while the request runs, and when a second
// request of the session reuses its id: the POST then never ended, holding its forge lease and its
// session busy (never evicted) until the session expired. Each case on the plain call path and on
// the SDK's transport (the plain path off, or a call with a progress token, which is not plain).
const PATHS = [
  { label: 'the plain call path', fastToolCall: true, progress: false },
  { label: "the SDK's transport (plain path off)", fastToolCall: false, progress: false },
  { label: "the SDK's transport (a progress token: not a plain call)", fastToolCall: true, progress: true },
] as const;

describe('every legacy POST ends, on both paths', () => {
  for (const path of PATHS) {
    const plain = path.fastToolCall && !path.progress;
    /** An app of this path on a forge that holds each call, its clock and its count of plain calls taken. */
    const heldApp = (overrides: Record<string, string> = {}) => {
      const forgeHeld = startHeldForge();
      let now = 1_000_000;
      let taken = 0;
      const app = apps.on(
        forgeHeld.apiUrl,
        { MAX_SESSIONS: '1', ...overrides },
        { now: () => now, fastToolCall: path.fastToolCall, onFastToolCall: () => taken++ },
      );
      return { app, forge: forgeHeld, taken: () => taken, advance: (ms: number) => (now += ms) };
    };
    /** heldApp with a session opened by raw requests, whose request ids the test chooses. */
    const held = async (overrides: Record<string, string> = {}) => {
      const h = heldApp(overrides);
      const opened = await rpc(h.app, INITIALIZE, { 'Private-Token': TOKEN });
      await opened.text();
      const sid = opened.headers.get('mcp-session-id')!;
      await (await rpc(h.app, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sid })).text();
      const callBody = (id: number) => call(id, { ...BRANCH, ...(path.progress && { _meta: { progressToken: `p${id}` } }) });
      const post = (body: unknown) => rpc(h.app, body, { 'mcp-session-id': sid });
      return { ...h, sid, post, callBody };
    };

    test(`${path.label}: a call the client cancels is answered when it ends`, async () => {
      const h = heldApp();
      try {
        const busy = await connect(h.app, { 'Private-Token': TOKEN });
        const cancel = new AbortController();
        const pending = busy.client.callTool(
          { name: 'get_branch', arguments: { project_id: '1', branch_name: 'main' } },
          { signal: cancel.signal, ...(path.progress && { onprogress: () => {} }) },
        );
        await h.forge.called;
        cancel.abort('the user pressed Esc');
        await expect(pending).rejects.toThrow();
        // The client's notifications/cancelled has reached the session; the forge answers after it.
        await Bun.sleep(20);
        h.forge.release();
        await Bun.sleep(20);
        // Idle again: at MAX_SESSIONS=1 a new session may evict it only if no request of it is in flight.
        h.advance(120_000);
        expect((await rpc(h.app, INITIALIZE, { 'Private-Token': TOKEN })).status).toBe(200);
        expect(h.taken()).toBe(plain ? 1 : 0);
      } finally {
        h.forge.stop();
      }
    });

    test(`${path.label}: a call whose session is deleted while it runs ends`, async () => {
      const s = await held();
      try {
        const pending = s.post(s.callBody(7));
        await s.forge.called;
        const deleted = await s.app.handle(new Request('http://localhost/mcp', { method: 'DELETE', headers: { 'mcp-session-id': s.sid } }));
        expect(deleted.status).toBe(200);
        if (plain) {
          // The call was under way at the forge: its answer comes when the forge's does.
          s.forge.release();
          const answered = await pending;
          expect(answered.status).toBe(200);
          expect(await answered.json()).toMatchObject({ id: 7, result: { structuredContent: { name: 'main' } } });
        } else {
          // The SDK dropped the answer with the session: answered as a request after the close is.
          const answered = await pending;
          expect(answered.status).toBe(404);
          expect(await answered.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
          s.forge.release();
        }
        expect(s.taken()).toBe(plain ? 1 : 0);
      } finally {
        s.forge.stop();
      }
    });

    test(`${path.label}: a call whose session expires while it runs ends`, async () => {
      const s = await held({ SESSION_TIMEOUT_SECONDS: '60' });
      try {
        const pending = s.post(s.callBody(7));
        await s.forge.called;
        s.advance(61_000);
        // The next request finds the session expired, which closes it.
        expect((await s.post({ jsonrpc: '2.0', id: 8, method: 'ping' })).status).toBe(404);
        if (plain) s.forge.release();
        expect((await pending).status).toBe(plain ? 200 : 404);
        s.forge.release();
      } finally {
        s.forge.stop();
      }
    });

    test(`${path.label}: a request reusing the id of one still being answered is refused, and both end`, async () => {
      const s = await held();
      try {
        const first = s.post(s.callBody(7));
        await s.forge.called;
        const reused = await s.post(s.callBody(7));
        expect(reused.status).toBe(400);
        expect(await reused.json()).toMatchObject({
          error: { code: -32600, message: 'Invalid Request: a request id of this session is in use by a request still being answered' },
        });
        // A batch (2025-03-26) naming one id twice is refused alike.
        expect((await s.post([s.callBody(9), { jsonrpc: '2.0', id: 9, method: 'ping' }])).status).toBe(400);
        s.forge.release();
        const answered = await first;
        expect(answered.status).toBe(200);
        expect(await answered.json()).toMatchObject({ id: 7, result: { structuredContent: { name: 'main' } } });
        // Answered, the id is free again; and the session is idle, so a new one may evict it.
        expect((await s.post(s.callBody(7))).status).toBe(200);
        s.advance(120_000);
        expect((await rpc(s.app, INITIALIZE, { 'Private-Token': TOKEN })).status).toBe(200);
        expect(s.taken()).toBe(plain ? 2 : 0);
      } finally {
        s.forge.stop();
      }
    });
  }
});
