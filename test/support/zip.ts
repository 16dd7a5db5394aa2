// A minimal zip writer and entry reader for test fixtures (APPNOTE.TXT 4.3: local headers, central
// directory, end record; methods 0 stored and 8 deflate through Bun.deflateSync's raw DEFLATE).
// Bun has no zip writer built in; the fake forge serves these archives as GitLab serves a job's
// artifacts, and extracts one entry as GitLab's Workhorse does for …/artifacts/*artifact_path.

export interface ZipInput {
  path: string;
  data?: Uint8Array | string;
  /** 0 stored, 8 deflate (the default for files). */
  method?: 0 | 8;
  /** Declares this uncompressed size in the directory instead of the real one (a bomb's lie). */
  declaredSize?: number;
}

const encoder = new TextEncoder();
const bytes = (data: Uint8Array | string | undefined): Uint8Array<ArrayBuffer> =>
  typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data ?? new Uint8Array());

export function zip(entries: ZipInput[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.path);
    const raw = bytes(entry.data);
    const method = entry.path.endsWith('/') ? 0 : (entry.method ?? 8);
    const body = method === 8 ? Bun.deflateSync(raw) : raw;
    const crc = Bun.hash.crc32(raw) >>> 0;
    const size = entry.declaredSize ?? raw.length;
    const local = new Uint8Array(30 + name.length + body.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x0800, true); // UTF-8 names
    lv.setUint16(8, method, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, size >>> 0, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    local.set(body, 30 + name.length);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, size >>> 0, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const directorySize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, directorySize, true);
  ev.setUint32(16, offset, true);
  return concat([...locals, ...centrals, end]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One entry's content, found through the central directory; undefined when the archive has none by that name. */
export function zipEntry(archive: Uint8Array, path: string): Uint8Array | undefined {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let eocd = -1;
  for (let i = archive.length - 22; i >= 0; i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) return undefined;
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const name = decoder.decode(archive.subarray(at + 46, at + 46 + nameLength));
    if (name === path) {
      const local = view.getUint32(at + 42, true);
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      const body = archive.slice(start, start + compressed);
      return method === 8 ? Bun.inflateSync(body) : body;
    }
    at = next;
  }
  return undefined;
}
