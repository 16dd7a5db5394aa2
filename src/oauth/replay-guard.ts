// One-time use of proxy codes (docs/spec.md stateless rule 5) and of refresh tokens (D23): on this
// replica, or on every replica when they share a store (D37). A value's hash is "pending" while its
// redemption is checked and "consumed" once tokens were handed out; a failed client or PKCE check
// (or a forge that could not answer a refresh) releases it so the client can retry. An entry lives
// until the value itself expires — dropping it early would let the value be replayed — so a full
// memory store refuses new redemptions (fail closed) until entries run out, and so does a shared
// store that cannot answer (D37: 'unavailable', the endpoint answers 503).
import { randomBytes } from 'node:crypto';
import { MemoryStore } from '../store/memory-store';
import { StoreFullError, storeKey, type SharedStore } from '../store/store';

type Reservation = 'reserved' | 'pending' | 'consumed' | 'full' | 'unavailable';

export const MAX_GUARDED_CODES = 10_000;
/**
 * Refresh tokens live far longer than codes (OAUTH_REFRESH_TOKEN_TTL_SECONDS), so their entries
 * stay longer: room for this many used ones per replica (a hash and an expiry each, ~150 bytes).
 */
export const MAX_GUARDED_REFRESH_TOKENS = 200_000;

const CONSUMED = 'consumed';
/** Reservations in progress on this replica at once (each settles within one /token request). */
const MAX_HELD = 10_000;

export class ReplayGuard {
  private readonly store: SharedStore;
  /** key → the marker this replica wrote when it reserved it (only its holder releases it). */
  private readonly held = new Map<string, { marker: string; expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    max = MAX_GUARDED_CODES,
    /** The shared store, and what is guarded ("code", "refresh"): part of every key. */
    shared?: { store: SharedStore; use: string },
  ) {
    this.store = shared?.store ?? new MemoryStore({ maxEntries: max, now });
    this.use = shared?.use ?? 'once';
  }

  private readonly use: string;

  /** Entries held, when they are held in this process's memory (0 otherwise). */
  get size(): number {
    return this.store instanceof MemoryStore ? this.store.size : 0;
  }

  /** Marks `value` pending until `expiresAt` (epoch ms), unless it is already pending or consumed. */
  async reserve(value: string, expiresAt: number): Promise<Reservation> {
    const key = storeKey(this.use, value);
    const ttlMs = expiresAt - this.now();
    if (ttlMs <= 0) return 'consumed'; // expired: nothing may be redeemed (the caller checked expiry already)
    // A marker of our own: after a timeout the store may still write it, and only this marker
    // may later be deleted by release (never someone else's pending or consumed entry).
    const marker = `pending:${randomBytes(9).toString('base64url')}`;
    try {
      if (await this.store.setIfAbsent(key, marker, ttlMs)) {
        this.hold(key, marker, expiresAt);
        return 'reserved';
      }
      const current = await this.store.get(key);
      if (current === undefined) return 'pending'; // it expired just now: the value is useless anyway
      return current === CONSUMED ? 'consumed' : 'pending';
    } catch (error) {
      if (error instanceof StoreFullError) return 'full';
      // The reservation may still land after a timeout: remove it then, so the code stays usable.
      void this.store.deleteIfEqual(key, marker).catch(() => {});
      return 'unavailable';
    }
  }

  /** Tokens were handed out for `value`: it stays consumed until it expires. */
  async consume(value: string): Promise<void> {
    const key = storeKey(this.use, value);
    const entry = this.held.get(key);
    this.held.delete(key);
    if (!entry) return;
    // Should this write fail, the entry stays pending until it expires: still refused (fail closed).
    await this.store.set(key, CONSUMED, entry.expiresAt - this.now()).catch(() => {});
  }

  /** The check failed: the rightful client may redeem `value` again. A consumed entry is never released. */
  async release(value: string): Promise<void> {
    const key = storeKey(this.use, value);
    const entry = this.held.get(key);
    this.held.delete(key);
    if (!entry) return;
    await this.store.deleteIfEqual(key, entry.marker).catch(() => {});
  }

  /** Remembers a reservation until consumed or released; one never settled is forgotten when it expires. */
  private hold(key: string, marker: string, expiresAt: number): void {
    if (this.held.size >= MAX_HELD) {
      const now = this.now();
      for (const [k, entry] of this.held) if (entry.expiresAt <= now) this.held.delete(k);
      if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    }
    this.held.set(key, { marker, expiresAt });
  }
}
