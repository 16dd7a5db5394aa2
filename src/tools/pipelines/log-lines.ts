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

interface LogLines {
  lines: RawLine[];
  /** Number of the first line returned (1-based); 0 when none. */
  first_line: number;
  /** Lines in the whole log; null when reading stopped before its end. */
  total_lines: number | null;
  /** More lines follow the last one returned. */
  more: boolean;
}

/** Lines of one page of line slots; a page is PAGE_LINES × LINE_BYTES bytes. */
export const PAGE_LINES = 64;
export const PAGE_BYTES = PAGE_LINES * LINE_BYTES;

/** Where a read's pages come from and go back to (log-budget.ts keeps them for the next reads). */
export interface PageSource {
  take(): Uint8Array;
  give(pages: Uint8Array[]): void;
}

export const freshPages: PageSource = { take: () => new Uint8Array(PAGE_BYTES), give: () => {} };

/**
 * The line slots of one read: a ring of `size` lines (tail) or `size` lines from `first` (range).
 * Slots live in pages of PAGE_LINES lines, taken when first written and reused for every later
 * line that lands in the same place (a tail's ring comes round once per `size` lines), so a read
 * allocates nothing per line, and with a budget's pages nothing at all: issue 32 measured per-line
 * copies of 30 MB logs leaving a gigabyte for the collector under concurrent tails. A ring has one
 * slot more than it keeps: the line being assembled, which may turn out not to exist (a final
 * newline starts none), never overwrites the oldest kept line.
 */
class Slots {
  readonly pages: Uint8Array[] = [];
  private readonly lengths: Int32Array;
  private readonly cuts: Float64Array;
  constructor(
    private readonly size: number,
    private readonly ring: boolean,
    private readonly first: number,
    private readonly source: PageSource,
  ) {
    this.lengths = new Int32Array(size);
    this.cuts = new Float64Array(size);
  }

  /** The slot line `number` is kept in, emptied; -1 when that line is not kept. */
  start(number: number): number {
    const index = this.ring ? (number - 1) % this.size : number - this.first;
    if (index < 0 || index >= this.size) return -1;
    this.lengths[index] = 0;
    this.cuts[index] = 0;
    return index;
  }

  /** Copies `chunk[from, to)` into slot `index` up to LINE_BYTES, counting the rest as cut. */
  keep(index: number, chunk: Uint8Array, from: number, to: number): void {
    const length = to - from;
    const kept = this.lengths[index];
    const taken = Math.min(LINE_BYTES - kept, length);
    if (taken > 0) {
      const page = Math.floor(index / PAGE_LINES);
      while (this.pages.length <= page) this.pages.push(this.source.take());
      this.pages[page].set(chunk.subarray(from, from + taken), (index % PAGE_LINES) * LINE_BYTES + kept);
      this.lengths[index] = kept + taken;
    }
    this.cuts[index] += length - taken;
  }

  /** Lines `from` to `to` (inclusive), as views of their slots: valid until the pages are given back. */
  lines(from: number, to: number): RawLine[] {
    const out: RawLine[] = [];
    for (let n = from; n <= to; n++) {
      const index = this.ring ? (n - 1) % this.size : n - this.first;
      const length = this.lengths[index];
      const at = (index % PAGE_LINES) * LINE_BYTES;
      out.push({ bytes: length ? this.pages[Math.floor(index / PAGE_LINES)].subarray(at, at + length) : new Uint8Array(0), cut: this.cuts[index] });
    }
    return out;
  }
}

/** Reads `reader` to the end (tail) or past the range (range), keeping only the window's lines. */
export function readLogLines(reader: ChunkReader, window: LogWindow): Promise<LogLines> {
  return readLogLinesWith(reader, window, freshPages, (read) => read);
}

/**
 * readLogLines with pages taken from `pages`: the lines are views of them, so `use` reads them
 * (into text) before the pages go back.
 */
export async function readLogLinesWith<T>(reader: ChunkReader, window: LogWindow, pages: PageSource, use: (read: LogLines) => T): Promise<T> {
  const tail = window.mode === 'tail';
  const slots = new Slots(tail ? window.limit + window.offset + 1 : window.limit, tail, tail ? 1 : window.start, pages);
  try {
    return use(await readInto(reader, window, slots));
  } finally {
    pages.give(slots.pages);
  }
}

async function readInto(reader: ChunkReader, window: LogWindow, slots: Slots): Promise<LogLines> {
  const tail = window.mode === 'tail';
  const size = tail ? window.limit + window.offset : window.limit;
  const first = tail ? 1 : window.start;
  const last = tail ? Infinity : window.start + window.limit - 1;
  const rangeLines = (upTo: number) => (upTo >= first ? slots.lines(first, upTo) : []);
  let number = 1; // the number of the line being assembled
  let slot = slots.start(number);
  let started = false; // bytes have been seen since the last line ended
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Past the range and something more arrived: that is all a range needs to know.
    if (number > last && value.byteLength > 0) {
      const lines = rangeLines(last);
      return { lines, first_line: lines.length ? first : 0, total_lines: null, more: true };
    }
    let from = 0;
    for (;;) {
      const end = value.indexOf(NEWLINE, from);
      const to = end < 0 ? value.byteLength : end;
      if (to > from) started = true;
      if (slot >= 0) slots.keep(slot, value, from, to);
      if (end < 0) break;
      number++;
      started = false;
      slot = slots.start(number);
      from = end + 1;
      if (number > last && from < value.byteLength) {
        const lines = rangeLines(last);
        return { lines, first_line: lines.length ? first : 0, total_lines: null, more: true };
      }
    }
  }
  // A last line without a final newline is still a line; a final newline does not start one.
  const total = started ? number : number - 1;
  if (!tail) {
    const lines = rangeLines(Math.min(total, last));
    return { lines, first_line: lines.length ? first : 0, total_lines: total, more: false };
  }
  const kept = Math.min(total, size);
  const shownCount = Math.max(kept - window.offset, 0);
  const firstShown = total - kept + 1;
  const shown = slots.lines(firstShown, firstShown + shownCount - 1);
  return { lines: shown, first_line: shown.length ? firstShown : 0, total_lines: total, more: kept > shownCount };
}
