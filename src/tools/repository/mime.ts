// A guess at a binary file's type, so an agent knows what it is without seeing it: the file's
// own signature first (magic bytes), its extension otherwise.

const SIGNATURES: readonly [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0x1f, 0x8b], 'application/gzip'],
  [[0x7f, 0x45, 0x4c, 0x46], 'application/x-elf'],
  [[0x00, 0x61, 0x73, 0x6d], 'application/wasm'],
  [[0x42, 0x4d], 'image/bmp'],
  [[0x00, 0x00, 0x01, 0x00], 'image/x-icon'],
];

const EXTENSIONS: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  jar: 'application/java-archive',
  wasm: 'application/wasm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  exe: 'application/vnd.microsoft.portable-executable',
  so: 'application/x-sharedlib',
  sqlite: 'application/vnd.sqlite3',
  db: 'application/vnd.sqlite3',
};

export function guessMimeType(path: string, head: Uint8Array): string {
  for (const [signature, type] of SIGNATURES) {
    if (signature.every((byte, i) => head[i] === byte)) return type;
  }
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && EXTENSIONS[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}
