// The upstream pool (SPEC dynamic API URL rule 6, DECISIONS D7): one client per normalized API
// URL, created on first use and reused after. A client is the fetch options for its origin; Bun
// keeps the connections alive itself. Clients idle for longer than the idle timeout are removed by
// a periodic sweep; at the size limit the least recently used idle client is evicted, and only when
// every client has a request in flight is a new URL refused (the caller answers 503).
import { createEndpoint, type ForgeEndpoint, type ForgeEndpointOptions } from './endpoint';

interface PoolEntry {
  endpoint: ForgeEndpoint;
  lastUsed: number;
  inFlight: number;
}

export interface PoolLease {
  readonly endpoint: ForgeEndpoint;
  release(): void;
}

export interface PoolLimits {
  maxSize: number;
  idleTimeoutMs: number;
  now?: () => number;
  onEvict?: (apiUrl: string, reason: 'lru' | 'idle') => void;
}

export class ForgePool {
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, PoolEntry>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly options: ForgeEndpointOptions,
    private readonly limits: PoolLimits = { maxSize: Number.MAX_SAFE_INTEGER, idleTimeoutMs: Number.MAX_SAFE_INTEGER },
  ) {
    this.now = limits.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  has(apiUrl: string): boolean {
    return this.entries.has(apiUrl);
  }

  /** Marks a request in flight on the client for `apiUrl`; undefined when the pool is full of busy clients. */
  lease(apiUrl: string): PoolLease | undefined {
    const entry = this.touch(apiUrl);
    if (!entry) return undefined;
    entry.inFlight++;
    let released = false;
    return {
      endpoint: entry.endpoint,
      release: () => {
        if (released) return;
        released = true;
        entry.inFlight--;
        entry.lastUsed = this.now();
      },
    };
  }

  /** The client for `apiUrl`, created if needed (callers normally hold a lease for it). */
  endpoint(apiUrl: string): ForgeEndpoint {
    return (this.touch(apiUrl) ?? { endpoint: createEndpoint(apiUrl, this.options) }).endpoint;
  }

  /** Removes clients idle for longer than the idle timeout; returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.limits.idleTimeoutMs;
    let removed = 0;
    for (const [url, entry] of this.entries) {
      if (entry.inFlight === 0 && entry.lastUsed < cutoff) {
        this.entries.delete(url);
        this.limits.onEvict?.(url, 'idle');
        removed++;
      }
    }
    return removed;
  }

  startSweeping(intervalMs: number): void {
    this.sweeper ??= setInterval(() => this.sweep(), intervalMs);
    this.sweeper.unref?.();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private touch(apiUrl: string): PoolEntry | undefined {
    const now = this.now();
    let entry = this.entries.get(apiUrl);
    if (entry) {
      this.entries.delete(apiUrl);
      this.entries.set(apiUrl, entry);
      entry.lastUsed = now;
      return entry;
    }
    if (this.entries.size >= this.limits.maxSize && !this.evictLeastRecentlyUsedIdle()) return undefined;
    entry = { endpoint: createEndpoint(apiUrl, this.options), lastUsed: now, inFlight: 0 };
    this.entries.set(apiUrl, entry);
    return entry;
  }

  private evictLeastRecentlyUsedIdle(): boolean {
    for (const [url, entry] of this.entries) {
      if (entry.inFlight === 0) {
        this.entries.delete(url);
        this.limits.onEvict?.(url, 'lru');
        return true;
      }
    }
    return false;
  }
}
