// Fixed one-minute windows (D10): at most `limit` JSON-RPC messages per key per window. Windows
// are aligned to the clock minute, the same on every replica. By default the counters are a map
// of this process, dropped when the window ends and counted synchronously (the limiter is on
// every request's path, where a store's asynchronous interface would cost more than the
// counting); at most `maxKeys` keys are held, and keys beyond that are not limited in that window
// rather than refused, so a flood of forged addresses cannot lock out real clients. Given the
// store replicas share (D37), each window's counter is an entry of it that expires with the
// window, which makes the limit global; keys sent there are hashed, so a session id or address
// never sits in it in clear. A store that cannot answer lets the request through (D37: rate
// limits fail open; the store says so in the log).
//
// With a shared store a replica may take its units in chunks (`chunk`, a fiftieth of the limit):
// a busy key then costs a store round trip per chunk instead of per message. Units taken but not
// used by the window's end still count, so a key may be refused up to `chunk` units early per
// replica, never let past the limit. A chunk of 1 (the default) is exact.
import { storeKey, type SharedStore } from '../store/store';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
  /** The first refusal of this key in this window here: log once, not once per refused request. */
  firstRefusal?: boolean;
}

interface SharedWindows {
  store: SharedStore;
  /** What is limited ("ip", "session", …): part of every key, so limiters sharing a store stay apart. */
  scope: string;
  /** Units taken from the store at once (default 1: every message asks the store). */
  chunk?: number;
}

export class FixedWindowLimiter {
  /** The shared store, or undefined when counting in this process's memory. */
  private readonly store: SharedStore | undefined;
  private readonly scope: string;
  private window = -1;
  /** In memory: key → units used in this window, at most maxKeys keys; dropped with the window. */
  private counts = new Map<string, number>();
  /** Keys refused in this window (logged once), at most maxKeys of them; dropped with the window. */
  private refused = new Set<string>();
  /** key → units this replica took from the store in this window and has not used yet (chunk > 1). */
  private allowance = new Map<string, number>();
  /** key → its store key in this window: hashed once per key and window, not once per message. */
  private hashed = new Map<string, string>();
  private readonly chunk: number;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
    shared?: SharedWindows,
  ) {
    this.store = shared?.store;
    this.scope = shared?.scope ?? 'rl';
    this.chunk = this.store ? Math.max(1, Math.floor(shared?.chunk ?? 1)) : 1;
  }

  /** Counters held, when they are held in this process's memory (0 otherwise). */
  get size(): number {
    return this.store ? 0 : this.counts.size;
  }

  /**
   * Counts `count` units of work for `key` (D10: each JSON-RPC message of a batch is one). Work that
   * would pass the limit is refused whole and not counted, so a smaller request may still fit.
   * In memory the decision is made at once; with a shared store it is a promise.
   */
  hit(key: string, count = 1): RateDecision | Promise<RateDecision> {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
      this.refused = new Set();
      this.allowance = new Map();
      this.hashed = new Map();
    }
    const windowEnd = (window + 1) * this.windowMs;
    const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    if (!this.store) return this.countHere(key, count, retryAfter);
    return this.countShared(this.store, key, count, window, windowEnd - now, retryAfter);
  }

  private countHere(key: string, count: number, retryAfter: number): RateDecision {
    const used = this.counts.get(key);
    // Past maxKeys a new key is not limited in this window (a flood of addresses cannot lock others out).
    if (used === undefined && this.counts.size >= this.maxKeys) return { allowed: true, retryAfter };
    const total = (used ?? 0) + count;
    if (total <= this.limit) {
      this.counts.set(key, total);
      return { allowed: true, retryAfter };
    }
    return this.refuse(key, retryAfter);
  }

  private async countShared(store: SharedStore, key: string, count: number, window: number, ttlMs: number, retryAfter: number): Promise<RateDecision> {
    const left = this.allowance.get(key) ?? 0;
    if (left >= count) {
      this.allowance.set(key, left - count);
      return { allowed: true, retryAfter };
    }
    let hashed = this.hashed.get(key);
    if (hashed === undefined) {
      hashed = storeKey(`${this.scope}:${window}`, key);
      if (this.hashed.size < this.maxKeys) this.hashed.set(key, hashed);
    }
    const need = count - left;
    let added: boolean;
    try {
      const want = Math.max(need, this.chunk);
      added = (await store.addWithin(hashed, want, this.limit, ttlMs)).added;
      if (added && want > need) this.keep(key, want - need);
      else if (!added && want > need) {
        added = (await store.addWithin(hashed, need, this.limit, ttlMs)).added; // near the limit: exactly
        if (added) this.allowance.delete(key);
      } else if (added) this.allowance.delete(key);
    } catch {
      return { allowed: true, retryAfter }; // unavailable: fail open
    }
    if (added) return { allowed: true, retryAfter };
    return this.refuse(hashed, retryAfter);
  }

  /** A refusal; the first of a key in this window says so, for one log line. */
  private refuse(key: string, retryAfter: number): RateDecision {
    if (this.refused.has(key) || this.refused.size >= this.maxKeys) return { allowed: false, retryAfter };
    this.refused.add(key);
    return { allowed: false, retryAfter, firstRefusal: true };
  }

  /** Units taken in advance for `key`; at most maxKeys keys keep any (the rest ask each time). */
  private keep(key: string, units: number): void {
    if (this.allowance.size >= this.maxKeys && !this.allowance.has(key)) return;
    this.allowance.set(key, units);
  }
}
