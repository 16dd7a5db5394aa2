// Reads a job log as a stream of lines and keeps only what was asked for: the last lines (a ring
// of `limit + offset` lines) or a line range (reading stops once past it). GitLab's trace endpoint
// sends the whole log, without range support (lib/api/ci/jobs.rb: `body build.trace.raw`), so a tail
// has to pass every byte through; it is split on bytes and each kept line is copied out at most
// LINE_BYTES long, so memory is bounded by the window whatever the log's size or shape (one
// 50 MB line included), never by the log (D30).

import type { ChunkReader } from '../../forge/client';

/** Bytes kept of one line; the rest of a longer line is counted, not kept. */
export const LINE_BYTES = 1_000;

const NEWLINE = 0x0a;

export type LogWindow =
  /** The last `limit` lines before the last `offset` ones. */
  | { mode: 'tail'; limit: number; offset: number }
  /** `limit` lines from line `start` (1-based). */
  | { mode: 'range'; start: number; limit: number };

export interface RawLine {
  bytes: Uint8Array;
  /** Bytes of the line that were not kept. */
  cut: number;
}

export interface LogLines {
  lines: RawLine[];
  /** Number of the first line returned (1-based); 0 when none. */
  first_line: number;
  /** Lines in the whole log; null when reading stopped before its end. */
  total_lines: number | null;
  /** More lines follow the last one returned. */
  more: boolean;
}

/** One line being assembled from chunks: at most LINE_BYTES copied, the rest counted. */
class LineBuffer {
  private parts: Uint8Array[] = [];
  private kept = 0;
  private cut = 0;
  /** Bytes have been seen since the last line ended. */
  started = false;

  add(chunk: Uint8Array, from: number, to: number, keep: boolean): void {
    const length = to - from;
    if (length > 0) this.started = true;
    if (!keep) return;
    const room = LINE_BYTES - this.kept;
    const taken = Math.min(room, length);
    // slice copies: a kept line never holds on to the chunk it came from.
    if (taken > 0) this.parts.push(chunk.slice(from, from + taken));
    this.kept += taken;
    this.cut += length - taken;
  }

  take(): RawLine {
    const bytes = this.parts.length === 1 ? this.parts[0] : join(this.parts, this.kept);
    const line = { bytes, cut: this.cut };
    this.parts = [];
    this.kept = 0;
    this.cut = 0;
    this.started = false;
    return line;
  }
}

function join(parts: Uint8Array[], total: number): Uint8Array {
  const whole = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  return whole;
}

/** The last `size` lines seen, oldest first. */
class Ring {
  private readonly slots: RawLine[] = [];
  private next = 0;
  constructor(private readonly size: number) {}

  push(line: RawLine): void {
    if (this.slots.length < this.size) this.slots.push(line);
    else this.slots[this.next] = line;
    this.next = (this.next + 1) % this.size;
  }

  lines(): RawLine[] {
    return this.slots.length < this.size ? this.slots : [...this.slots.slice(this.next), ...this.slots.slice(0, this.next)];
  }
}

/** Reads `reader` to the end (tail) or past the range (range), keeping only the window's lines. */
export async function readLogLines(reader: ChunkReader, window: LogWindow): Promise<LogLines> {
  const tail = window.mode === 'tail';
  const ring = new Ring(tail ? window.limit + window.offset : 1);
  const range: RawLine[] = [];
  const first = tail ? 1 : window.start;
  const last = tail ? Infinity : window.start + window.limit - 1;
  const line = new LineBuffer();
  let number = 1; // the number of the line being assembled
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Past the range and something more arrived: that is all a range needs to know.
    if (number > last && value.byteLength > 0) return { lines: range, first_line: range.length ? first : 0, total_lines: null, more: true };
    const keep = () => number >= first && number <= last;
    let from = 0;
    for (;;) {
      const end = value.indexOf(NEWLINE, from);
      line.add(value, from, end < 0 ? value.byteLength : end, keep());
      if (end < 0) break;
      const complete = line.take();
      if (tail) ring.push(complete);
      else if (keep()) range.push(complete);
      number++;
      from = end + 1;
      if (number > last && from < value.byteLength) return { lines: range, first_line: range.length ? first : 0, total_lines: null, more: true };
    }
  }
  // A last line without a final newline is still a line; a final newline does not start one.
  if (line.started) {
    const complete = line.take();
    if (tail) ring.push(complete);
    else if (number >= first && number <= last) range.push(complete);
    number++;
  }
  const total = number - 1;
  if (!tail) return { lines: range, first_line: range.length ? first : 0, total_lines: total, more: false };
  const kept = ring.lines();
  const shown = kept.slice(0, Math.max(kept.length - window.offset, 0));
  const firstShown = total - kept.length + 1;
  return { lines: shown, first_line: shown.length ? firstShown : 0, total_lines: total, more: kept.length > shown.length };
}
