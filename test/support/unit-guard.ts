// Preloaded by `bun run test:unit` only (scripts/test-lane.ts): the fast loop starts no process, so
// every way to start one throws, naming the list a file that needs one belongs in (test/lanes.ts).
import childProcess from 'node:child_process';

function refuse(): never {
  throw new Error('the fast loop (bun run test:unit) starts no processes: list this test file in test/lanes.ts (E2E_FILES)');
}

const bun = Bun as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync']) bun[name] = refuse;
const node = childProcess as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) node[name] = refuse;
