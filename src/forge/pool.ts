// The upstream pool (docs/spec.md dynamic API URL rule 6, D7): one client per forge origin
// (scheme, host, port), created on first use and reused after, so path variants of one host share
// a client. A client is the fetch options for its origin plus a last-used time and an in-flight
// count; Bun keeps the connections alive itself. Clients idle for longer than the idle timeout are
// removed by a periodic sweep; at the size limit the least recently used idle client is evicted,
// and only when every client has a request in flight is a new origin refused (the caller answers 503).
import { createEndpoint, fetchOptionsFor, type ForgeEndpoint, type ForgeEndpointOptions } from './endpoint';
import { originOf } from './url-parts';

/** Endpoints (one per API URL path) remembered per origin; more are built on demand, not kept. */
const MAX_PATHS_PER_ORIGIN = 16;
/** API URLs whose origin is remembered; past this the memo starts over (it is only a cache). */
const MAX_REMEMBERED_URLS = 4096;

interface PoolEntry {
  fetchOptions: Readonly<Record<string, unknown>>;
  /** Endpoint objects of this origin's API URLs, so a URL gets the same one each time. */
  endpoints: Map<string, ForgeEndpoint>;
  lastUsed: number;
  inFlight: number;
}

interface PoolLease {
  readonly endpoint: ForgeEndpoint;
  release(): void;
}

interface PoolLimits {
  maxSize: number;
  idleTimeoutMs: number;
  now?: () => number;
  /** Told the origin (`scheme://host[:port]`) of each client removed. */
  onEvict?: (origin: string, reason: 'lru' | 'idle') => void;
}

/** A request in flight on one origin's client; releasing it twice counts once. */
class Lease implements PoolLease {
  private released = false;

  constructor(
    readonly endpoint: ForgeEndpoint,
    private readonly entry: PoolEntry,
    private readonly now: () => number,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.entry.inFlight--;
    this.entry.lastUsed = this.now();
  }
}

export class ForgePool {
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, PoolEntry>();
  // apiUrl → its origin, so the hot path looks entries up with the same origin string each time
  // (a fresh slice per request would be hashed again on every lookup).
  private readonly origins = new Map<string, string>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly options: ForgeEndpointOptions,
    private readonly limits: PoolLimits = { maxSize: Number.MAX_SAFE_INTEGER, idleTimeoutMs: Number.MAX_SAFE_INTEGER },
  ) {
    this.now = limits.now ?? Date.now;
  }

  /** Number of clients, one per origin. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether a client for the origin of `apiUrl` exists. */
  has(apiUrl: string): boolean {
    return this.entries.has(this.originKey(apiUrl));
  }

  /** Marks a request in flight on the client for the origin of `apiUrl`; undefined when the pool is full of busy clients. */
  lease(apiUrl: string): PoolLease | undefined {
    const entry = this.touch(this.originKey(apiUrl), apiUrl);
    if (!entry) return undefined;
    entry.inFlight++;
    return new Lease(this.endpointIn(entry, apiUrl), entry, this.now);
  }

  /** The endpoint for `apiUrl`, its origin's client created if needed (callers normally hold a lease for it). */
  endpoint(apiUrl: string): ForgeEndpoint {
    const entry = this.touch(this.originKey(apiUrl), apiUrl);
    return entry ? this.endpointIn(entry, apiUrl) : createEndpoint(apiUrl, this.options);
  }

  /** Removes clients idle for longer than the idle timeout; returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.limits.idleTimeoutMs;
    let removed = 0;
    for (const [origin, entry] of this.entries) {
      if (entry.inFlight === 0 && entry.lastUsed < cutoff) {
        this.entries.delete(origin);
        this.limits.onEvict?.(origin, 'idle');
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

  private originKey(apiUrl: string): string {
    let origin = this.origins.get(apiUrl);
    if (origin === undefined) {
      if (this.origins.size >= MAX_REMEMBERED_URLS) this.origins.clear();
      origin = originOf(apiUrl);
      this.origins.set(apiUrl, origin);
    }
    return origin;
  }

  private endpointIn(entry: PoolEntry, apiUrl: string): ForgeEndpoint {
    let endpoint = entry.endpoints.get(apiUrl);
    if (!endpoint) {
      endpoint = createEndpoint(apiUrl, this.options, entry.fetchOptions);
      // A caller may name many path variants of one host: remember a few, build the rest on demand.
      if (entry.endpoints.size >= MAX_PATHS_PER_ORIGIN) entry.endpoints.delete(entry.endpoints.keys().next().value!);
      entry.endpoints.set(apiUrl, endpoint);
    }
    return endpoint;
  }

  private touch(origin: string, apiUrl: string): PoolEntry | undefined {
    const now = this.now();
    let entry = this.entries.get(origin);
    if (entry) {
      this.entries.delete(origin);
      this.entries.set(origin, entry);
      entry.lastUsed = now;
      return entry;
    }
    if (this.entries.size >= this.limits.maxSize && !this.evictLeastRecentlyUsedIdle()) return undefined;
    entry = { fetchOptions: fetchOptionsFor(apiUrl, this.options), endpoints: new Map(), lastUsed: now, inFlight: 0 };
    this.entries.set(origin, entry);
    return entry;
  }

  private evictLeastRecentlyUsedIdle(): boolean {
    for (const [origin, entry] of this.entries) {
      if (entry.inFlight === 0) {
        this.entries.delete(origin);
        this.limits.onEvict?.(origin, 'lru');
        return true;
      }
    }
    return false;
  }
}
