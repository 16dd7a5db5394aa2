// The D7 credential check through a shared store (D37): two replicas with one real redis-server ask
// the forge once for a credential, whichever replica sees it first; the store holds the answer as a
// small JSON record under a hashed key with a TTL. Without the store each replica asks on its own.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { silentLogger } from '../src/logging/logger';
import { Metrics } from '../src/metrics/registry';
import { storesFromConfig } from '../src/store/from-config';
import { testConfig } from './support/config';
import { TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { INITIALIZE } from './support/mcp-client';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(20_000);
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

function replica(shared: boolean): ForgeApp {
  const config = testConfig(forge.apiUrl, shared ? { REDIS_URL: redis.url } : {});
  const app = createApp(config, { logger: silentLogger, stores: storesFromConfig(config, { logger: silentLogger, metrics: new Metrics(), probeEveryMs: 0 }) });
  apps.push(app);
  return app;
}

const initialize = (app: ForgeApp) =>
  app.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'Private-Token': TOKENS.maintainer },
      body: JSON.stringify(INITIALIZE),
    }),
  );
const userChecks = () => forge.requests.filter((r) => r.path === '/api/v4/user').length;

describe('the credential check cache (D7) across replicas', () => {
  test('with the store: asked once for both replicas; the record is JSON under a hashed, expiring key', async () => {
    forge.reset();
    const started = Date.now();
    const [a, b] = [replica(true), replica(true)];
    expect((await initialize(a)).status).toBe(200);
    expect((await initialize(b)).status).toBe(200);
    expect(userChecks()).toBe(1);
    const raw = await redis.client();
    const keys = (await raw.send('KEYS', ['forge-mcp:cred:*'])) as string[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(TOKENS.maintainer);
    // The username names audit lines (D35); the time the forge was asked ends the answer on every replica.
    const record = JSON.parse(String(await raw.send('GET', [keys[0]])));
    // With what the token may do (D38) and who it acts as (whoami, D39): never the token, never its scopes.
    expect(record).toEqual({
      verdict: 'accepted',
      username: 'maria',
      token: { kind: 'personal', canWrite: true },
      identity: { id: expect.any(Number), username: 'maria', name: 'Maria Rossi', state: 'active', bot: false },
      at: expect.any(Number),
    });
    expect(record.at).toBeGreaterThanOrEqual(started);
    expect(record.at).toBeLessThanOrEqual(Date.now());
    expect(Number(await raw.send('PTTL', [keys[0]]))).toBeGreaterThan(0);
  });

  test('without it: each replica asks for itself', async () => {
    forge.reset();
    const [a, b] = [replica(false), replica(false)];
    expect((await initialize(a)).status).toBe(200);
    expect((await initialize(b)).status).toBe(200);
    expect(userChecks()).toBe(2);
  });
});
