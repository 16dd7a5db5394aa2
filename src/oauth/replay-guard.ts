// One-time use of proxy codes (docs/spec.md stateless rule 5) and of refresh tokens (D23) on this
// replica. A value's hash is "pending" while its redemption is checked and "consumed" once tokens
// were handed out; a failed client or PKCE check (or a forge that could not answer a refresh)
// releases it so the client can retry. An entry is never dropped before its code
// expires — dropping it early would let the code be replayed — so when the cache is full new
// redemptions are refused (fail closed) until entries run out.
import { createHash } from 'node:crypto';

export type Reservation = 'reserved' | 'pending' | 'consumed' | 'full';

interface Entry {
  consumed: boolean;
  expiresAt: number;
}

export const MAX_GUARDED_CODES = 10_000;
/**
 * Refresh tokens live far longer than codes (OAUTH_REFRESH_TOKEN_TTL_SECONDS), so their entries
 * stay longer: room for this many used ones per replica (a hash and an expiry each, ~150 bytes).
 */
export const MAX_GUARDED_REFRESH_TOKENS = 200_000;

export class ReplayGuard {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = MAX_GUARDED_CODES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Marks `code` pending until `expiresAt` (epoch ms), unless it is already pending or consumed. */
  reserve(code: string, expiresAt: number): Reservation {
    const key = hash(code);
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.consumed ? 'consumed' : 'pending';
    if (entry) this.entries.delete(key);
    if (this.entries.size >= this.max) this.sweep();
    if (this.entries.size >= this.max) return 'full';
    this.entries.set(key, { consumed: false, expiresAt });
    return 'reserved';
  }

  consume(code: string): void {
    const entry = this.entries.get(hash(code));
    if (entry) entry.consumed = true;
  }

  release(code: string): void {
    const key = hash(code);
    if (this.entries.get(key)?.consumed === false) this.entries.delete(key);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

// Only hashes are kept: the cache never holds a redeemable code.
const hash = (code: string) => createHash('sha256').update(code).digest('base64url');
