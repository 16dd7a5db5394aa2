// No two folders of src/ import each other, directly or round a loop (docs/architecture.md: each
// layer knows only those below it). scripts/folder-cycles.ts builds the graph from the imports.
import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeCycle, folderCycles, folderGraph } from '../scripts/folder-cycles';

test('src/ has no cycle between its folders', () => {
  const graph = folderGraph(resolve(import.meta.dir, '../src'));
  expect(graph.size).toBeGreaterThan(5);
  expect(folderCycles(graph).map((cycle) => describeCycle(graph, cycle))).toEqual([]);
});

test('a loop through three folders, a type-only import in it, is found and named by its files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folder-cycles-'));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('a/one.ts', "import { two } from '../b/two';\nexport const one = two;\n");
    write('b/two.ts', "export { three as two } from '../c/three';\n");
    write('c/three.ts', "import type { One } from '../a/types';\nexport const three = 3 as One;\n");
    write('a/types.ts', 'export type One = number;\n');
    write('d/four.ts', "import { one } from '../a/one';\nexport const four = one;\n");
    write('main.ts', "import { four } from './d/four';\nconsole.log(four);\n");
    const graph = folderGraph(dir);
    const cycles = folderCycles(graph);
    expect(cycles).toEqual([['a', 'b', 'c']]);
    expect(describeCycle(graph, cycles[0]!)).toContain('c → a (c/three.ts)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
