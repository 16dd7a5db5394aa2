// Reads a file's raw bytes as they stream from the forge and keeps only the lines asked for, within
// a size budget: lines before the range are counted by their newline bytes without being decoded,
// reading stops as soon as the range or the budget is complete (the rest is never fetched), and no
// more than FORGE_MAX_RESPONSE_BYTES of the body is ever read (D30). Binary files are recognised
// from their first bytes, as git does, and described instead of decoded.
import { ToolError } from '../errors';

/** Git's heuristic: a NUL byte in the first 8000 bytes makes a file binary. */
const SNIFF_BYTES = 8000;
const NEWLINE = 0x0a;

interface LineWindowRequest {
  /** First line wanted (1-based). */
  start: number;
  /** Last line wanted (1-based, inclusive); undefined: up to the budget. */
  end?: number;
  /** Most bytes of content kept, counted as they appear in JSON (escapes included). */
  budget: number;
  /** FORGE_MAX_RESPONSE_BYTES: bytes of the body read at most. */
  maxBytes: number;
}

type LineWindow =
  | { binary: true; head: Uint8Array }
  | {
      binary: false;
      /** The kept lines exactly as in the file, line endings included. */
      text: string;
      /** Line numbers of the first and last kept line; last is 0 when none was kept. */
      first: number;
      last: number;
      /** Lines of the whole file, known when it was read to its end. */
      totalLines?: number;
      /** The budget stopped the reading before the range (or the file) ended. */
      cut: boolean;
      /** The only kept line was longer than the budget and is shown cut. */
      lineCut: boolean;
    };

/** Bytes a string takes inside a JSON text: what the budget counts. */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  try {
    // `stream: true` tolerates a character cut at the end of the sniffed bytes.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

function streamFailure(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new ToolError('timeout', 'the forge did not finish sending the file in time (FORGE_REQUEST_TIMEOUT_MS / FORGE_TOOL_TIMEOUT_MS)');
  return new ToolError('upstream', "the forge's answer was cut off before the file's end");
}

export async function readLineWindow(body: ReadableStream<Uint8Array> | null, want: LineWindowRequest): Promise<LineWindow> {
  const reader = body?.getReader();
  const decoder = new TextDecoder('utf-8');
  let read = 0;
  let lastByte = -1;
  let line = 1; // number of the line the next byte belongs to
  let head = new Uint8Array(0);
  let sniffed = false;
  let pending = ''; // decoded text of the current, unfinished line (keep phase only)
  const kept: string[] = [];
  let keptBytes = 0;
  let first = 0;
  let last = 0;
  let cut = false;
  let lineCut = false;
  let done = false;

  /** Adds a whole line (with its newline, if it had one); false once nothing more is wanted. */
  const keep = (text: string): boolean => {
    if (want.end !== undefined && line > want.end) return false;
    const size = jsonBytes(text);
    if (keptBytes + size > want.budget) {
      if (kept.length === 0) {
        // One line longer than the whole budget (minified code): show its start.
        let slice = text.slice(0, want.budget);
        while (jsonBytes(slice) > want.budget) slice = slice.slice(0, Math.floor(slice.length * 0.9));
        kept.push(slice);
        first = last = line;
        lineCut = true;
      }
      cut = true;
      return false;
    }
    kept.push(text);
    keptBytes += size;
    if (first === 0) first = line;
    last = line;
    return want.end === undefined || line < want.end;
  };

  const take = (bytes: Uint8Array): void => {
    if (bytes.length > 0) lastByte = bytes[bytes.length - 1];
    let at = 0;
    // Before the range: count newlines in the bytes, decode nothing (0x0A never occurs inside a UTF-8 sequence).
    while (line < want.start && at < bytes.length) {
      const nl = bytes.indexOf(NEWLINE, at);
      if (nl === -1) return;
      at = nl + 1;
      line++;
    }
    pending += decoder.decode(bytes.subarray(at), { stream: true });
    let nl: number;
    while (!done && (nl = pending.indexOf('\n')) !== -1) {
      const text = pending.slice(0, nl + 1);
      pending = pending.slice(nl + 1);
      if (!keep(text)) done = true;
      else line++;
    }
    // A line still unfinished and already over the budget cannot be kept whole: settle it now
    // rather than hold more of it.
    if (!done && jsonBytes(pending) > want.budget - keptBytes) {
      keep(pending);
      done = true;
    }
  };

  /** Passes bytes on, never more than maxBytes in all (D30). */
  const feed = (bytes: Uint8Array): void => {
    const room = want.maxBytes - read;
    if (bytes.length <= room) {
      read += bytes.length;
      take(bytes);
      return;
    }
    read = want.maxBytes;
    take(bytes.subarray(0, room));
    if (!done) {
      throw new ToolError(
        'upstream',
        `the file is larger than FORGE_MAX_RESPONSE_BYTES (${want.maxBytes} bytes) and the lines asked for lie beyond them; nothing past that was read`,
      );
    }
  };

  try {
    if (reader) {
      for (;;) {
        const { done: ended, value } = await reader.read();
        if (ended) break;
        if (sniffed) {
          feed(value);
        } else {
          const joined = new Uint8Array(head.length + value.length);
          joined.set(head);
          joined.set(value, head.length);
          head = joined;
          if (head.length < SNIFF_BYTES) continue;
          sniffed = true;
          if (looksBinary(head.subarray(0, SNIFF_BYTES))) return { binary: true, head: head.subarray(0, SNIFF_BYTES) };
          feed(head);
        }
        if (done) break;
      }
    }
    if (!sniffed) {
      if (looksBinary(head)) return { binary: true, head };
      feed(head);
    }
    if (done) return { binary: false, text: kept.join(''), first, last, cut, lineCut };
    pending += decoder.decode();
    if (pending !== '') keep(pending);
    // The last line counts whether or not a newline ends it.
    const totalLines = read === 0 ? 0 : lastByte === NEWLINE ? line - 1 : line;
    return { binary: false, text: kept.join(''), first, last, totalLines, cut, lineCut };
  } catch (error) {
    throw streamFailure(error);
  } finally {
    reader?.cancel().catch(() => {});
  }
}
