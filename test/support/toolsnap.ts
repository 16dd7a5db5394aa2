// One reviewed snapshot per tool, test/__toolsnaps__/<tool>.json: the listing a client receives
// (name, title, description, annotations, input schema), so a change to one tool shows as a diff of
// that tool alone. A missing snapshot is written locally (review and commit it) but refused under CI
// (CI=true, as .ci/run sets), so a tool never ships unreviewed; UPDATE_TOOLSNAPS=true rewrites them
// after a change made on purpose (`UPDATE_TOOLSNAPS=true bun test test/catalog.test.ts`).
import { expect } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TOOLSNAP_DIR = resolve(import.meta.dir, '../__toolsnaps__');

const truthy = (value: string | undefined) => value === 'true' || value === '1';
const inCI = () => truthy(process.env.CI);
const updating = () => truthy(process.env.UPDATE_TOOLSNAPS);

/** Tool names that have a snapshot file. */
export function snapshotNames(): string[] {
  return existsSync(TOOLSNAP_DIR)
    ? readdirSync(TOOLSNAP_DIR)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -'.json'.length))
    : [];
}

export function matchToolSnapshot(name: string, listing: unknown): void {
  const path = join(TOOLSNAP_DIR, `${name}.json`);
  const text = `${JSON.stringify(listing, null, 2)}\n`;
  if (updating() || !existsSync(path)) {
    if (!updating() && inCI()) {
      throw new Error(
        `test/__toolsnaps__/${name}.json is missing; snapshots are not written under CI: run \`UPDATE_TOOLSNAPS=true bun test test/catalog.test.ts\` locally, review and commit it`,
      );
    }
    mkdirSync(TOOLSNAP_DIR, { recursive: true });
    writeFileSync(path, text);
    return;
  }
  expect(text).toBe(readFileSync(path, 'utf8'));
}
