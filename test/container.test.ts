// The Containerfile built as it is and run (issue 40): stand-ins for its base images are built from
// Debian's packages (test/support/container.ts), then the image answers /healthz, passes its own
// HEALTHCHECK, runs as a non-root user on a read-only root file system, makes a tool call against
// the fake forge served by `bun run fake-forge`, stops cleanly on SIGTERM, and stays small.
// Skips, saying why, where podman cannot run.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SEED, TOKENS } from './support/fake-forge';
import { connect, structured } from './support/mcp-client';
import { buildImage, containerProblem, ensureStandIns, freePort, mustPodman, podman, ROOT, run, waitFor } from './support/container';

// The first run builds two Debian root file systems (a minute or more) and the image.
setDefaultTimeout(900_000);

const problem = containerProblem();
if (problem) console.warn(`container tests skipped: ${problem}`);

const TAG = `localhost/forge-mcp:test-${process.pid}`;
/** docs/operating.md publishes the size; the bound leaves room for the binary to grow a little. */
const MAX_IMAGE_BYTES = 200 * 1024 * 1024;

let forge: { proc: Bun.Subprocess; url: string } | undefined;
let container = '';
let port = 0;

async function startFakeForge(): Promise<{ proc: Bun.Subprocess; url: string }> {
  const proc = Bun.spawn(['bun', 'run', 'fake-forge', '--port', String(freePort())], { cwd: ROOT, stdout: 'pipe', stderr: 'inherit' });
  const reader = proc.stdout.getReader();
  let text = '';
  while (!/listening on (\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`fake forge exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, url: /listening on (\S+)/.exec(text)![1] };
}

describe.skipIf(problem !== null)('the container image', () => {
  beforeAll(async () => {
    const started = Date.now();
    await ensureStandIns();
    await buildImage(TAG);
    console.log(`container: stand-ins and image ready in ${Math.round((Date.now() - started) / 1000)} s`);
    forge = await startFakeForge();
    port = freePort();
    // The host's network, so the container reaches the fake forge on the loopback interface;
    // --read-only without the writable /tmp podman would otherwise add: nothing may be written.
    container = (
      await mustPodman(
        'run',
        '--detach',
        '--network=host',
        '--read-only',
        '--read-only-tmpfs=false',
        '-e',
        `PORT=${port}`,
        '-e',
        'REMOTE_AUTHORIZATION=true',
        '-e',
        `FORGE_API_URL=${forge.url}`,
        '-e',
        'LOG_LEVEL=info',
        '-e',
        'FORGE_TOOLSETS=branches,issues',
        TAG,
      )
    ).trim();
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 'the container to answer /healthz');
  });

  afterAll(async () => {
    if (container) await podman('rm', '--force', '--time', '0', container);
    await podman('rmi', '--force', TAG);
    forge?.proc.kill();
  });

  test('the image is small: the compiled binary on the distroless base', async () => {
    const size = Number((await mustPodman('image', 'inspect', '--format', '{{.Size}}', TAG)).trim());
    console.log(`container: image size ${(size / 1e6).toFixed(1)} MB`);
    expect(size).toBeGreaterThan(10 * 1024 * 1024);
    expect(size).toBeLessThan(MAX_IMAGE_BYTES);
  });

  test('/healthz answers from inside the container', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });

  test('the image HEALTHCHECK (the binary probing itself) reports healthy', async () => {
    expect(await podman('inspect', '--format', '{{json .Config.Healthcheck.Test}}', container)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('"/usr/local/bin/forge-mcp","--healthcheck"'),
    });
    const r = await podman('healthcheck', 'run', container);
    expect(r.code).toBe(0);
  });

  test('the server runs as the non-root user 65532 on a read-only root file system', async () => {
    expect((await mustPodman('inspect', '--format', '{{.Config.User}}', container)).trim()).toBe('65532:65532');
    // The running process as the host's kernel sees it (the image has no ps for `podman top`).
    const pid = (await mustPodman('inspect', '--format', '{{.State.Pid}}', container)).trim();
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    expect(/^Uid:\s+(.*)$/m.exec(status)?.[1].split(/\s+/)).toEqual(['65532', '65532', '65532', '65532']);
    expect(/^Gid:\s+(.*)$/m.exec(status)?.[1].split(/\s+/)).toEqual(['65532', '65532', '65532', '65532']);
    expect((await mustPodman('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', container)).trim()).toBe('true');
    // The image has no shell: a command other than the binary cannot run in it.
    expect((await podman('exec', container, '/bin/sh', '-c', 'true')).code).not.toBe(0);
  });

  test('a tool call reaches the fake forge through the container', async () => {
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `http://127.0.0.1:${port}/mcp`);
    try {
      expect(structured<{ name: string }>(await session.call('get_branch', { project_id: SEED.projectPath, branch_name: 'develop' })).name).toBe('develop');
    } finally {
      await session.close();
    }
  });

  test('the Helm chart Deployment runs under podman kube play with a real Redis: /readyz, a tool call', async () => {
    const { kubeTools } = await import('./support/helm');
    const { helm } = await kubeTools();
    // Its own network with a known gateway, so the pod reaches this machine's Redis and forge there.
    const network = `forge-mcp-kube-${process.pid}`;
    const gateway = '10.231.0.1';
    await mustPodman('network', 'create', '--subnet', '10.231.0.0/24', '--gateway', gateway, network);
    const password = crypto.randomUUID();
    const redisPort = freePort();
    // Bound to every interface (the bridge appears only with the pod), so it has a password.
    const redis = Bun.spawn(['redis-server', '--port', String(redisPort), '--bind', '0.0.0.0', '--requirepass', password, '--save', '', '--appendonly', 'no'], {
      stdout: 'ignore',
      stderr: 'inherit',
    });
    // The fake forge listens on the loopback interface only: the pod reaches it through this relay.
    const relay = Bun.serve({
      hostname: '0.0.0.0',
      port: 0,
      fetch: (req) => {
        const url = new URL(req.url);
        return fetch(`${forge!.url.replace(/\/api\/v4$/, '')}${url.pathname}${url.search}`, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          redirect: 'manual',
        });
      },
    });
    const podPort = freePort();
    const values = [
      `image.repository=${TAG.split(':')[0]}`,
      `image.tag=${TAG.split(':')[1]}`,
      'autoscaling.enabled=false',
      'replicaCount=1',
      'store.bundled.enabled=false',
      `store.external.url=redis://:${password}@${gateway}:${redisPort}/0`,
      `forgeApiUrl=http://${gateway}:${relay.port}/api/v4`,
      `containerPort=${podPort}`,
      'toolsets=all',
    ];
    const rendered = await run([helm, 'template', 'kube', join(ROOT, 'deploy/helm/forge-mcp'), '--set', values.join(',')], {
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
    });
    expect(rendered.stderr).toBe('');
    const docs = Bun.YAML.parse(rendered.stdout) as any[];
    const secret = docs.find((d) => d.kind === 'Secret');
    const deployment = docs.find((d) => d.kind === 'Deployment');
    // What the kubelet does with secretKeyRef (podman 4.3 cannot read a Secret it was given).
    for (const e of deployment.spec.template.spec.containers[0].env) {
      if (e.valueFrom?.secretKeyRef) {
        e.value = secret.stringData[e.valueFrom.secretKeyRef.key];
        delete e.valueFrom;
      }
    }
    const file = join(tmpdir(), `forge-mcp-kube-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(deployment));
    try {
      await mustPodman('kube', 'play', '--network', network, file);
      // podman publishes the container port on this machine.
      const base = `http://127.0.0.1:${podPort}`;
      await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 'the pod to be ready', 60_000);
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', store: 'redis' });
      const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${base}/mcp`);
      try {
        expect(structured<{ name: string }>(await session.call('get_branch', { project_id: SEED.projectPath, branch_name: 'develop' })).name).toBe('develop');
      } finally {
        await session.close();
      }
      // The pod's container runs as 65532 with a read-only root, as the chart says.
      const server = 'kube-forge-mcp-pod-0-forge-mcp';
      expect((await mustPodman('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}} {{.Config.User}}', server)).trim()).toBe('true 65532:65532');
    } finally {
      await podman('kube', 'down', file);
      await podman('pod', 'rm', '--force', 'kube-forge-mcp-pod-0');
      await podman('network', 'rm', '--force', network);
      relay.stop(true);
      redis.kill();
      rmSync(file, { force: true });
    }
  });

  test('SIGTERM stops it cleanly, and the token never reaches the log', async () => {
    await mustPodman('stop', '--time', '20', container);
    expect((await mustPodman('inspect', '--format', '{{.State.ExitCode}}', container)).trim()).toBe('0');
    const logs = await podman('logs', container);
    expect(logs.stdout + logs.stderr).toContain('"event":"shutdown","signal":"SIGTERM"');
    expect(logs.stdout + logs.stderr).not.toContain(TOKENS.maintainer);
  });
});
