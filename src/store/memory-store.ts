// The store of D37 in process memory: the default, and the one each replica keeps when no
// REDIS_URL is set. One instance per use (from-config.ts), each with its own bound, so a flood of
// one kind never pushes out another kind's entries.
//
// Entries leave when they expire: those at the front (the oldest writes) as soon as anything is
// written, the rest when read, or by a full sweep when the store is at its bound (at most once a
// second, so a flood at the bound cannot make every write walk the whole map). At the bound a new
// key is refused by setIfAbsent and addWithin (StoreFullError: single use then fails closed, a
// limiter lets the key through), while set, a cache's write, makes room by dropping the oldest entry.
import { StoreFullError, type AddResult, type SharedStore } from './store';

interface Entry {
  value: string;
  expiresAt: number;
}

interface MemoryStoreOptions {
  maxEntries: number;
  now?: () => number;
}

const FULL_SWEEP_EVERY_MS = 1000;

export class MemoryStore implements SharedStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private lastFullSweep = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryStoreOptions) {
    this.maxEntries = options.maxEntries;
    this.now = options.now ?? Date.now;
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  /** The keys held (tests look at their shape). */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    if (this.live(key, now)) return false;
    this.admit(now, true);
    this.entries.set(key, { value, expiresAt: now + ttlMs });
    return true;
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(key, this.now())?.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const now = this.now();
    this.entries.delete(key); // written again: it moves to the back (the newest)
    if (ttlMs <= 0) return;
    this.admit(now, false);
    this.entries.set(key, { value, expiresAt: now + ttlMs });
  }

  async deleteIfEqual(key: string, value: string): Promise<boolean> {
    const entry = this.live(key, this.now());
    if (!entry || entry.value !== value) return false;
    this.entries.delete(key);
    return true;
  }

  async addWithin(key: string, amount: number, limit: number, ttlMs: number): Promise<AddResult> {
    const now = this.now();
    const entry = this.live(key, now);
    const used = entry ? Number(entry.value) : 0;
    if (used + amount > limit) return { added: false, total: used };
    if (entry) entry.value = String(used + amount);
    else {
      this.admit(now, true);
      this.entries.set(key, { value: String(amount), expiresAt: now + ttlMs });
    }
    return { added: true, total: used + amount };
  }

  /** The entry of `key` unless it has expired (then it is dropped). */
  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry;
    this.entries.delete(key);
    return undefined;
  }

  /** Makes room for one new key, or throws StoreFullError when `refuse` and there is none. */
  private admit(now: number, refuse: boolean): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
    if (this.entries.size < this.maxEntries) return;
    if (now - this.lastFullSweep >= FULL_SWEEP_EVERY_MS) {
      this.lastFullSweep = now;
      for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    }
    if (this.entries.size < this.maxEntries) return;
    if (refuse) throw new StoreFullError();
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
