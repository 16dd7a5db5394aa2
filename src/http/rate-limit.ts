// Fixed one-minute windows (DECISIONS D10): at most `limit` requests per key per window. Windows
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

  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {}

  get size(): number {
    return this.counts.size;
  }

  hit(key: string): RateDecision {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    const count = this.counts.get(key);
    if (count === undefined) {
      if (this.counts.size < this.maxKeys) this.counts.set(key, 1);
      return { allowed: true, retryAfter };
    }
    if (count >= this.limit) {
      if (count > this.limit) return { allowed: false, retryAfter };
      this.counts.set(key, count + 1);
      return { allowed: false, retryAfter, firstRefusal: true };
    }
    this.counts.set(key, count + 1);
    return { allowed: true, retryAfter };
  }
}
