// Fixed one-minute windows (D10): at most `limit` JSON-RPC messages per key per window. Windows
// are aligned to the clock minute, the same on every replica, and each window's counter is a
// store entry that expires when the window ends (store/store.ts): in process memory by default,
// where at most `maxKeys` keys are held (keys beyond that are not limited in that window rather
// than refused, so a flood of forged addresses cannot lock out real clients), or in the store
// replicas share (D37), which makes the limit global. Keys are hashed: a session id or address
// never sits in a store in clear. A store that cannot answer lets the request through (D37: rate
// limits fail open; the store says so in the log).
//
// With a shared store a replica may take its units in chunks (`chunk`, a fiftieth of the limit):
// a busy key then costs a store round trip per chunk instead of per message. Units taken but not
// used by the window's end still count, so a key may be refused up to `chunk` units early per
// replica, never let past the limit. A chunk of 1 (the default, and always in memory) is exact.
import { MemoryStore } from '../store/memory-store';
import { storeKey, type SharedStore } from '../store/store';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
  /** The first refusal of this key in this window here: log once, not once per refused request. */
  firstRefusal?: boolean;
}

export interface SharedWindows {
  store: SharedStore;
  /** What is limited ("ip", "session", …): part of every key, so limiters sharing a store stay apart. */
  scope: string;
  /** Units taken from the store at once (default 1: every message asks the store). */
  chunk?: number;
}

export class FixedWindowLimiter {
  private readonly store: SharedStore;
  private readonly scope: string;
  private window = -1;
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
    this.store = shared?.store ?? new MemoryStore({ maxEntries: maxKeys, now });
    this.scope = shared?.scope ?? 'rl';
    this.chunk = Math.max(1, Math.floor(shared?.chunk ?? 1));
  }

  /** Counters held, when they are held in this process's memory (0 otherwise). */
  get size(): number {
    return this.store instanceof MemoryStore ? this.store.size : 0;
  }

  /**
   * Counts `count` units of work for `key` (D10: each JSON-RPC message of a batch is one). Work that
   * would pass the limit is refused whole and not counted, so a smaller request may still fit.
   */
  async hit(key: string, count = 1): Promise<RateDecision> {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.refused = new Set();
      this.allowance = new Map();
      this.hashed = new Map();
    }
    const windowEnd = (window + 1) * this.windowMs;
    const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
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
      added = (await this.store.addWithin(hashed, want, this.limit, windowEnd - now)).added;
      if (added && want > need) this.keep(key, want - need);
      else if (!added && want > need) {
        added = (await this.store.addWithin(hashed, need, this.limit, windowEnd - now)).added; // near the limit: exactly
        if (added) this.allowance.delete(key);
      } else if (added) this.allowance.delete(key);
    } catch {
      return { allowed: true, retryAfter }; // full (memory) or unavailable (shared): fail open
    }
    if (added) return { allowed: true, retryAfter };
    if (this.refused.has(hashed) || this.refused.size >= this.maxKeys) return { allowed: false, retryAfter };
    this.refused.add(hashed);
    return { allowed: false, retryAfter, firstRefusal: true };
  }

  /** Units taken in advance for `key`; at most maxKeys keys keep any (the rest ask each time). */
  private keep(key: string, units: number): void {
    if (this.allowance.size >= this.maxKeys && !this.allowance.has(key)) return;
    this.allowance.set(key, units);
  }
}
