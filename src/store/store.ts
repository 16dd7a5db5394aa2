// The shared state of D37 behind one small interface: single use of proxy codes and refresh
// tokens, rate-limit windows (D10), the credential check cache (D7) and Client ID Metadata
// Documents (D28). Two implementations: process memory (memory-store.ts, the default) and Redis
// or Valkey (redis-store.ts, with REDIS_URL); the composition (from-config.ts) picks one and
// nothing that uses a store knows which it got (docs/architecture.md, "shared state").
//
// Rules for every caller: a key is `<use>:<hash>` — never a code, token or credential in clear
// (storeKey below) — and every value is written with a time to live, so the store never grows
// without bound. Values are short strings (JSON for records).

export interface AddResult {
  /** Whether `amount` was added (the total stayed within the limit). */
  added: boolean;
  /** The counter after the call (unchanged when not added). */
  total: number;
}

export interface SharedStore {
  /** Stores `value` for `ttlMs` unless the key holds a value already (SET NX PX): true when stored. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  /** Stores `value` for `ttlMs`, replacing what the key held. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes the key only while it holds `value` (a reservation released by its holder). */
  deleteIfEqual(key: string, value: string): Promise<boolean>;
  /**
   * Adds `amount` to the counter at `key` unless the total would pass `limit` (then nothing is
   * added); a counter that did not exist lives `ttlMs`. One atomic step (D10's fixed windows).
   */
  addWithin(key: string, amount: number, limit: number, ttlMs: number): Promise<AddResult>;
}

/** The store could not answer (unreachable, timed out, refused): callers fail open or closed per D37. */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`the shared store is unavailable (${reason})`);
  }
}

/** A memory store at its bound refused a new key (setIfAbsent, addWithin): not an outage. */
export class StoreFullError extends Error {
  constructor() {
    super('the store is full');
  }
}

/** `<use>:<sha256 of the parts>`: what a key may hold instead of a code, token or credential. */
export function storeKey(use: string, ...parts: string[]): string {
  // Bun's one-shot SHA-256: the same digest as node:crypto's, at a quarter of its cost per key.
  return `${use}:${Bun.SHA256.hash(parts.join('\n'), 'base64url')}`;
}
