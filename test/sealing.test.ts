// The sealing codec: round trips, tampering anywhere, wrong kind, truncation, bad base64,
// oversized input, expiry, values from the future, and secret rotation.
import { describe, expect, test } from 'bun:test';
import { SEALED_KINDS, type SealedKind } from '../src/sealing/kinds';
import { Sealer } from '../src/sealing/sealer';

const secret = (fill: number) => Buffer.alloc(32, fill).toString('base64url');
const TTL = { cid: 86400, ps: 600, pc: 120, sid: 3600, dl: 900, at: 3600, rt: 2592000, ra: 60, cf: 300 };
const KINDS = Object.keys(SEALED_KINDS) as SealedKind[];
let nowMs = 1_700_000_000_000;
const sealer = (current = secret(1), previous?: string) => Sealer.create({ secret: current, previousSecret: previous, ttlSeconds: TTL, now: () => nowMs });

describe('round trip', () => {
  test.each(KINDS)('%s seals and opens, with the wire prefix', async (kind) => {
    const s = await sealer();
    const value = await s.seal(kind, { token: 'glpat-secret-token-value', n: 1 });
    expect(value).toStartWith(`v1.${kind}.`);
    expect(value).toMatch(/^[\x21-\x7e]+$/); // visible ASCII: usable as an Mcp-Session-Id
    const opened = await s.open(kind, value);
    expect(opened).toEqual({ ok: true, payload: { token: 'glpat-secret-token-value', n: 1, iat: Math.floor(nowMs / 1000) } });
  });

  test('AEAD kinds hide their payload; the HMAC kind is only signed', async () => {
    const s = await sealer();
    for (const kind of ['ps', 'pc', 'sid'] as const) {
      const value = await s.seal(kind, { token: 'glpat-secret-token-value' });
      expect(Buffer.from(value.split('.')[2], 'base64url').toString('latin1')).not.toContain('glpat');
    }
    const cid = await s.seal('cid', { client_name: 'Cursor' });
    expect(Buffer.from(cid.split('.')[2], 'base64url').toString()).toContain('Cursor');
  });

  test('two seals of the same payload differ (random IV)', async () => {
    const s = await sealer();
    expect(await s.seal('sid', { a: 1 })).not.toBe(await s.seal('sid', { a: 1 }));
  });
});

describe('refusals', () => {
  test.each(KINDS)('%s: flipping any character of the body is refused', async (kind) => {
    const s = await sealer();
    const value = await s.seal(kind, { token: 'glpat-secret-token-value', url: 'https://gitlab.example.com/api/v4' });
    const prefixLength = `v1.${kind}.`.length;
    for (let i = prefixLength; i < value.length; i++) {
      if (value[i] === '.') continue;
      const swapped = value[i] === 'A' ? 'B' : 'A';
      const tampered = value.slice(0, i) + swapped + value.slice(i + 1);
      const opened = await s.open(kind, tampered);
      expect(opened.ok).toBe(false);
    }
  });

  test('a value of one kind never opens as another, even with the prefix rewritten', async () => {
    const s = await sealer();
    for (const from of KINDS) {
      const value = await s.seal(from, { x: 1 });
      for (const to of KINDS) {
        if (to === from) continue;
        expect((await s.open(to, value)).ok).toBe(false);
        expect((await s.open(to, value.replace(`v1.${from}.`, `v1.${to}.`))).ok).toBe(false);
      }
    }
  });

  test.each([
    ['empty', ''],
    ['prefix only', 'v1.sid.'],
    ['other version', 'v2.sid.AAAA'],
    ['not base64url', 'v1.sid.!!!!$$$$'],
    ['too short for IV and tag', 'v1.sid.AAAAAAAA'],
    ['a UUID', '587f9173-ea7d-47c7-9ee2-cec3257ce1e0'],
    ['oversized', `v1.sid.${'A'.repeat(20_000)}`],
  ])('%s → refused', async (_, value) => {
    const s = await sealer();
    const opened = await s.open('sid', value);
    expect(opened.ok).toBe(false);
  });

  test('truncated values are refused', async () => {
    const s = await sealer();
    const sid = await s.seal('sid', { a: 1 });
    const cid = await s.seal('cid', { a: 1 });
    for (const cut of [1, 5, 16, 30]) {
      expect((await s.open('sid', sid.slice(0, -cut))).ok).toBe(false);
      expect((await s.open('cid', cid.slice(0, -cut))).ok).toBe(false);
    }
  });

  test.each(KINDS)('%s expires after its TTL', async (kind) => {
    const s = await sealer();
    const value = await s.seal(kind, { a: 1 });
    nowMs += TTL[kind] * 1000;
    expect((await s.open(kind, value)).ok).toBe(true);
    nowMs += 1000;
    expect(await s.open(kind, value)).toEqual({ ok: false, reason: 'expired' });
  });

  test('anyAge: a value past its TTL still opens, under the current or the previous secret; tampered, foreign or future ones do not', async () => {
    const s = await sealer(secret(2), secret(1));
    const value = await s.seal('cid', { r: ['https://client.example/cb'] });
    const previous = await (await sealer(secret(1))).seal('cid', { r: ['https://client.example/cb'] });
    const foreign = await (await sealer(secret(3))).seal('cid', { r: ['https://client.example/cb'] });
    nowMs += 365 * 86_400_000;
    expect(await s.open('cid', value)).toEqual({ ok: false, reason: 'expired' });
    expect((await s.open('cid', value, { anyAge: true })).ok).toBe(true);
    expect((await s.open('cid', previous, { anyAge: true })).ok).toBe(true);
    expect(await s.open('cid', foreign, { anyAge: true })).toEqual({ ok: false, reason: 'invalid' });
    const dot = value.lastIndexOf('.');
    const tampered = `${value.slice(0, dot + 1)}${value[dot + 1] === 'A' ? 'B' : 'A'}${value.slice(dot + 2)}`;
    expect(await s.open('cid', tampered, { anyAge: true })).toEqual({ ok: false, reason: 'invalid' });
    nowMs += 120_000;
    const future = await s.seal('cid', { r: ['https://client.example/cb'] });
    nowMs -= 120_000;
    expect(await s.open('cid', future, { anyAge: true })).toEqual({ ok: false, reason: 'future' });
  });

  test('values from the future beyond the skew are refused', async () => {
    const s = await sealer();
    nowMs += 120_000;
    const value = await s.seal('sid', { a: 1 });
    nowMs -= 120_000;
    expect(await s.open('sid', value)).toEqual({ ok: false, reason: 'future' });
    nowMs += 90_000; // 30 s ahead: within the skew
    expect((await s.open('sid', value)).ok).toBe(true);
  });
});

describe('rotation', () => {
  test('values sealed under the previous secret still open; new ones use the current secret', async () => {
    const old = await sealer(secret(1));
    const before = await old.seal('sid', { a: 1 });
    const rotated = await sealer(secret(2), secret(1));
    expect((await rotated.open('sid', before)).ok).toBe(true);
    const after = await rotated.seal('sid', { a: 2 });
    expect((await old.open('sid', after)).ok).toBe(false); // old replicas cannot read new values
    expect((await (await sealer(secret(2))).open('sid', after)).ok).toBe(true);
  });

  test('a foreign secret opens nothing', async () => {
    const value = await (await sealer(secret(1))).seal('cid', { a: 1 });
    expect(await (await sealer(secret(3))).open('cid', value)).toEqual({ ok: false, reason: 'invalid' });
  });
});

// Session ids and access tokens are presented again and again: once verified, a value of those kinds
// is remembered by its text, so WebCrypto runs once for it (src/sealing/sealer.ts).
describe('remembered values', () => {
  /** Counts WebCrypto's AES-GCM decryptions while `run` runs. */
  async function decryptions(run: () => Promise<unknown>): Promise<number> {
    const original = crypto.subtle.decrypt.bind(crypto.subtle);
    let count = 0;
    crypto.subtle.decrypt = ((...args: Parameters<typeof original>) => (count++, original(...args))) as typeof crypto.subtle.decrypt;
    try {
      await run();
    } finally {
      crypto.subtle.decrypt = original;
    }
    return count;
  }

  test.each(['sid', 'at'] as const)('%s: a value this sealer issued, or opened once, opens again without decrypting', async (kind) => {
    const issuer = await sealer();
    const reader = await sealer();
    const value = await issuer.seal(kind, { token: 'glpat-secret-token-value' });
    expect(await decryptions(() => issuer.open(kind, value))).toBe(0);
    expect(await decryptions(() => reader.open(kind, value))).toBe(1);
    expect(await decryptions(async () => expect((await reader.open(kind, value)).ok).toBe(true))).toBe(0);
  });

  test('every open still judges the age: a remembered session id past its TTL is expired', async () => {
    const s = await sealer();
    const value = await s.seal('sid', { a: 1 });
    nowMs += (TTL.sid + 1) * 1000;
    try {
      expect(await s.open('sid', value)).toEqual({ ok: false, reason: 'expired' });
    } finally {
      nowMs -= (TTL.sid + 1) * 1000;
    }
  });

  test('a remembered value opens as its own kind only, and a changed copy of it is verified (and refused)', async () => {
    const s = await sealer();
    const value = await s.seal('sid', { a: 1 });
    expect(await s.open('at', value.replace('v1.sid.', 'v1.at.'))).toEqual({ ok: false, reason: 'invalid' });
    const at = value.length - 10; // inside the tag (the last character may carry unused bits)
    const changed = value.slice(0, at) + (value[at] === 'A' ? 'B' : 'A') + value.slice(at + 1);
    expect(await decryptions(async () => expect((await s.open('sid', changed)).ok).toBe(false))).toBe(1);
  });

  test('other kinds are verified on every open', async () => {
    const s = await sealer();
    const value = await s.seal('dl', { a: 1 });
    expect(await decryptions(() => Promise.all([s.open('dl', value), s.open('dl', value)]))).toBe(2);
  });

  test('the memory is bounded: past maxRemembered the oldest value is verified afresh', async () => {
    const s = await Sealer.create({ secret: secret(1), ttlSeconds: TTL, now: () => nowMs, maxRemembered: 2 });
    const [first, second, third] = [await s.seal('sid', { n: 1 }), await s.seal('sid', { n: 2 }), await s.seal('sid', { n: 3 })];
    expect(await decryptions(() => Promise.all([s.open('sid', second), s.open('sid', third)]))).toBe(0);
    expect(await decryptions(() => s.open('sid', first))).toBe(1);
  });

  test('however many values pass, at most maxRemembered are remembered, the newest among them', async () => {
    const s = await Sealer.create({ secret: secret(1), ttlSeconds: TTL, now: () => nowMs, maxRemembered: 4 });
    const values: string[] = [];
    for (let n = 0; n < 20; n++) values.push(await s.seal('sid', { n }));
    expect(await decryptions(() => Promise.all(values.slice(-2).map((v) => s.open('sid', v))))).toBe(0);
    // Opened oldest first, so no value opened here is remembered before its own turn.
    let opened = 0;
    for (const value of values) if ((await decryptions(() => s.open('sid', value))) === 0) opened++;
    expect(opened).toBeLessThanOrEqual(4);
  });
});

// A last base64url character has unused low bits the decoder ignores: several texts would spell one
// value, and single use is judged by the text (a code or refresh token redeemed once per spelling).
describe('only the canonical spelling opens', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  /** Other texts that decode to the same bytes as `value` (its last character's unused bits changed). */
  function respellings(value: string): string[] {
    const bytes = Buffer.from(value.slice(value.lastIndexOf('.') + 1), 'base64url');
    return [...ALPHABET]
      .map((c) => value.slice(0, -1) + c)
      .filter((v) => v !== value && Buffer.from(v.slice(v.lastIndexOf('.') + 1), 'base64url').equals(bytes));
  }

  test.each(KINDS)('%s: a respelling of a sealed value is malformed', async (kind) => {
    const s = await sealer();
    let value = '';
    let others: string[] = [];
    // Payload lengths vary the body's length mod 3: find one whose last character has unused bits.
    for (let n = 0; others.length === 0 && n < 6; n++) {
      value = await s.seal(kind, { pad: 'x'.repeat(n) });
      others = respellings(value);
    }
    expect(others.length).toBeGreaterThan(0);
    expect((await s.open(kind, value)).ok).toBe(true);
    for (const other of others) expect([other, await s.open(kind, other)]).toEqual([other, { ok: false, reason: 'malformed' }]);
  });
});
