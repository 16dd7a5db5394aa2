// D42 with the shared store of D37: a confirmation question is answered once across the replicas.
// Two replicas with one secret and one real redis-server: the answer that ran the call on one is
// refused on the other (the question is asked again, nothing runs); without the store each replica
// only knows its own answers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { silentLogger } from '../src/logging/logger';
import { Metrics } from '../src/metrics/registry';
import { sealerFromConfig } from '../src/sealing/from-config';
import { storesFromConfig } from '../src/store/from-config';
import { testConfig } from './support/config';
import { ACCESS, SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { MODERN_VERSION, modernHeaders, rpc } from './support/mcp-client';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(20_000);
const SECRET = Buffer.alloc(32, 9).toString('base64url');
const P = String(SEED.project);
let redis: RealRedis;
let forge: FakeForge;
const apps: ForgeApp[] = [];
beforeAll(async () => {
  [redis, forge] = await Promise.all([startRedis(), startFakeForge()]);
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await Promise.all([redis.stop(), forge.stop()]);
});

async function replica(shared: boolean): Promise<ForgeApp> {
  const config = testConfig(forge.apiUrl, { FORGE_TOOLSETS: 'all', OAUTH_STATELESS_SECRET: SECRET, ...(shared && { REDIS_URL: redis.url }) });
  const stores = storesFromConfig(config, { logger: silentLogger, metrics: new Metrics(), probeEveryMs: 0 });
  const app = createApp(config, { logger: silentLogger, stores, sealer: await sealerFromConfig(config) });
  apps.push(app);
  return app;
}

async function deleteIssue(app: ForgeApp, retry: Record<string, unknown> = {}) {
  const message = {
    jsonrpc: '2.0',
    id: crypto.randomUUID(),
    method: 'tools/call',
    params: {
      name: 'delete_issue',
      arguments: { project_id: P, issue_iid: 1 },
      ...retry,
      _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
    },
  };
  const response = await rpc(app, message, { ...modernHeaders(message), 'Private-Token': TOKENS.maintainer });
  return ((await response.json()) as { result: Record<string, unknown> }).result;
}

const yes = { confirm: { action: 'accept', content: { confirm: true } } };
const deletes = () => forge.requests.filter((r) => r.method === 'DELETE').length;

describe('one answer, two replicas', () => {
  test.each([
    [true, 'with the shared store: the replay on the other replica is asked again and sends nothing', 'input_required'],
    [false, 'without it: the other replica cannot know, and runs the call again (the forge then answers 404)', 'complete'],
  ] as const)('%p: %s', async (shared, _, replayed) => {
    forge.reset();
    forge.model.projects.get(SEED.project)!.members.set(SEED.users.maintainer, ACCESS.owner);
    const [a, b] = [await replica(shared), await replica(shared)];
    const asked = await deleteIssue(a);
    expect(asked.resultType).toBe('input_required');
    const done = await deleteIssue(a, { inputResponses: yes, requestState: asked.requestState });
    expect(done.structuredContent).toEqual({ deleted: true, issue_iid: '1' });
    const before = deletes();
    const replay = await deleteIssue(b, { inputResponses: yes, requestState: asked.requestState });
    expect(replay.resultType).toBe(replayed);
    expect(deletes()).toBe(shared ? before : before + 1);
  });
});
