// Fixed one-minute windows (D10): at most `limit` JSON-RPC messages per key per window. Windows
// are aligned to the clock minute, so when a new window starts every old counter is dropped at
// once — memory never holds more than the keys seen in one minute, and at most `maxKeys` of them
// (keys beyond that are not limited in that window rather than refused, so a flood of forged
// addresses cannot lock out real clients).

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
  /** The first refusal of this key in this window: log once, not once per refused request. */
  firstRefusal?: boolean;
}

export class FixedWindowLimiter {
  private window = -1;
  private counts = new Map<string, number>();
  /** Keys refused in this window (logged once); a subset of `counts`, dropped with it. */
  private refused = new Set<string>();

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  /**
   * Counts `count` units of work for `key` (D10: each JSON-RPC message of a batch is one). Work that
   * would pass the limit is refused whole and not counted, so a smaller request may still fit.
   */
  hit(key: string, count = 1): RateDecision {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
      this.refused = new Set();
    }
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    const used = this.counts.get(key);
    if (used === undefined && this.counts.size >= this.maxKeys) return { allowed: true, retryAfter };
    const total = (used ?? 0) + count;
    if (total <= this.limit) {
      this.counts.set(key, total);
      return { allowed: true, retryAfter };
    }
    if (used === undefined) this.counts.set(key, 0);
    if (this.refused.has(key)) return { allowed: false, retryAfter };
    this.refused.add(key);
    return { allowed: false, retryAfter, firstRefusal: true };
  }
}
