// `forge-mcp --healthcheck`, the container's HEALTHCHECK: exit 0 only when the server on
// 127.0.0.1:PORT answers /healthz with 200 in time, and PORT is the only setting it reads.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { ConfigError, loadPort } from '../src/config/load';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { runToExit, startServer } from './support/process';

setDefaultTimeout(20_000);
let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(() => forge.stop());

/** A port nothing listens on: bound once, then released. */
function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = Number(probe.port);
  probe.stop(true);
  return port;
}

describe('--healthcheck as a process', () => {
  test('a healthy server → exit 0, silent, even with settings the probe does not need being invalid', async () => {
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl });
    const port = new URL(server.url).port;
    expect(await runToExit(['--healthcheck'], { PORT: port })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await runToExit(['--healthcheck'], { PORT: port, MAX_SESSIONS: '-1', STREAMABLE_HTTP: 'maybe' })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await runToExit(['--healthcheck', `--port=${port}`], { PORT: String(freePort()) })).code).toBe(0);
    expect(await server.stop()).toBe(0);
  });

  test('nothing listening → exit 1 with one line saying why', async () => {
    const port = freePort();
    const { code, stdout, stderr } = await runToExit(['--healthcheck'], { PORT: String(port) });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(`forge-mcp: unhealthy: http://127.0.0.1:${port}/healthz: `)]);
  });

  test('a /healthz that answers 503 → exit 1', async () => {
    const sick = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('down', { status: 503 }) });
    const { code, stderr } = await runToExit(['--healthcheck'], { PORT: String(sick.port) });
    sick.stop(true);
    expect(code).toBe(1);
    expect(stderr).toContain(`/healthz answered 503`);
  });

  test('a /healthz that never answers → exit 1 within the probe timeout', async () => {
    const hung = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>(() => {}) });
    const started = performance.now();
    const { code, stderr } = await runToExit(['--healthcheck'], { PORT: String(hung.port) });
    const elapsed = performance.now() - started;
    hung.stop(true);
    expect(code).toBe(1);
    expect(stderr).toContain('no answer within 2000 ms');
    expect(elapsed).toBeLessThan(6000);
  });

  test('an invalid PORT → exit 1 naming it', async () => {
    const { code, stderr } = await runToExit(['--healthcheck'], { PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('forge-mcp: unhealthy: PORT: must be a whole number (got "eighty")');
  });
});

describe('loadPort', () => {
  test('default, environment, the flag wins', () => {
    expect(loadPort({})).toBe(3002);
    expect(loadPort({ PORT: '4000' })).toBe(4000);
    expect(loadPort({ PORT: '4000' }, ['--healthcheck', '--port=5000'])).toBe(5000);
    expect(loadPort({ PORT: '4000', LOG_LEVEL: 'loud' })).toBe(4000);
  });

  test('out of range → ConfigError naming PORT', () => {
    expect(() => loadPort({ PORT: '70000' })).toThrow(ConfigError);
    expect(() => loadPort({ PORT: '70000' })).toThrow('PORT: must be between 0 and 65535 (got 70000)');
  });
});
