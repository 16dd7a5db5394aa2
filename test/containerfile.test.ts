// The Containerfile checked statically (test/container.test.ts builds and runs it): the dockerfile-utils
// linter (the validator behind editors' Dockerfile support) must report nothing, and the parsed
// instructions must keep the promises docs/operating.md makes about the image.
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { settingSchema } from '../src/config/schema';
import { buildCommand } from './support/binary';

const ROOT = resolve(import.meta.dir, '..');
const text = await Bun.file(resolve(ROOT, 'Containerfile')).text();
const parsed = DockerfileParser.parse(text);

interface Stage {
  image: string;
  name: string | null;
  tag: string | null;
  digest: string | null;
  /** Lines [first, end) of the stage, zero-based. */
  first: number;
  end: number;
}

const froms = parsed.getFROMs();
/** One entry per FROM, each running to the next FROM. */
const stages: Stage[] = froms.map((from, i) => ({
  image: from.getImage() ?? '',
  name: from.getBuildStage(),
  tag: from.getImageTag(),
  digest: from.getImageDigest(),
  first: from.getRange().start.line,
  end: froms[i + 1]?.getRange().start.line ?? Number.POSITIVE_INFINITY,
}));
const [build, runtime] = stages;

/** The instructions of `list` that lie in the stage. */
function inStage<T extends Instruction>(stage: Stage, list: T[]): T[] {
  return list.filter((i) => i.getRange().start.line >= stage.first && i.getRange().start.line < stage.end);
}
const keyword = (stage: Stage, name: string) => inStage(stage, parsed.getInstructions()).filter((i) => i.getKeyword() === name);
const args = (instruction: Instruction) => instruction.getArguments().map((a) => a.getValue());
/** Exec-form arguments (a JSON array) of ENTRYPOINT or HEALTHCHECK CMD. */
function execForm(instruction: Instruction, after = ''): string[] {
  const raw = instruction.getArgumentsContent() ?? '';
  return JSON.parse(raw.slice(raw.indexOf(after) + after.length).trim()) as string[];
}

describe('Containerfile', () => {
  test('the linter reports no error or warning', () => {
    expect(validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  test("two stages: the official Bun image at the project's Bun line, then a distroless glibc base; both pinned by tag", async () => {
    expect(stages).toHaveLength(2);
    const pkg = (await Bun.file(resolve(ROOT, 'package.json')).json()) as { devDependencies: Record<string, string> };
    expect(build.name).toBe('build');
    expect(build.image).toStartWith('docker.io/oven/bun:');
    expect(build.tag).toStartWith(`${pkg.devDependencies['bun-types']}.`);
    expect(runtime.image).toMatch(/^gcr\.io\/distroless\/(cc|base)-debian\d+:nonroot$/);
    for (const stage of [build, runtime]) {
      expect(stage.tag ?? stage.digest).toBeTruthy();
      expect(stage.tag).not.toBe('latest');
    }
  });

  test('the build stage copies what the build needs (files that exist and are not ignored) and runs `bun run build`', async () => {
    const ignored = (await Bun.file(resolve(ROOT, '.dockerignore')).text()).split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
    const sources = inStage(build, parsed.getCOPYs()).flatMap((copy) => args(copy).slice(0, -1));
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'bun.lock', 'src']));
    for (const source of sources) {
      expect(existsSync(resolve(ROOT, source))).toBe(true);
      expect(ignored).not.toContain(source);
    }
    expect(keyword(build, 'RUN').map((r) => r.getArgumentsContent())).toContain('bun run build');
  });

  test('the runtime stage holds only the binary that `bun run build` writes, copied from the build stage', async () => {
    const command = await buildCommand();
    const outfile = command[command.indexOf('--outfile') + 1];
    const copies = inStage(runtime, parsed.getCOPYs());
    expect(copies).toHaveLength(1);
    expect(copies[0].getFromFlag()?.getValue()).toBe('build');
    expect(args(copies[0])).toEqual([`/src/${outfile}`, '/usr/local/bin/forge-mcp']);
    // A distroless base has no shell: a RUN there could never work.
    expect(keyword(runtime, 'RUN')).toEqual([]);
    expect(execForm(inStage(runtime, parsed.getENTRYPOINTs())[0])).toEqual(['/usr/local/bin/forge-mcp']);
  });

  test('runs as a non-root user', () => {
    const users = keyword(runtime, 'USER').map((u) => args(u)[0]);
    expect(users).toHaveLength(1);
    const [user, group] = users[0].split(':');
    expect(['root', '0']).not.toContain(user);
    expect(group ?? '').not.toBe('0');
  });

  test("HTTP on 0.0.0.0 at the exposed port, and a HEALTHCHECK that runs the binary's --healthcheck", () => {
    const env = new Map(inStage(runtime, parsed.getENVs()).flatMap((e) => e.getProperties().map((p) => [p.getName(), p.getValue()] as const)));
    expect(env.get('HOST')).toBe('0.0.0.0');
    expect(env.get('STREAMABLE_HTTP')).toBe('true');
    const port = env.get('PORT') ?? String(settingSchema('PORT').default);
    expect(keyword(runtime, 'EXPOSE').map((e) => args(e)[0])).toEqual([port]);
    const checks = inStage(runtime, parsed.getHEALTHCHECKs());
    expect(checks).toHaveLength(1);
    expect(execForm(checks[0], 'CMD')).toEqual(['/usr/local/bin/forge-mcp', '--healthcheck']);
  });

  test('no secret is baked in', () => {
    for (const instruction of [...parsed.getENVs(), ...parsed.getARGs(), ...parsed.getInitialARGs()]) {
      expect(instruction.getArgumentsContent() ?? '').not.toMatch(/TOKEN|SECRET|PASSWORD|CLIENT_ID/i);
    }
    expect(text).not.toMatch(/glpat-|Bearer /);
  });
});
