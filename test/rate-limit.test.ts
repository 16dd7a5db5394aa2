// Fixed windows counted in this process (D10; src/web/rate-limit.ts without a shared store): what
// a client sends to be counted is its address or credential (the key) and the number of messages
// of its batch; neither may get it past the limit, lock others out, or grow memory without bound.
import { describe, expect, test } from 'bun:test';
import { FixedWindowLimiter } from '../src/web/rate-limit';

const decide = (limiter: FixedWindowLimiter, key: string, count = 1) =>
  limiter.hit(key, count) as { allowed: boolean; firstRefusal?: boolean; retryAfter: number };

describe('in memory', () => {
  test('decides at once, without a promise', () => {
    expect(new FixedWindowLimiter(5).hit('10.0.0.1')).not.toBeInstanceOf(Promise);
  });

  test('the limit holds exactly; the first refusal of a key in a window says so, the next do not', () => {
    const limiter = new FixedWindowLimiter(3, () => 0);
    expect([1, 2, 3].map(() => decide(limiter, 'k').allowed)).toEqual([true, true, true]);
    expect(decide(limiter, 'k')).toEqual({ allowed: false, retryAfter: 60, firstRefusal: true });
    expect(decide(limiter, 'k')).toEqual({ allowed: false, retryAfter: 60 });
    expect(decide(limiter, 'other').allowed).toBe(true);
  });

  test.each([
    ['one message more than the limit', 4],
    ['a huge batch', 1_000_000],
  ])('a batch of %s is refused whole and not counted, so a smaller one still fits', (_, count) => {
    const limiter = new FixedWindowLimiter(3, () => 0);
    expect(decide(limiter, 'k', count).allowed).toBe(false);
    expect(decide(limiter, 'k', 3).allowed).toBe(true);
    expect(decide(limiter, 'k').allowed).toBe(false);
  });

  test.each([
    ['empty', ''],
    ['dots', '../..'],
    ['huge', 'x'.repeat(100_000)],
    ['not an address', 'undefined'],
  ])('a key that is %s is just a key: limited like any other', (_, key) => {
    const limiter = new FixedWindowLimiter(2, () => 0);
    expect([1, 2, 3].map(() => decide(limiter, key).allowed)).toEqual([true, true, false]);
    expect(decide(limiter, `${key}-another`).allowed).toBe(true);
  });

  test('a flood of new keys fills at most maxKeys; past it, new keys are let through rather than locking anyone out', () => {
    const limiter = new FixedWindowLimiter(1, () => 0, 60_000, 100);
    for (let i = 0; i < 100; i++) expect(decide(limiter, `flood-${i}`).allowed).toBe(true);
    expect(decide(limiter, 'flood-0').allowed).toBe(false); // held keys stay limited
    for (let i = 0; i < 10; i++) expect(decide(limiter, 'newcomer').allowed).toBe(true);
    expect(limiter.size).toBe(100);
  });

  test('the window ends at the clock minute: counts and refusals start afresh, Retry-After counts down to it', () => {
    let now = 30_000;
    const limiter = new FixedWindowLimiter(1, () => now);
    decide(limiter, 'k');
    expect(decide(limiter, 'k')).toMatchObject({ allowed: false, retryAfter: 30, firstRefusal: true });
    now = 60_000;
    expect(decide(limiter, 'k').allowed).toBe(true);
    expect(decide(limiter, 'k')).toMatchObject({ allowed: false, retryAfter: 60, firstRefusal: true });
    expect(limiter.size).toBe(1);
  });
});
