// D42: a tool that deletes or removes protection runs only once the user said yes, where the client
// can ask. The 2026-07-28 lane answers input_required with a sealed state (confirmed, declined,
// expired, replayed, other arguments, other credential, finished on another replica); a 2025 session
// whose client declared elicitation is asked with elicitation/create; a client that can do neither,
// and a deployment with FORGE_CONFIRM_DESTRUCTIVE=false, run the tool as before.
import { beforeAll, afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ForgeApp } from '../src/app';
import { ACCESS, SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { useApps } from './support/apps';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { INITIALIZE, MCP_URL, MODERN_VERSION, connect, inProcessFetch, modernHeaders, rpc, structured, type Lane } from './support/mcp-client';

const SECRET = Buffer.alloc(32, 7).toString('base64url');
const ALL = { FORGE_TOOLSETS: 'all', OAUTH_STATELESS_SECRET: SECRET };
const P = String(SEED.project);

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});
beforeEach(() => {
  forge.reset();
  // An Owner may delete issues (lib/api/issues.rb: authorize!(:destroy_issue)).
  forge.model.projects.get(SEED.project)!.members.set(SEED.users.maintainer, ACCESS.owner);
});
const apps = useApps(() => forge.apiUrl);
const issue = (iid: number) => forge.model.projects.get(SEED.project)!.issues.get(iid);

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | number | boolean | string[]> };

/** The SDK's v2 client declaring elicitation, answering every question with `answer`; the questions it got. */
async function askingClient(app: ForgeApp, lane: Lane, answer: Answer) {
  const asked: { message: string; requestedSchema: unknown }[] = [];
  const version = lane === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_VERSION } } } : {};
  const client = new Client({ name: 'asking', version: '1' }, { capabilities: { elicitation: { form: {} } }, ...version });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params as { message: string; requestedSchema: unknown });
    return answer;
  });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: inProcessFetch(app),
    requestInit: { headers: { 'Private-Token': TOKENS.maintainer } },
  });
  await client.connect(transport);
  return {
    asked,
    call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }),
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** A raw 2026-07-28 tools/call declaring elicitation, with what a retry adds (inputResponses, requestState). */
async function modernCall(
  app: ForgeApp,
  args: Record<string, unknown>,
  retry: Record<string, unknown> = {},
  token: string = TOKENS.maintainer,
  name = 'delete_issue',
) {
  const message = {
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      ...retry,
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
    },
  };
  const response = await rpc(app, message, { ...modernHeaders(message), 'Private-Token': token });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: Record<string, unknown> }).result;
}

const yes = { confirm: { action: 'accept', content: { confirm: true } } };

describe('the 2026-07-28 lane: input_required with a sealed state', () => {
  test('confirmed through the SDK client: the question names the tool and its arguments, then the issue is deleted', async () => {
    const app = await apps.sealed(ALL);
    const c = await askingClient(app, 'modern', { action: 'accept', content: { confirm: true } });
    const title = issue(1)!.title;
    try {
      expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: 1 }))).toEqual({ deleted: true, issue_iid: '1' });
      expect(issue(1)).toBeUndefined();
      expect(c.asked).toHaveLength(1);
      // Named by its title, read from the forge (one GET), and by the arguments.
      expect(c.asked[0].message).toStartWith(`Allow delete_issue? Delete issue: issue #1 "${title}" (project_id: ${P}, issue_iid: 1).`);
      expect(c.asked[0].requestedSchema).toMatchObject({ properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
    } finally {
      await c.close();
    }
  });

  test.each([
    ['declined', { action: 'decline' }, 'the user declined it'],
    ['cancelled', { action: 'cancel' }, 'the user cancelled the question'],
    ['accepted with confirm: false', { action: 'accept', content: { confirm: false } }, 'the user declined it'],
  ] as const)('%s: a result saying nothing was done, and the issue stays', async (_, answer, why) => {
    const app = await apps.sealed(ALL);
    const c = await askingClient(app, 'modern', answer as Answer);
    try {
      const result = await c.call('delete_issue', { project_id: P, issue_iid: 1 });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({
        done: false,
        declined: true,
        message: `delete_issue did not run: ${why}. Nothing was changed (project_id: ${P}, issue_iid: 1).`,
      });
      expect(issue(1)).toBeDefined();
    } finally {
      await c.close();
    }
  });

  test('the first call asks and sends nothing to the forge; its state finishes the call on another replica with the same secret', async () => {
    const a = await apps.sealed(ALL);
    const b = await apps.sealed(ALL);
    const asked = await modernCall(a, { project_id: P, issue_iid: 1 });
    expect(asked).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(forge.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(issue(1)).toBeDefined();
    const done = await modernCall(b, { project_id: P, issue_iid: 1 }, { inputResponses: yes, requestState: asked.requestState });
    expect(done).toMatchObject({ resultType: 'complete', structuredContent: { deleted: true, issue_iid: '1' } });
    expect(issue(1)).toBeUndefined();
  });

  test('a state replayed for other arguments, for another credential, or a second time: asked again, nothing run', async () => {
    const app = await apps.sealed(ALL);
    const first = await modernCall(app, { project_id: P, issue_iid: 1 });
    const state = first.requestState as string;
    // The same answer and state for issue 2: a new question about issue 2.
    const other = await modernCall(app, { project_id: P, issue_iid: 2 }, { inputResponses: yes, requestState: state });
    expect(other.resultType).toBe('input_required');
    expect(JSON.stringify(other.inputRequests)).toContain('issue_iid: 2');
    expect(issue(2)).toBeDefined();
    // Another token with the state: asked again.
    const stranger = await modernCall(app, { project_id: P, issue_iid: 1 }, { inputResponses: yes, requestState: state }, TOKENS.developer);
    expect(stranger.resultType).toBe('input_required');
    expect(issue(1)).toBeDefined();
    // A tampered state: asked again.
    const tampered = await modernCall(app, { project_id: P, issue_iid: 1 }, { inputResponses: yes, requestState: `${state.slice(0, -4)}AAAA` });
    expect(tampered.resultType).toBe('input_required');
    expect(issue(1)).toBeDefined();
    // The state for its own call: run; the same again: asked again (single use), the forge not called.
    expect((await modernCall(app, { project_id: P, issue_iid: 1 }, { inputResponses: yes, requestState: state })).structuredContent).toEqual({
      deleted: true,
      issue_iid: '1',
    });
    const deletes = forge.requests.filter((r) => r.method === 'DELETE').length;
    const replay = await modernCall(app, { project_id: P, issue_iid: 1 }, { inputResponses: yes, requestState: state });
    expect(replay.resultType).toBe('input_required');
    expect(forge.requests.filter((r) => r.method === 'DELETE').length).toBe(deletes);
  });

  test('hostile answers and arguments: only confirm === true runs; the question shows arguments cleaned and cut', async () => {
    const app = await apps.sealed(ALL);
    const asked = await modernCall(app, { project_id: P, issue_iid: 1 });
    for (const content of [{ confirm: 'true' }, { confirm: 1 }, {}, { confirm: [true] }]) {
      const again = await modernCall(app, { project_id: P, issue_iid: 1 });
      const answered = await modernCall(
        app,
        { project_id: P, issue_iid: 1 },
        { inputResponses: { confirm: { action: 'accept', content } }, requestState: again.requestState },
      );
      expect(answered.structuredContent).toMatchObject({ done: false, declined: true });
    }
    // An answer under another key, or no answer: asked again.
    const otherKey = await modernCall(
      app,
      { project_id: P, issue_iid: 1 },
      { inputResponses: { yes: { action: 'accept', content: { confirm: true } } }, requestState: asked.requestState },
    );
    expect(otherKey.resultType).toBe('input_required');
    expect(issue(1)).toBeDefined();
    // A branch name with a bidi override and 300 characters: shown without the override, cut at 80.
    const branch = `feature/\u202Eevil-${'x'.repeat(300)}`;
    // Asked before anything is sent: the branch need not exist.
    const question = await modernCall(app, { project_id: P, branch_name: branch }, {}, TOKENS.maintainer, 'delete_branch');
    const message = (question.inputRequests as { confirm: { params: { message: string } } }).confirm.params.message;
    expect(message).not.toContain('\u202E');
    expect(message).toContain(`branch_name: feature/evil-${'x'.repeat(67)}…`);
    expect(message.length).toBeLessThan(300);
  });

  test('an answer after FORGE_CONFIRM_TTL_SECONDS: asked again, nothing run', async () => {
    let nowMs = Date.now();
    const app = await apps.sealed({ ...ALL, FORGE_CONFIRM_TTL_SECONDS: '60' }, { now: () => nowMs });
    const asked = await modernCall(app, { project_id: P, issue_iid: 1 });
    nowMs += 61_000;
    const late = await modernCall(app, { project_id: P, issue_iid: 1 }, { inputResponses: yes, requestState: asked.requestState });
    expect(late.resultType).toBe('input_required');
    expect(issue(1)).toBeDefined();
  });

  test('a client that did not declare elicitation: run as before (the annotations mark the tool destructive)', async () => {
    const app = await apps.sealed(ALL);
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane: 'modern' });
    try {
      expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: 1 }))).toEqual({ deleted: true, issue_iid: '1' });
    } finally {
      await c.close();
    }
  });

  test('FORGE_CONFIRM_DESTRUCTIVE=false: nobody is asked, the tool runs', async () => {
    const app = await apps.sealed({ ...ALL, FORGE_CONFIRM_DESTRUCTIVE: 'false' });
    const c = await askingClient(app, 'modern', { action: 'decline' });
    try {
      expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: 1 }))).toEqual({ deleted: true, issue_iid: '1' });
      expect(c.asked).toEqual([]);
    } finally {
      await c.close();
    }
  });

  test('merge_merge_request names the merge request by its title and branches; without a readable title, by the arguments', async () => {
    const app = await apps.sealed(ALL);
    const c = await askingClient(app, 'modern', { action: 'decline' });
    try {
      expect((await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 })).structuredContent).toMatchObject({ declined: true });
      const mr = forge.model.projects.get(SEED.project)!.mergeRequests.find((m) => m.iid === 1)!;
      expect(c.asked[0].message).toContain(`!1 "${mr.title}" (${mr.source_branch} into ${mr.target_branch})`);
      expect(mr.state).toBe('opened');
      forge.failNext({ pathIncludes: '/merge_requests/1', status: 500, body: { message: 'boom' } });
      await c.call('merge_merge_request', { project_id: P, merge_request_iid: 1 });
      expect(c.asked[1].message).toStartWith(`Allow merge_merge_request? Merge merge request: project_id: ${P}, merge_request_iid: 1.`);
    } finally {
      await c.close();
    }
  });

  test('a tool that deletes nothing is never asked about', async () => {
    const app = await apps.sealed(ALL);
    const c = await askingClient(app, 'modern', { action: 'decline' });
    try {
      structured(await c.call('get_issue', { project_id: P, issue_iid: 1 }));
      expect(c.asked).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('2025 sessions: elicitation', () => {
  test('confirmed: asked with elicitation/create, then deleted', async () => {
    const app = await apps.sealed(ALL);
    const c = await askingClient(app, 'legacy', { action: 'accept', content: { confirm: true } });
    try {
      expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: 1 }))).toEqual({ deleted: true, issue_iid: '1' });
      expect(c.asked).toHaveLength(1);
      expect(c.asked[0].message).toContain('delete_issue');
      expect(issue(1)).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  test('declined: nothing was done', async () => {
    const app = await apps.sealed(ALL);
    const c = await askingClient(app, 'legacy', { action: 'decline' });
    try {
      expect((await c.call('delete_issue', { project_id: P, issue_iid: 1 })).structuredContent).toMatchObject({ done: false, declined: true });
      expect(issue(1)).toBeDefined();
    } finally {
      await c.close();
    }
  });

  test('a client without elicitation: run as before', async () => {
    const app = await apps.sealed(ALL);
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer });
    try {
      expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: 1 }))).toEqual({ deleted: true, issue_iid: '1' });
    } finally {
      await c.close();
    }
  });

  test('the v1 SDK client with elicitation: asked, and declined leaves the issue', async () => {
    const app = await apps.sealed(ALL);
    const asked: string[] = [];
    const client = new ClientV1({ name: 'v1', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'decline' };
    });
    const transport = new TransportV1(new URL(MCP_URL), { fetch: inProcessFetch(app), requestInit: { headers: { 'Private-Token': TOKENS.maintainer } } });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'delete_issue', arguments: { project_id: P, issue_iid: 1 } });
      expect(result.structuredContent).toMatchObject({ done: false, declined: true });
      expect(asked).toHaveLength(1);
      expect(issue(1)).toBeDefined();
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  });

  test('elicitation declared but no notification stream open: nothing can reach the client, so it runs as before (no wait)', async () => {
    const app = await apps.sealed(ALL);
    const headers = { 'Private-Token': TOKENS.maintainer };
    const opened = await rpc(app, { ...INITIALIZE, params: { ...INITIALIZE.params, capabilities: { elicitation: {} } } }, headers);
    await opened.text();
    const sid = opened.headers.get('mcp-session-id')!;
    await (await rpc(app, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': sid })).text();
    const called = await rpc(
      app,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_issue', arguments: { project_id: P, issue_iid: 1 } } },
      { ...headers, 'mcp-session-id': sid },
    );
    expect(await called.text()).toContain('\\"deleted\\":true');
    expect(issue(1)).toBeUndefined();
  });

  test('stateless mode (no session to send a request on): runs as before', async () => {
    const app = await apps.sealed({ ...ALL, OAUTH_STATELESS_MODE: 'true' });
    const c = await askingClient(app, 'legacy', { action: 'decline' });
    try {
      expect(structured(await c.call('delete_issue', { project_id: P, issue_iid: 1 }))).toEqual({ deleted: true, issue_iid: '1' });
      expect(c.asked).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
