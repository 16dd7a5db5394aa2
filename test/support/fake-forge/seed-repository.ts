// Files of the fake repository beyond the blamed ones of seed.ts: a manifest, an executable script,
// a PNG, a 256 MiB generated log (produced on demand, never held whole), and the files the develop
// and feature/login branches add. Each is present at every commit reachable from the one that
// introduced it.
import { createHash } from 'node:crypto';
import type { Project } from './model';
import type { Blob } from './model-repository';
import { textBlob, storedBlob } from './model-repository';
import { SEED } from './seed';

/** Every line of the generated log is this long, newline included: line n starts at byte (n - 1) × LINE_BYTES. */
const LINE_BYTES = 64;
const HUGE_LINES = 4_194_304;

/** Line n (1-based) of the generated log: `00000042 xxxx…` (8 digits, a space, filler, a newline). */
export function hugeLine(n: number): string {
  return `${String(n).padStart(8, '0')} ${'x'.repeat(LINE_BYTES - 10)}\n`;
}

const encoder = new TextEncoder();

function generatedBlob(): Blob {
  const size = LINE_BYTES * HUGE_LINES;
  return {
    size,
    executable: false,
    // Its real id would need hashing 256 MiB; any fixed sha does for a fake.
    id: createHash('sha1').update('fake-forge:data/huge.log').digest('hex'),
    read(start, end) {
      const from = Math.floor(start / LINE_BYTES);
      const to = Math.min(HUGE_LINES, Math.ceil(Math.min(end, size) / LINE_BYTES));
      let text = '';
      for (let i = from; i < to; i++) text += hugeLine(i + 1);
      const offset = start - from * LINE_BYTES;
      return encoder.encode(text).subarray(offset, offset + Math.max(0, Math.min(end, size) - start));
    },
  };
}

/** A 1×1 PNG: its signature and IHDR chunk hold NUL bytes, as binary files do. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));

export const REPOSITORY_SEED = {
  manifest: 'package.json',
  script: 'bin/run.sh',
  image: 'assets/logo.png',
  imageBytes: PNG,
  hugeFile: 'data/huge.log',
  hugeLines: HUGE_LINES,
  hugeLineBytes: LINE_BYTES,
  developFile: 'src/gateway/graphql.ts',
  featureFile: 'src/auth/login.ts',
} as const;

interface SeededBlob {
  path: string;
  blob: Blob;
  introducedBy: (p: Project) => string;
}

let api: SeededBlob[] | undefined;

/** The extra files of a project (only project 42 has any). Blobs are immutable, so one set serves every reset. */
export function SEEDED_BLOBS(projectId: number): SeededBlob[] {
  if (projectId !== SEED.project) return [];
  api ??= [
    { path: REPOSITORY_SEED.manifest, blob: textBlob('{\n  "name": "api",\n  "version": "1.4.0"\n}\n'), introducedBy: () => SEED.rootSha },
    { path: REPOSITORY_SEED.script, blob: textBlob('#!/bin/sh\nexec bun run src/app.ts "$@"\n', true), introducedBy: () => SEED.rootSha },
    { path: REPOSITORY_SEED.image, blob: storedBlob(PNG), introducedBy: () => SEED.mainShas[1] },
    { path: REPOSITORY_SEED.hugeFile, blob: generatedBlob(), introducedBy: () => SEED.rootSha },
    { path: REPOSITORY_SEED.developFile, blob: textBlob('export const gateway = true;\n'), introducedBy: () => SEED.developShas[0] },
    {
      path: REPOSITORY_SEED.featureFile,
      blob: textBlob('export function login(user: string) {\n  if (!user) throw new Error("user required");\n}\n'),
      introducedBy: () => SEED.featureShas[0],
    },
  ];
  return api;
}
