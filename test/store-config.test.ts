// REDIS_URL as an attacker or a typo would write it (D2, D37): everything but redis:// or
// rediss:// with a host, an optional port and an optional database number stops start-up with one
// line naming REDIS_URL — and the line never repeats the value, which may hold a password. A good
// value starts the server and logs the store without its password; without REDIS_URL nothing
// changes: memory, /readyz ready.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { ConfigError, loadConfig } from '../src/config/load';
import { redisUrlForLog } from '../src/store/redis-url';
import { runToExit, startServer, type Started } from './support/process';
import { startRedis } from './support/redis';

setDefaultTimeout(30_000);
const HTTP_REMOTE = { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true' };
const started: Started[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

function refusal(value: string): string {
  try {
    loadConfig({ ...HTTP_REMOTE, REDIS_URL: value });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`expected REDIS_URL=${JSON.stringify(value)} to be refused`);
}

const HOSTILE: [string, string, RegExp][] = [
  ['another scheme', 'http://:hunter2-secret@cache:6379', /must start with redis:\/\/ or rediss:\/\//],
  ['a unix socket', 'redis+unix://:hunter2-secret@/tmp/redis.sock', /must start with redis:\/\//],
  ['valkey:// (not a standard scheme for this setting)', 'valkey://:hunter2-secret@cache:6379', /must start with redis:\/\//],
  ['no host', 'redis://:hunter2-secret@', /host/],
  ['no slashes', 'redis:hunter2-secret', /host/],
  ['a path that is not a database', 'redis://:hunter2-secret@cache:6379/db0', /database number/],
  ['a database out of range', 'redis://:hunter2-secret@cache:6379/99999999', /database number/],
  ['a nested path', 'redis://:hunter2-secret@cache:6379/0/1', /database number/],
  ['a query the client would read as options', 'redis://:hunter2-secret@cache:6379/0?tls=false', /query/],
  ['a fragment', 'redis://:hunter2-secret@cache:6379/0#x', /fragment/],
  ['a CRLF to inject a command', 'redis://:hunter2-secret@cache:6379/0\r\nFLUSHALL', /control characters/],
  ['a space', 'redis://:hunter2 secret@cache:6379', /spaces/],
  ['a bad port', 'redis://:hunter2-secret@cache:99999', /URL/],
  ['something huge', `redis://:hunter2-secret@${'a'.repeat(5000)}:6379`, /at most 2048/],
  ['not a URL at all', 'hunter2-secret', /URL|redis:\/\//],
];

describe('REDIS_URL refused at start-up', () => {
  test.each(HOSTILE)('%s', (_, value, reason) => {
    const message = refusal(value);
    expect(message.startsWith('REDIS_URL: ')).toBe(true);
    expect(message).toMatch(reason);
    expect(message).not.toContain('hunter2');
  });

  test('good values pass: password, user, database number, TLS, IPv6', () => {
    for (const value of [
      'redis://cache',
      'redis://cache:6379',
      'redis://:p@cache:6379/0',
      'redis://user:p%40ss@cache:6380/15',
      'rediss://:p@cache.example.com:6380/2',
      'redis://[::1]:6379/',
      'redis://127.0.0.1:6379/',
    ]) {
      expect(loadConfig({ ...HTTP_REMOTE, REDIS_URL: value }).REDIS_URL).toBe(value);
    }
  });

  test('REDIS_TIMEOUT_MS is bounded', () => {
    expect(() => loadConfig({ ...HTTP_REMOTE, REDIS_TIMEOUT_MS: '0' })).toThrow('REDIS_TIMEOUT_MS: must be between 10 and 10000');
    expect(loadConfig(HTTP_REMOTE).REDIS_TIMEOUT_MS).toBe(500);
  });

  test('with stdio, REDIS_URL is said to be ignored', () => {
    const c = loadConfig({ FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-00000000000000000000', REDIS_URL: 'redis://cache' });
    expect(c.warnings).toContain('REDIS_URL is ignored for stdio (STREAMABLE_HTTP=false): one process shares nothing');
  });

  test('the log form drops user and password', () => {
    expect(redisUrlForLog('rediss://user:hunter2@cache:6380/3')).toBe('rediss://cache:6380/3');
    expect(redisUrlForLog('redis://:hunter2@cache')).toBe('redis://cache');
  });

  test('as a process: exit 2, one line naming REDIS_URL, no password', async () => {
    const { code, stdout, stderr } = await runToExit([], { ...HTTP_REMOTE, REDIS_URL: 'http://:hunter2-secret@cache:6379' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual(['forge-mcp: REDIS_URL: must start with redis:// or rediss://']);
  });
});

describe('the server with and without REDIS_URL', () => {
  test('with a store: ready, logged without its password; without: memory, ready', async () => {
    const redis = await startRedis({ password: 'hunter2-store-password' });
    try {
      const withStore = await startServer({
        ...HTTP_REMOTE,
        FORGE_API_URL: 'http://127.0.0.1:9/api/v4',
        REDIS_URL: `redis://:hunter2-store-password@127.0.0.1:${redis.port}/1`,
      });
      started.push(withStore);
      const ready = await fetch(`${withStore.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', store: 'redis' });
      expect(withStore.stderr()).toContain(`"event":"store_configured","store":"redis","url":"redis://127.0.0.1:${redis.port}/1"`);
      expect(withStore.stderr()).not.toContain('hunter2');
    } finally {
      await redis.stop();
    }
    const without = await startServer({ ...HTTP_REMOTE, FORGE_API_URL: 'http://127.0.0.1:9/api/v4' });
    started.push(without);
    const ready = await fetch(`${without.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', store: 'memory' });
    const metrics = (await (await fetch(`${without.url}/metrics.json`)).json()) as { store: { configured: boolean } };
    expect(metrics.store.configured).toBe(false);
  });

  test('a store that cannot be reached at start: the server still starts, /readyz says 503, /healthz 200', async () => {
    const server = await startServer({
      ...HTTP_REMOTE,
      FORGE_API_URL: 'http://127.0.0.1:9/api/v4',
      REDIS_URL: 'redis://127.0.0.1:9/0',
      REDIS_TIMEOUT_MS: '200',
    });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', store: 'redis' });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('forge_mcp_store_up 0');
    expect(text).toMatch(/forge_mcp_store_errors_total\{operation="ping"\} [1-9]/);
  });
});
