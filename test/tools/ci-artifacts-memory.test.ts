// A 64 MiB artifacts archive is listed with bounded memory: the server keeps only the archive's last
// TAIL_BYTES (where the central directory is) and never inflates an entry. The archive is served as
// a pulled stream of one stored entry followed by its directory; live memory is sampled as it flows.
import { describe, expect, test } from 'bun:test';
import { CI_SEED, SEED, ciExtraOf } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured } from '../support/mcp-client';
import { zip } from '../support/zip';
import { TAIL_BYTES } from '../../src/tools/ci/zip-directory';

const h = useHarness({ FORGE_TOOLSETS: 'ci' });
const P = SEED.projectPath;
const J = CI_SEED.jobs;
const MIB = 1024 * 1024;
const CHUNKS = 64;

/** A stored entry of CHUNKS MiB of zeros: its local header, the data, then directory and end record. */
function hugeArchive(onPull: (pulled: number) => void): () => ReadableStream<Uint8Array> {
  const size = CHUNKS * MIB;
  const name = new TextEncoder().encode('build/output.bin');
  const local = new Uint8Array(30 + name.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true);
  lv.setUint16(4, 20, true);
  lv.setUint32(18, size, true);
  lv.setUint32(22, size, true);
  lv.setUint16(26, name.length, true);
  local.set(name, 30);
  // The directory of a one-entry zip, moved to sit after the big data: offsets are not read when listing.
  const small = zip([{ path: 'build/output.bin', data: '', method: 0, declaredSize: size }]);
  const directory = small.subarray(30 + name.length);
  new DataView(directory.buffer, directory.byteOffset).setUint32(20, size, true); // compressed size
  const CHUNK = new Uint8Array(MIB);
  return () => {
    let pulled = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled === 0) controller.enqueue(local);
          else if (pulled <= CHUNKS) controller.enqueue(CHUNK);
          else if (pulled === CHUNKS + 1) controller.enqueue(directory);
          else controller.close();
          onPull(++pulled);
        },
      },
      { highWaterMark: 0 },
    );
  };
}

describe('a 64 MiB artifacts archive', () => {
  test('is listed with live memory bounded by the tail kept, not by the archive', async () => {
    const c = await h.as();
    ciExtraOf(h.forge.model.findProject(P)!).artifacts.set(
      J.build,
      hugeArchive(() => {}),
    );
    structured(await c.call('list_job_artifacts', { project_id: P, job_id: J.build })); // warm the path
    Bun.gc(true);
    const baseline = process.memoryUsage();
    let peakHeap = 0;
    let peakRss = 0;
    const measure = () => {
      Bun.gc(true);
      const now = process.memoryUsage();
      peakHeap = Math.max(peakHeap, now.heapUsed - baseline.heapUsed);
      peakRss = Math.max(peakRss, now.rss - baseline.rss);
    };
    let pulledAll = 0;
    ciExtraOf(h.forge.model.findProject(P)!).artifacts.set(
      J.build,
      hugeArchive((pulled) => {
        pulledAll = pulled;
        if (pulled % 8 === 0) measure();
      }),
    );
    const listed = structured<Record<string, any>>(await c.call('list_job_artifacts', { project_id: P, job_id: J.build, recursive: true }));
    measure();
    expect(listed.files).toEqual([{ path: 'build/output.bin', type: 'file', size: CHUNKS * MIB }]);
    expect(listed.archive_bytes).toBeGreaterThan(CHUNKS * MIB);
    expect(pulledAll).toBeGreaterThan(CHUNKS); // all of it went through
    console.log(
      `artifacts: ${CHUNKS} MiB archive listed, peak above the baseline: heap in use ${(peakHeap / MIB).toFixed(1)} MiB, RSS ${(peakRss / MIB).toFixed(1)} MiB (tail kept: ${TAIL_BYTES / MIB} MiB)`,
    );
    // The tail buffer and a chunk or two in flight; reading the archive whole would hold 64 MiB.
    expect(peakHeap).toBeLessThan(TAIL_BYTES + 8 * MIB);
  }, 60_000);

  test("a file of 50 MiB: a line range stops reading, the rest of the forge's answer abandoned", async () => {
    const c = await h.as();
    let pulled = 0;
    const line = new TextEncoder().encode('test output line\n'.repeat(MIB / 17));
    ciExtraOf(h.forge.model.findProject(P)!).entryStreams.set(
      `${J.build}/big/output.log`,
      () =>
        new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              if (pulled++ < 50) controller.enqueue(line);
              else controller.close();
            },
          },
          { highWaterMark: 0 },
        ),
    );
    const file = structured<Record<string, any>>(
      await c.call('get_job_artifact_file', { project_id: P, job_id: J.build, artifact_path: 'big/output.log', start_line: 10, limit: 3 }),
    );
    expect([file.first_line, file.last_line, file.total_lines, file.content]).toEqual([10, 12, null, 'test output line\ntest output line\ntest output line']);
    // Whatever socket buffers and stream queues held when the reading stopped, never the rest.
    expect(pulled).toBeLessThan(25);
  }, 60_000);

  test('a directory larger than the tail kept is refused, saying so', async () => {
    const c = await h.as();
    const entries = Array.from({ length: 24_000 }, (_, i) => ({ path: `reports/${'x'.repeat(40)}-${i}.txt`, data: '', method: 0 as const }));
    ciExtraOf(h.forge.model.findProject(P)!).artifacts.set(J.build, zip(entries));
    const result = await c.call('list_job_artifacts', { project_id: P, job_id: J.build });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain(`more than the ${TAIL_BYTES} this server reads`);
  }, 60_000);
});
