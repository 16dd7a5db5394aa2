// The replicas example of docs/replicas.md, run (issue 40): its service environment, read from the
// compose block in the docs, given to three containers of the image built from the Containerfile,
// a real redis-server as the shared store and HAProxy from Debian in front, checking /readyz. A
// sign-in through the fake forge's OAuth provider, tool calls spread across the replicas, then one
// replica stopped while calls run: only a call in flight may be lost, and the sign-in lives on.
// Podman's host network stands in for the compose network (the fake forge and Redis listen on the
// loopback interface). Skips, saying why, where podman or haproxy cannot run.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildImage, containerProblem, ensureStandIns, freePort, mustPodman, podman, ROOT, waitFor } from './support/container';
import { SEED } from './support/fake-forge';
import { LOCAL_APP_ID, LOCAL_APP_SECRET } from './support/fake-forge/local-oauth-app';
import { ownTokens, redeem, refreshGrant } from './support/fake-oauth-steps';
import { connect, structured } from './support/mcp-client';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(900_000);

const problem = containerProblem() ?? (Bun.which('haproxy') ? null : 'haproxy is not installed (apt-get install haproxy; .ci/run does)');
if (problem) console.warn(`compose tests skipped: ${problem}`);

const TAG = `localhost/forge-mcp:compose-${process.pid}`;
const SECRET = Buffer.alloc(32, 7).toString('base64url');

/** The environment of the replicas in docs/replicas.md's compose example (x-forge-mcp). */
function documentedEnvironment(): Record<string, string> {
  const doc = readFileSync(join(ROOT, 'docs/replicas.md'), 'utf8');
  const block = /```yaml\n(x-forge-mcp:[\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/replicas.md has no compose example starting with x-forge-mcp');
  const compose = Bun.YAML.parse(block[1]) as { 'x-forge-mcp': { environment: Record<string, string> }; services: Record<string, unknown> };
  expect(Object.keys(compose.services).filter((s) => s.startsWith('forge-mcp-'))).toHaveLength(3);
  return compose['x-forge-mcp'].environment;
}

let forge: { proc: Bun.Subprocess; url: string } | undefined;
let redis: RealRedis | undefined;
let haproxy: Bun.Subprocess | undefined;
let dir = '';
const containers: string[] = [];
const ports: number[] = [];
let base = '';

describe.skipIf(problem !== null)('the compose example: three replicas, Redis, HAProxy', () => {
  beforeAll(async () => {
    await ensureStandIns();
    await buildImage(TAG);
    dir = mkdtempSync(join(tmpdir(), 'forge-mcp-compose-'));
    const lbPort = freePort();
    base = `http://127.0.0.1:${lbPort}`;
    const forgePort = freePort();
    const proc = Bun.spawn(['bun', 'run', 'fake-forge', '--port', String(forgePort), '--redirect-uri', `${base}/callback`], {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'inherit',
    });
    forge = { proc, url: `http://127.0.0.1:${forgePort}/api/v4` };
    await waitFor(async () => (await fetch(`${forge!.url}/version`)).status < 500, 'the fake forge');
    const password = crypto.randomUUID();
    redis = await startRedis({ password });

    const documented = documentedEnvironment();
    const env: Record<string, string> = {
      ...documented,
      OAUTH_STATELESS_SECRET: SECRET,
      REDIS_URL: redis.url,
      FORGE_API_URL: forge.url,
      // Signing in through the forge (docs/oauth.md) on top of the documented example.
      FORGE_MCP_OAUTH: 'true',
      MCP_SERVER_URL: base,
      FORGE_OAUTH_CLIENT_ID: LOCAL_APP_ID,
      FORGE_OAUTH_CLIENT_SECRET: LOCAL_APP_SECRET,
      FORGE_TOOLSETS: 'all',
      LOG_LEVEL: 'info',
      // The calls below come without pause from one client: the per-minute limit is not under test.
      MAX_REQUESTS_PER_MINUTE: '100000',
    };
    expect(documented).toMatchObject({ REMOTE_AUTHORIZATION: 'true', OAUTH_STATELESS_MODE: 'true', MCP_TRUST_PROXY: 'true' });
    for (let i = 1; i <= 3; i++) {
      const port = freePort();
      ports.push(port);
      const flags = Object.entries({ ...env, PORT: String(port) }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      containers.push(
        (await mustPodman('run', '--detach', '--name', `forge-mcp-compose-${process.pid}-${i}`, '--network=host', '--read-only', ...flags, TAG)).trim(),
      );
    }
    // The load balancer of the example: round robin, health checked on /readyz, a failed
    // connection retried on another replica.
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(
      cfg,
      [
        'global',
        '  maxconn 256',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  retries 3',
        '  option redispatch',
        '  option forwardfor',
        'frontend mcp',
        `  bind 127.0.0.1:${lbPort}`,
        '  default_backend replicas',
        'backend replicas',
        '  balance roundrobin',
        '  option httpchk GET /readyz',
        ...ports.map((p, i) => `  server r${i + 1} 127.0.0.1:${p} check inter 500ms fall 1 rise 1`),
        '',
      ].join('\n'),
    );
    for (const port of ports) await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, `replica on ${port} to be ready`);
    haproxy = Bun.spawn(['haproxy', '-db', '-f', cfg], { stdout: 'ignore', stderr: 'inherit' });
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 'HAProxy');
  });

  afterAll(async () => {
    haproxy?.kill();
    for (const c of containers) await podman('rm', '--force', '--time', '0', c);
    await podman('rmi', '--force', TAG);
    await redis?.stop();
    forge?.proc.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('every replica reports the shared store ready', async () => {
    for (const port of ports) expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ status: 'ready', store: 'redis' });
  });

  test('a sign-in and tool calls across replicas; one replica stopped loses at most the call in flight', async () => {
    const tokens = await ownTokens(base);
    const session = await connect({ handle: (r) => fetch(r) }, { authorization: `Bearer ${tokens.access_token}` }, `${base}/mcp`);
    const call = async () => structured<{ name: string }>(await session.call('get_branch', { project_id: SEED.projectPath, branch_name: 'develop' })).name;
    try {
      // Each replica serves part of the session (the audit line of a tool call names the tool).
      const served = async (c: string) => {
        const logs = await podman('logs', c);
        return (logs.stdout + logs.stderr).includes('"tool":"get_branch"');
      };
      for (let i = 0; i < 30 && !(await Promise.all(containers.map(served))).every(Boolean); i++) expect(await call()).toBe('develop');
      expect(await Promise.all(containers.map(served))).toEqual([true, true, true]);

      // Calls run without pause while the replica is stopped (SIGTERM, then its drain).
      let failed = 0;
      let ok = 0;
      let stopped = false;
      const stopping = mustPodman('stop', '--time', '10', containers[1]).then(() => {
        stopped = true;
      });
      while (!stopped) {
        try {
          if ((await call()) === 'develop') ok++;
        } catch (e) {
          if (failed++ === 0) console.log(`first failure: ${String(e).slice(0, 300)}`);
        }
      }
      await stopping;
      console.log(`compose: ${ok} calls answered and ${failed} lost while a replica stopped`);
      expect(ok + failed).toBeGreaterThan(0);
      expect(failed).toBeLessThanOrEqual(1);
      expect((await mustPodman('inspect', '--format', '{{.State.Running}}', containers[1])).trim()).toBe('false');
      // After the stop every call lands on the two replicas left.
      for (let i = 0; i < 4; i++) expect(await call()).toBe('develop');
    } finally {
      await session.close().catch(() => {});
    }
    // The sign-in lives on. A refresh repeated within 10 seconds gets the same pair from whichever
    // replica answers (docs/replicas.md): the store remembers the first answer.
    const refreshed = await redeem(base, refreshGrant(tokens.clientId, tokens.refresh_token!));
    expect(refreshed.status).toBe(200);
    const pair = (await refreshed.json()) as { access_token: string; refresh_token: string };
    for (let i = 0; i < 2; i++) {
      const again = await redeem(base, refreshGrant(tokens.clientId, tokens.refresh_token!));
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ access_token: pair.access_token, refresh_token: pair.refresh_token });
    }
  });
});
