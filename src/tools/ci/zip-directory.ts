// A zip archive's file list, read from its central directory only (APPNOTE.TXT 4.3.12-4.3.16): the
// archive is streamed and only its last TAIL_BYTES are kept, so an archive of any size is listed with
// bounded memory, and nothing is ever inflated, so a zip bomb costs what its directory costs. An
// archive whose directory does not fit the tail, that is cut short, or that is no zip is refused.
import type { ChunkReader } from '../../forge/client';
import { ToolError } from '../errors';

/** Bytes kept from the end of the archive: the directory and its end records must fit. */
export const TAIL_BYTES = 2 * 1024 * 1024;
/** Entries read from the directory at most; a larger directory is listed in part. */
const MAX_ENTRIES = 20_000;

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65535. */
const EOCD_SEARCH = 22 + 0xffff;

export interface ZipEntry {
  path: string;
  directory: boolean;
  size: number;
  compressed_size: number;
  method: number;
}

interface ZipListing {
  /** Bytes the archive had. */
  archive_bytes: number;
  /** Entries the directory declares. */
  declared_entries: number;
  entries: ZipEntry[];
}

/** Keeps the last `limit` bytes of a stream in one buffer, counting all of them. */
export async function readTail(reader: ChunkReader, limit = TAIL_BYTES): Promise<{ tail: Uint8Array; total: number }> {
  const ring = new Uint8Array(limit);
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    if (chunk.length >= limit) chunk = chunk.subarray(chunk.length - limit);
    // Byte k of the stream sits at ring[k % limit]; a chunk longer than the ring keeps only its end.
    const at = (total + value.length - chunk.length) % limit;
    const first = Math.min(chunk.length, limit - at);
    ring.set(chunk.subarray(0, first), at);
    if (first < chunk.length) ring.set(chunk.subarray(first), 0);
    total += value.length;
  }
  if (total <= limit) return { tail: ring.subarray(0, total), total };
  const start = total % limit;
  const tail = new Uint8Array(limit);
  tail.set(ring.subarray(start), 0);
  tail.set(ring.subarray(0, start), limit - start);
  return { tail, total };
}

const notZip = (why: string) => new ToolError('upstream', `the job's artifacts archive could not be listed: ${why}`);

/** The file list of an archive whose last bytes are `tail` (`total` bytes in all). */
export function listZip(tail: Uint8Array, total: number): ZipListing {
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - EOCD_SEARCH); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw notZip(total === 0 ? 'it is empty' : 'it is not a zip archive, or it was cut short');
  let count = view.getUint16(eocd + 10, true);
  let size = view.getUint32(eocd + 12, true);
  let end = eocd; // the directory ends where the end records begin
  if (count === 0xffff || size === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) throw notZip('its zip64 end record is missing');
    const record = locator - 56;
    if (record < 0 || view.getUint32(record, true) !== ZIP64_EOCD) throw notZip('its zip64 end record is missing');
    count = Number(view.getBigUint64(record + 32, true));
    size = Number(view.getBigUint64(record + 40, true));
    end = record;
  }
  if (size > end) {
    throw new ToolError(
      'upstream',
      `the job's artifacts archive has a file list of ${size} bytes, more than the ${TAIL_BYTES} this server reads; download it from GitLab instead`,
    );
  }
  const entries: ZipEntry[] = [];
  let at = end - size;
  while (at < end && entries.length < Math.min(count, MAX_ENTRIES)) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL) throw notZip('its file list is damaged');
    const method = view.getUint16(at + 10, true);
    let compressed = view.getUint32(at + 20, true);
    let uncompressed = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > end) throw notZip('its file list is damaged');
    const path = new TextDecoder('utf-8', { fatal: false }).decode(tail.subarray(at + 46, at + 46 + nameLength));
    // Zip64 sizes sit in the extra field (header 0x0001) when the 32-bit fields are saturated.
    if (uncompressed === 0xffffffff || compressed === 0xffffffff) {
      let x = at + 46 + nameLength;
      const xEnd = x + extraLength;
      while (x + 4 <= xEnd) {
        const id = view.getUint16(x, true);
        const length = view.getUint16(x + 2, true);
        if (id === 1) {
          let y = x + 4;
          if (uncompressed === 0xffffffff && y + 8 <= xEnd) {
            uncompressed = Number(view.getBigUint64(y, true));
            y += 8;
          }
          if (compressed === 0xffffffff && y + 8 <= xEnd) compressed = Number(view.getBigUint64(y, true));
          break;
        }
        x += 4 + length;
      }
    }
    entries.push({ path, directory: path.endsWith('/'), size: uncompressed, compressed_size: compressed, method });
    at = next;
  }
  return { archive_bytes: total, declared_entries: count, entries };
}
