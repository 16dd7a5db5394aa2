// What an operator sees of the work_items group (D45): GraphQL requests counted by operation name in
// /metrics and /metrics.json, and at debug level no log line holding the caller's token or the text
// a work item call carried.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../../src/app';
import { testConfig } from '../support/config';
import { TOKENS, WORK_ITEM_SEED as S, startFakeForge, type FakeForge } from '../support/fake-forge';
import { capturingLogger } from '../support/log-capture';
import { connect, MCP_URL, structured } from '../support/mcp-client';

let forge: FakeForge;
let app: ForgeApp;
const log = capturingLogger();
const TEXT = 'work-item-description-3f9a1';

beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { LOG_LEVEL: 'debug', FORGE_TOOLSETS: 'work_items' }), { logger: log.logger });
});
afterAll(async () => {
  await app.close();
  await forge.stop();
});

test.each(['legacy', 'modern'] as const)('%s lane: operations counted by name; the token and the text in no log line', async (lane) => {
  forge.reset();
  log.lines.length = 0;
  const before = (
    (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as { graphqlOperations: Record<string, Record<string, number>> }
  ).graphqlOperations;
  const c = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane });
  structured(await c.call('get_work_item', { id: `gid://gitlab/WorkItem/${S.saml.id}` }));
  structured(await c.call('create_work_item', { namespace_path: S.projectPath, type: 'TASK', title: 'Logged?', description: TEXT }));
  await c.close();
  const after = (
    (await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as { graphqlOperations: Record<string, Record<string, number>> }
  ).graphqlOperations;
  for (const operation of ['getWorkItem', 'workItemTypes', 'createWorkItem']) expect(after[operation]['2xx'] - (before[operation]?.['2xx'] ?? 0)).toBe(1);
  const prometheus = await (await app.handle(new Request('http://localhost/metrics'))).text();
  expect(prometheus).toContain('forge_mcp_graphql_requests_total{operation="createWorkItem",status_class="2xx"}');
  expect(log.lines.filter((l) => l.includes('tool_call')).length).toBeGreaterThanOrEqual(2);
  expect(log.lines.filter((l) => l.includes(TOKENS.maintainer) || l.includes(TEXT))).toEqual([]);
});
