// `bun run test:unit` and `bun run test:e2e`: `bun test` over one loop's files, split by the one list
// in test/lanes.ts; the fast loop is preloaded with test/support/unit-guard.ts. Further arguments go
// to `bun test` before the files (`bun run test:unit --bail`).
import { Glob } from 'bun';
import { resolve } from 'node:path';
import { E2E_FILES } from '../test/lanes';

const ROOT = resolve(import.meta.dir, '..');
const [lane, ...options] = Bun.argv.slice(2);
if (lane !== 'unit' && lane !== 'e2e') {
  console.error('usage: bun run scripts/test-lane.ts unit|e2e [bun test options]');
  process.exit(2);
}
const all = [...new Glob('test/**/*.test.ts').scanSync(ROOT)].sort();
const stale = E2E_FILES.filter((file) => !all.includes(file));
if (stale.length > 0) {
  console.error(`test/lanes.ts lists files that do not exist: ${stale.join(', ')}`);
  process.exit(2);
}
const e2e = new Set(E2E_FILES);
const files = all.filter((file) => e2e.has(file) === (lane === 'e2e')).map((file) => `./${file}`);
const guard = lane === 'unit' ? ['--preload', './test/support/unit-guard.ts'] : [];
const run = Bun.spawn(['bun', 'test', ...guard, ...options, ...files], { cwd: ROOT, stdio: ['inherit', 'inherit', 'inherit'] });
process.exit(await run.exited);
