// The folders of src/ and which import which (docs/architecture.md: dependencies point one way).
// An import of any kind counts, a type-only one too: a cycle of types is still two folders that
// must be read together. `bun run scripts/folder-cycles.ts` prints the graph and any cycle;
// test/folder-cycles.test.ts fails on a cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** folder → folder it imports → the importing files (relative to src/). Files at src/'s top are "(root)". */
export type FolderGraph = Map<string, Map<string, string[]>>;

const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']*)'/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

export function folderGraph(srcDir: string): FolderGraph {
  const root = resolve(srcDir);
  const folderOf = (path: string) => {
    const rel = relative(root, path);
    return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '(root)';
  };
  const graph: FolderGraph = new Map();
  for (const file of tsFiles(root)) {
    const from = folderOf(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(file), match[1]!));
      if (to === from) continue;
      const targets = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
      const files = targets.get(to) ?? targets.set(to, []).get(to)!;
      if (!files.includes(relative(root, file))) files.push(relative(root, file));
    }
  }
  return graph;
}

/** Every cycle's folders (Tarjan's strongly connected components of more than one folder). */
export function folderCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** A cycle told with the files that make each of its edges. */
export function describeCycle(graph: FolderGraph, cycle: string[]): string {
  const inCycle = new Set(cycle);
  const lines: string[] = [];
  for (const from of cycle) {
    for (const [to, files] of graph.get(from) ?? []) if (inCycle.has(to)) lines.push(`${from} → ${to} (${files.join(', ')})`);
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const graph = folderGraph(resolve(import.meta.dir, '../src'));
  for (const [from, targets] of [...graph].sort(([a], [b]) => a.localeCompare(b))) console.log(`${from} → ${[...targets.keys()].sort().join(', ')}`);
  const cycles = folderCycles(graph);
  for (const cycle of cycles) console.log(`\ncycle:\n${describeCycle(graph, cycle)}`);
  process.exit(cycles.length > 0 ? 1 : 0);
}
