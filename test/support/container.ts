// Podman for the tests that build and run the real Containerfile (issue 40). The registries the
// Containerfile's base images come from are not reachable from CI, so each FROM image is replaced
// by a stand-in built from Debian's packages with mmdebstrap and tagged with exactly the name the
// FROM line uses; the Containerfile itself is built as it is. The stand-ins trust the CAs this
// machine trusts, so a build that reaches the package registry through an intercepting proxy works.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../..');

/**
 * Podman's settings for these tests. This kind of machine runs as root without CAP_SYS_RESOURCE, so
 * runc cannot give a container the raised open-file and process limits podman asks for by default
 * ("error setting rlimit type 7: operation not permitted"); limits below the machine's own work.
 */
const CONF_DIR = join(tmpdir(), 'forge-mcp-podman');
export const CONTAINERS_CONF = join(CONF_DIR, 'containers.conf');
function writeConf(): void {
  mkdirSync(CONF_DIR, { recursive: true });
  writeFileSync(CONTAINERS_CONF, '[containers]\ndefault_ulimits = ["nofile=16384:16384", "nproc=16384:16384"]\n');
}

export function podmanEnv(): Record<string, string> {
  return { ...(process.env as Record<string, string>), CONTAINERS_CONF };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export async function run(cmd: string[], opts: { stdin?: Blob; env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  const proc = Bun.spawn(cmd, { env: opts.env ?? podmanEnv(), cwd: opts.cwd ?? ROOT, stdin: opts.stdin ?? 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

export async function podman(...args: string[]): Promise<Run> {
  return run(['podman', ...args]);
}

/** Throws with podman's own words when the command fails. */
export async function mustPodman(...args: string[]): Promise<string> {
  const r = await podman(...args);
  if (r.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(-2000)}`);
  return r.stdout;
}

/**
 * Why containers cannot run here, or null when they can: the tools are missing, or podman cannot
 * start a container. Checked without building anything, so a test file can skip at once and say why.
 */
export function containerProblem(): string | null {
  for (const tool of ['podman', 'mmdebstrap']) {
    if (!Bun.which(tool)) return `${tool} is not installed (apt-get install podman runc mmdebstrap; .ci/run does)`;
  }
  writeConf();
  const info = Bun.spawnSync(['podman', 'info', '--format', '{{.Host.OCIRuntime.Name}}'], { env: podmanEnv(), stdout: 'pipe', stderr: 'pipe' });
  if (info.exitCode !== 0) return `podman info failed: ${info.stderr.toString().trim().slice(-500)}`;
  return null;
}

/** The images the Containerfile's FROM lines name, in order (build stages by name are skipped). */
export function fromImages(containerfile = join(ROOT, 'Containerfile')): string[] {
  const images: string[] = [];
  for (const line of readFileSync(containerfile, 'utf8').split('\n')) {
    const m = /^FROM\s+(?:--\S+\s+)*(\S+)/i.exec(line.trim());
    if (m) images.push(m[1]);
  }
  return images;
}

interface StandIn {
  /** mmdebstrap's arguments before the suite and the output file. */
  mmdebstrap: string[];
  /** podman import --change instructions, as the real image's configuration has them. */
  changes: string[];
}

/** The host's CA bundle: the one Bun and curl here are told to use, else Debian's. */
function hostCaBundle(): string {
  for (const candidate of [process.env.NODE_EXTRA_CA_CERTS, process.env.SSL_CERT_FILE, '/etc/ssl/certs/ca-certificates.crt']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  throw new Error('no CA bundle on this machine');
}

/** The Bun binary running this test, copied into the stand-in so it has what the real base has. */
function bunBinary(): string {
  return process.execPath;
}

function standInFor(image: string): StandIn {
  const ca = hostCaBundle();
  const trustHost = `--customize-hook=mkdir -p "$1/etc/ssl/certs" && cp -L ${ca} "$1/etc/ssl/certs/ca-certificates.crt"`;
  if (/(^|\/)oven\/bun:/.test(image)) {
    // The official Bun image: Debian with bun and bunx in /usr/local/bin, working directory /home/bun/app.
    return {
      mmdebstrap: [
        '--variant=minbase',
        '--include=ca-certificates',
        trustHost,
        `--customize-hook=mkdir -p "$1/usr/local/bin" "$1/home/bun/app" && cp -L ${bunBinary()} "$1/usr/local/bin/bun" && ln -sf bun "$1/usr/local/bin/bunx"`,
      ],
      changes: ['CMD ["/usr/local/bin/bun"]', 'WORKDIR /home/bun/app', `ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt`],
    };
  }
  if (/(^|\/)distroless\/cc-debian12:nonroot$/.test(image)) {
    // Distroless "cc": glibc, libgcc, libstdc++, OpenSSL, CA certificates, time zones, the nonroot
    // user 65532; packages only unpacked (no maintainer scripts), so there is no shell at all.
    return {
      mmdebstrap: [
        '--variant=extract',
        '--include=libc6,libgcc-s1,libstdc++6,libssl3,ca-certificates,tzdata,netbase',
        trustHost,
        `--customize-hook=printf 'root:x:0:0:root:/root:/sbin/nologin\\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\\n' > "$1/etc/passwd" && printf 'root:x:0:\\nnonroot:x:65532:\\n' > "$1/etc/group" && mkdir -p "$1/home/nonroot" "$1/tmp" && chown 65532:65532 "$1/home/nonroot" && chmod 1777 "$1/tmp"`,
      ],
      changes: ['USER 65532:65532', 'WORKDIR /home/nonroot'],
    };
  }
  throw new Error(`no stand-in recipe for the base image ${image}: add one to test/support/container.ts`);
}

/** Where a run keeps its root file systems, so a second test file in the same run builds none. */
const CACHE = join(tmpdir(), 'forge-mcp-standins');

/**
 * Builds (or reuses) a stand-in for every FROM image and tags it with the FROM line's exact name.
 * A stand-in is reused while its recipe (and the Bun binary copied in) is unchanged.
 */
export async function ensureStandIns(): Promise<string[]> {
  const images = fromImages();
  const made: string[] = [];
  for (const image of images) {
    const recipe = standInFor(image);
    const key = createHash('sha256').update(JSON.stringify(recipe)).update(image).update(Bun.version).digest('hex').slice(0, 16);
    const label = `forge-mcp.stand-in=${key}`;
    const existing = await podman('image', 'inspect', '--format', '{{index .Config.Labels "forge-mcp.stand-in"}}', image);
    if (existing.code === 0 && existing.stdout.trim() === key) continue;
    mkdirSync(CACHE, { recursive: true });
    const tar = join(CACHE, `${key}.tar`);
    if (!existsSync(tar)) {
      const partial = join(CACHE, `${key}.partial.tar`);
      rmSync(partial, { force: true });
      const r = await run(['mmdebstrap', '--quiet', '--format=tar', ...recipe.mmdebstrap, 'bookworm', partial]);
      if (r.code !== 0) throw new Error(`mmdebstrap for ${image} exited ${r.code}: ${r.stderr.trim().slice(-2000)}`);
      renameSync(partial, tar);
    }
    const changes = [...recipe.changes, `LABEL ${label}`].flatMap((c) => ['--change', c]);
    await mustPodman('import', ...changes, tar, image);
    made.push(image);
  }
  return made;
}

/** Builds the image from the Containerfile as it is, never pulling. */
export async function buildImage(tag: string): Promise<void> {
  await mustPodman('build', '--pull=never', '--format', 'docker', '-f', join(ROOT, 'Containerfile'), '-t', tag, ROOT);
}

/** A free TCP port on the loopback interface. */
export function freePort(): number {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

export async function waitFor(check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await Bun.sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}
