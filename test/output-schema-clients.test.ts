// D41: the SDK clients that check structuredContent against a published outputSchema — the v1
// client (@modelcontextprotocol/sdk 1.x, 2025 lane only) and the v2 client on the 2025 and
// 2026-07-28 lanes — see every tool's schema and call every tool with no validation error. An
// error result carries {error} in structuredContent (D17), which the v1 client checks against
// the schema even when isError is set: it must pass too.
import { describe, expect, test } from 'bun:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ALL_TOOLS } from '../src/tools/catalog';
import { TOKENS } from './support/fake-forge';
import { useHarness } from './support/harness';
import { connectV1 } from './support/mcp-client-v1';
import { successCase } from './support/tool-call-cases';

const h = useHarness({ FORGE_TOOLSETS: 'all,variables' });

interface AnyClient {
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  tools(): Promise<{ name: string; outputSchema?: unknown }[]>;
}

const clients: Record<string, () => Promise<AnyClient>> = {
  'v1 client, 2025 lane': async () => {
    const c = await connectV1(h.app, { 'Private-Token': TOKENS.maintainer });
    return { call: c.call as AnyClient['call'], tools: async () => (await c.client.listTools()).tools };
  },
  'v2 client, 2025 lane': async () => {
    const c = await h.on('legacy');
    return { call: c.call, tools: async () => (await c.client.listTools()).tools };
  },
  'v2 client, 2026-07-28 lane': async () => {
    const c = await h.on('modern');
    return { call: c.call, tools: async () => (await c.client.listTools()).tools };
  },
};

describe.each(Object.keys(clients))('%s', (which) => {
  test('lists an outputSchema for every tool and calls every tool without a validation error', async () => {
    const client = await clients[which]();
    const listed = await client.tools();
    expect(listed.length).toBe(ALL_TOOLS.length);
    expect(listed.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
    const failures: string[] = [];
    for (const tool of ALL_TOOLS) {
      h.forge.reset();
      h.forge.model.edition = 'ee-premium';
      h.app.instances.clear();
      const prepared = successCase(tool.name, h.forge.model);
      try {
        for (const [name, args] of prepared.before) await client.call(name, args);
        const result = await client.call(tool.name, prepared.args);
        if (result.isError) failures.push(`${tool.name}: ${JSON.stringify(result.content)}`);
      } catch (error) {
        failures.push(`${tool.name}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  test('an error result reaches the caller as an isError result, not a validation error', async () => {
    const client = await clients[which]();
    await client.tools();
    // One tool of each result shape: a record, a page, a write with no record kind.
    for (const [name, args] of [
      ['get_issue', { project_id: 42, issue_iid: 999 }],
      ['list_issues', { project_id: 999_999 }],
      ['create_issue', { project_id: 999_999, title: 'x' }],
    ] as const) {
      const result = await client.call(name, args);
      expect(result.isError).toBe(true);
      expect((result.structuredContent as { error: { kind: string } }).error.kind).toBe('not_found');
    }
  });
});

describe('a forge that sends other JSON types than GitLab documents', () => {
  const HOSTILE_ISSUE = {
    id: 1001,
    iid: '1',
    project_id: 42,
    title: 'Typed wrong',
    state: 'opened',
    weight: '3',
    labels: [7, 'bug', null],
    assignees: 'bob',
    author: { id: 'one', username: 5, name: 'Maria' },
    milestone: ['v1'],
    task_completion_status: { count: '2', completed_count: 1 },
    web_url: 'http://forge.test/acme/platform/api/-/issues/1',
  };

  test('the v1 client, which checks every structuredContent, gets the fields that fit and no validation error', async () => {
    const client = await connectV1(h.app, { 'Private-Token': TOKENS.maintainer });
    await client.client.listTools();
    h.forge.failNext({ method: 'GET', pathIncludes: '/issues/1', status: 200, body: HOSTILE_ISSUE });
    const result = await client.call('get_issue', { project_id: 42, issue_iid: 1 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      id: 1001,
      project_id: 42,
      title: 'Typed wrong',
      state: 'opened',
      labels: ['bug'],
      author: { name: 'Maria' },
      web_url: 'http://forge.test/acme/platform/api/-/issues/1',
    });
  });

  test('a list fits each of its records', async () => {
    const client = await h.on('modern');
    await client.client.listTools();
    h.forge.failNext({ method: 'GET', pathIncludes: '/issues', status: 200, body: [HOSTILE_ISSUE, { ...HOSTILE_ISSUE, id: 1002, iid: 2, weight: 3 }] });
    const result = await client.call('list_issues', { project_id: 42 });
    expect(result.isError).toBeFalsy();
    const items = (result.structuredContent as { items: Record<string, unknown>[] }).items;
    expect(items.map((i) => [i.id, i.iid, i.weight])).toEqual([
      [1001, undefined, undefined],
      [1002, 2, 3],
    ]);
  });
});
