// Rate windows in a store several replicas share (D10, D37): two limiters on one store count one
// global window; taking units in chunks never lets a key past the limit, refuses it at most a chunk
// per replica early, and a refused batch is still not counted.
import { describe, expect, test } from 'bun:test';
import { FixedWindowLimiter } from '../src/web/rate-limit';
import { MemoryStore } from '../src/store/memory-store';

const replicas = (chunk: number, limit: number, now: () => number) => {
  const store = new MemoryStore({ maxEntries: 1000, now });
  return [1, 2].map(() => new FixedWindowLimiter(limit, now, 60_000, 1000, { store, scope: 'ip', chunk }));
};

describe('one window across replicas', () => {
  test('exact with chunk 1: the limit holds across both, the next window starts afresh', async () => {
    let now = 0;
    const [a, b] = replicas(1, 10, () => now);
    const allowed: boolean[] = [];
    for (let i = 0; i < 14; i++) allowed.push((await (i % 2 ? a : b).hit('10.0.0.1')).allowed);
    expect(allowed.filter(Boolean)).toHaveLength(10);
    expect(allowed.slice(10)).toEqual([false, false, false, false]);
    now += 60_000;
    expect((await a.hit('10.0.0.1')).allowed).toBe(true);
  });

  test('chunks of 10 under a limit of 100: never past it, at most a chunk per replica early', async () => {
    const [a, b] = replicas(10, 100, () => 0);
    let allowed = 0;
    for (let i = 0; i < 150; i++) if ((await (i % 3 ? a : b).hit('key')).allowed) allowed++;
    expect(allowed).toBeLessThanOrEqual(100);
    expect(allowed).toBeGreaterThanOrEqual(100 - 2 * 10);
  });

  test('with chunks, a batch that would pass the limit is refused whole and not counted', async () => {
    const [a, b] = replicas(5, 20, () => 0);
    for (let i = 0; i < 15; i++) expect((await a.hit('k')).allowed).toBe(true);
    expect((await b.hit('k', 10)).allowed).toBe(false);
    expect((await b.hit('k', 5)).allowed).toBe(true);
  });
});
