// The tail reader behind list_job_artifacts: whatever the chunking, it keeps exactly the stream's
// last bytes, in order.
import { describe, expect, test } from 'bun:test';
import { readTail } from '../../src/tools/ci/zip-directory';

function reader(chunks: Uint8Array[]) {
  let i = 0;
  return { read: async () => (i < chunks.length ? { done: false as const, value: chunks[i++] } : { done: true as const }) };
}

const stream = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 251);

describe('readTail', () => {
  test.each([
    ['small chunks', [3, 5, 7, 11, 13, 2]],
    ['one chunk longer than the tail', [37]],
    ['chunks longer than the tail after a short one', [3, 25, 19]],
    ['exactly the tail', [16]],
    ['shorter than the tail', [4, 5]],
  ])('%s', async (_, sizes) => {
    const all = stream(sizes.reduce((a, b) => a + b, 0));
    const chunks: Uint8Array[] = [];
    let at = 0;
    for (const size of sizes) {
      chunks.push(all.subarray(at, at + size));
      at += size;
    }
    const { tail, total } = await readTail(reader(chunks), 16);
    expect(total).toBe(all.length);
    expect([...tail]).toEqual([...all.subarray(Math.max(0, all.length - 16))]);
  });
});
