// Repository contents of the fake forge: a snapshot (path → blob) per commit, so files can be
// read at any ref, trees listed, refs compared and commits written. Seeded commits get their
// snapshot derived on first use from the seeded files (model.ts RepoFile, whose content is the
// blame's lines, and seed-repository.ts); written commits store theirs. Kept beside the model in a
// WeakMap keyed by the project, so reset() (a new seeded model) starts from a clean repository.
import { createHash } from 'node:crypto';
import type { Commit, DiffFile, ForgeModel, Project } from './model';
import { SEEDED_BLOBS } from './seed-repository';

/** A file's bytes at one commit: stored, or produced on demand (a generated file of many MB). */
export interface Blob {
  readonly size: number;
  /** Bytes [start, end) of the file. */
  read(start: number, end: number): Uint8Array;
  readonly executable: boolean;
  /** Git's blob id. */
  readonly id: string;
}

export type Snapshot = Map<string, Blob>;

const encoder = new TextEncoder();

export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

export function storedBlob(bytes: Uint8Array, executable = false): Blob {
  return { size: bytes.byteLength, read: (s, e) => bytes.subarray(s, e), executable, id: gitBlobId(bytes) };
}

export const textBlob = (text: string, executable = false) => storedBlob(encoder.encode(text), executable);

export function blobBytes(blob: Blob): Uint8Array {
  return blob.read(0, blob.size);
}

interface RepoStore {
  snapshots: Map<string, Snapshot>;
  /** Bytes the raw endpoint has handed to the socket, per project: tests prove bounded reads with it. */
  rawBytesServed: number;
}

const stores = new WeakMap<Project, RepoStore>();

export function repoStore(p: Project): RepoStore {
  let store = stores.get(p);
  if (!store) stores.set(p, (store = { snapshots: new Map(), rawBytesServed: 0 }));
  return store;
}

/** The files of a commit. Seeded commits: every seeded file introduced by an ancestor (or the commit itself). */
export function snapshotAt(m: ForgeModel, p: Project, sha: string): Snapshot {
  const store = repoStore(p);
  const known = store.snapshots.get(sha);
  if (known) return known;
  const reach = m.reachable(p, [sha]);
  const snap: Snapshot = new Map();
  for (const f of p.files.values()) {
    if (reach.has(f.introducedBy)) snap.set(f.path, textBlob(`${f.blame.flatMap((b) => b.lines).join('\n')}\n`));
  }
  for (const seeded of SEEDED_BLOBS(p.id)) {
    if (reach.has(seeded.introducedBy(p))) snap.set(seeded.path, seeded.blob);
  }
  store.snapshots.set(sha, snap);
  return snap;
}

/** The newest commit reachable from `sha` whose snapshot changed `path` (git log -1 -- path). */
export function lastCommitFor(m: ForgeModel, p: Project, sha: string, path: string): string {
  const blob = snapshotAt(m, p, sha).get(path);
  let current = sha;
  for (;;) {
    const c = p.commits.get(current)!;
    const parent = c.parent_ids[0];
    if (!parent) return current;
    if (snapshotAt(m, p, parent).get(path)?.id !== blob?.id) return current;
    current = parent;
  }
}

// ─── Trees ─────────────────────────────────────────────────────────────────────────────────────

export interface TreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob';
  path: string;
  mode: string;
}

function treeId(snap: Snapshot, dir: string): string {
  const h = createHash('sha1').update('tree');
  for (const [path, blob] of [...snap].sort(([a], [b]) => (a < b ? -1 : 1))) if (path.startsWith(dir)) h.update(`${path}\0${blob.id}`);
  return h.digest('hex');
}

/**
 * Entries under `dir` ('' for the root): direct children, or every descendant when recursive.
 * Trees first, then blobs, each by path (GitLab's TreeFinder returns tree.sorted_entries). undefined
 * when `dir` is not a directory of the snapshot.
 */
export function treeEntries(snap: Snapshot, dir: string, recursive: boolean): TreeEntry[] | undefined {
  const prefix = dir === '' ? '' : `${dir}/`;
  const trees = new Map<string, TreeEntry>();
  const blobs: TreeEntry[] = [];
  for (const [path, blob] of snap) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length).split('/');
    for (let depth = 1; depth < rest.length && (recursive || depth === 1); depth++) {
      const treePath = prefix + rest.slice(0, depth).join('/');
      if (!trees.has(treePath)) trees.set(treePath, { id: treeId(snap, `${treePath}/`), name: rest[depth - 1], type: 'tree', path: treePath, mode: '040000' });
    }
    if (rest.length === 1 || recursive)
      blobs.push({ id: blob.id, name: rest[rest.length - 1], type: 'blob', path, mode: blob.executable ? '100755' : '100644' });
  }
  if (dir !== '' && trees.size === 0 && blobs.length === 0) return undefined;
  const byPath = (a: TreeEntry, b: TreeEntry) => (a.path < b.path ? -1 : 1);
  return [...[...trees.values()].sort(byPath), ...blobs.sort(byPath)];
}

// ─── Diffs between snapshots ───────────────────────────────────────────────────────────────────

const decoder = new TextDecoder();
/** Git's heuristic: a NUL in the first 8000 bytes makes a file binary. */
export const isBinary = (blob: Blob) => blob.read(0, Math.min(blob.size, 8000)).includes(0);

function lines(blob: Blob | undefined): string[] {
  if (!blob) return [];
  const text = decoder.decode(blobBytes(blob));
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

/** One hunk around the changed middle (common head and tail trimmed, 3 lines of context). */
function unifiedDiff(before: string[], after: string[]): string {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const from = Math.max(0, head - 3);
  const ctxAfter = Math.min(3, tail);
  const removed = before.slice(head, before.length - tail);
  const added = after.slice(head, after.length - tail);
  const lead = before.slice(from, head);
  const trail = before.slice(before.length - tail, before.length - tail + ctxAfter);
  const oldCount = lead.length + removed.length + trail.length;
  const newCount = lead.length + added.length + trail.length;
  const start = (count: number) => (count === 0 ? from : from + 1);
  return (
    `@@ -${start(oldCount)},${oldCount} +${start(newCount)},${newCount} @@\n` +
    [...lead.map((l) => ` ${l}`), ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`), ...trail.map((l) => ` ${l}`)].map((l) => `${l}\n`).join('')
  );
}

const modeOf = (blob: Blob | undefined) => (blob ? (blob.executable ? '100755' : '100644') : '0');

/** Changed files from one snapshot to another, by path (no rename detection), GitLab's Entities::Diff shape. */
export function diffSnapshots(before: Snapshot, after: Snapshot): DiffFile[] {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const out: DiffFile[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.id === b.id && a.executable === b.executable) continue;
    const binary = (a && isBinary(a)) || (b && isBinary(b));
    out.push({
      old_path: path,
      new_path: path,
      a_mode: modeOf(a),
      b_mode: modeOf(b),
      new_file: !a,
      renamed_file: false,
      deleted_file: !b,
      diff: binary ? 'Binary files differ\n' : a?.id === b?.id ? '' : unifiedDiff(lines(a), lines(b)),
    });
  }
  return out;
}

/** The nearest common ancestor of two commits (newest committed first), or undefined. */
export function mergeBase(m: ForgeModel, p: Project, a: string, b: string): string | undefined {
  const ofA = m.reachable(p, [a]);
  return m.log(p, [b]).find((c) => ofA.has(c.id))?.id;
}

/** Adds a written commit: its snapshot stored, its diffs computed against its parent. */
export function addCommit(m: ForgeModel, p: Project, commit: Omit<Commit, 'diffs'>, snap: Snapshot): Commit {
  const parent = commit.parent_ids[0];
  const full: Commit = { ...commit, diffs: diffSnapshots(parent ? snapshotAt(m, p, parent) : new Map(), snap) };
  p.commits.set(full.id, full);
  repoStore(p).snapshots.set(full.id, snap);
  return full;
}
