// The memory all job-log reads of the process may hold together (JOB_LOG_MEMORY_BYTES, D30): each
// read reserves what it can hold (its window's line slots, log-lines.ts, and an allowance for the
// chunks the runtime's fetch keeps in flight) before it asks the forge; a read that does not fit
// waits, first come first served, until earlier reads end, and fails with `timeout` naming the
// setting once it has waited FORGE_REQUEST_TIMEOUT_MS. A read larger than the whole budget, and
// one that finds the queue full, fail at once with `upstream`. Without it, N concurrent tails hold
// N windows and N streams' buffers however many N is (issue 32).
import { ToolError } from '../../forge/errors';
import { PAGE_BYTES, type PageSource } from './log-lines';

/**
 * Bytes a streamed read is counted for besides its own slots: the runtime's fetch hands over chunks
 * of up to 512 KiB and frees them at the collector's pace (measured: eight concurrent streams that
 * keep nothing grew the process by about 6 MB each, bench/README.md).
 */
export const STREAM_ALLOWANCE = 4 * 1024 * 1024;

/** Reads waiting at most; past it a read is refused at once (the queue is memory too). */
const MAX_WAITING = 1_000;

interface Waiter {
  bytes: number;
  grant: () => void;
}

export class LogBudget {
  private held = 0;
  private readonly waiting: Waiter[] = [];
  private readonly free: Uint8Array[] = [];

  /**
   * The line pages of the reads (log-lines.ts), kept for the next reads once given back: the
   * reads running hold at most `limit` bytes of pages, so the pages kept never pass it either,
   * and reads leave no garbage behind for the collector to be late with.
   */
  readonly pages: PageSource = {
    take: () => this.free.pop() ?? new Uint8Array(PAGE_BYTES),
    give: (pages) => {
      for (const page of pages) if ((this.free.length + 1) * PAGE_BYTES <= this.limit) this.free.push(page);
    },
  };

  constructor(
    /** JOB_LOG_MEMORY_BYTES. */
    readonly limit: number,
    /** Longest wait for room, in milliseconds (FORGE_REQUEST_TIMEOUT_MS). */
    private readonly maxWaitMs: number,
  ) {}

  /** Bytes reserved by the reads running now. */
  get inUse(): number {
    return this.held;
  }

  /** Runs `read` once `bytes` are reserved for it, and gives them back when it ends. */
  async run<T>(bytes: number, read: () => Promise<T>): Promise<T> {
    await this.acquire(bytes);
    try {
      return await read();
    } finally {
      this.release(bytes);
    }
  }

  private acquire(bytes: number): Promise<void> {
    if (bytes > this.limit) {
      return Promise.reject(
        new ToolError(
          'upstream',
          `this read would hold ${bytes} bytes, more than JOB_LOG_MEMORY_BYTES (${this.limit} bytes) allows all job-log reads together; ask for fewer lines or a smaller offset`,
        ),
      );
    }
    if (this.waiting.length === 0 && this.held + bytes <= this.limit) {
      this.held += bytes;
      return Promise.resolve();
    }
    if (this.waiting.length >= MAX_WAITING) {
      return Promise.reject(
        new ToolError(
          'upstream',
          `job-log reads in progress hold JOB_LOG_MEMORY_BYTES (${this.limit} bytes) and ${MAX_WAITING} more are waiting; try again shortly`,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(
          new ToolError(
            'timeout',
            `job-log reads in progress held JOB_LOG_MEMORY_BYTES (${this.limit} bytes) for the ${this.maxWaitMs} ms this read waited; try again shortly`,
          ),
        );
        this.admit(); // the head of the queue may have been the one that did not fit
      }, this.maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  private release(bytes: number): void {
    this.held -= bytes;
    this.admit();
  }

  /** Admits waiting reads in order while the first one fits. */
  private admit(): void {
    while (this.waiting.length > 0 && this.held + this.waiting[0].bytes <= this.limit) {
      const next = this.waiting.shift()!;
      this.held += next.bytes;
      next.grant();
    }
  }
}
