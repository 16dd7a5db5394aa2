// The shared store's contract (D37), run against both implementations — process memory and a real
// redis-server — with the same cases: set-if-absent gives single use, entries expire after their
// TTL, counters add within a limit and restart with their window, cache entries are replaced and
// expire, and a reservation is released only by its holder. Then what each does when it cannot
// serve: the memory store at its bound, Redis killed, hung, or refusing a wrong password.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { MemoryStore } from '../src/store/memory-store';
import { KEY_PREFIX, RedisStore } from '../src/store/redis-store';
import { StoreFullError, StoreUnavailableError, storeKey, type SharedStore } from '../src/store/store';
import { startRedis, type RealRedis } from './support/redis';

setDefaultTimeout(20_000);
let redis: RealRedis;
const opened: RedisStore[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of opened) s.close();
  await redis.stop();
});

interface Subject {
  store: SharedStore;
  /** Lets `ms` pass for the store (a moved clock in memory, real time for Redis). */
  pass(ms: number): Promise<void>;
}

let unique = 0;
/** A key no other case uses (the Redis subject is shared by all cases). */
const key = (name: string) => `${name}:${process.pid}:${++unique}`;

const subjects: [string, () => Promise<Subject>][] = [
  [
    'memory',
    async () => {
      let now = 1_000_000;
      return { store: new MemoryStore({ maxEntries: 1000, now: () => now }), pass: async (ms) => void (now += ms) };
    },
  ],
  [
    'redis',
    async () => {
      const store = new RedisStore({ url: redis.url, timeoutMs: 2000, probeEveryMs: 0 });
      opened.push(store);
      return { store, pass: (ms) => Bun.sleep(ms) };
    },
  ],
];

describe.each(subjects)('the %s store', (_, make) => {
  let s: Subject;
  beforeAll(async () => {
    s = await make();
  });

  test('setIfAbsent: the first caller wins, every later one is refused while the entry lives', async () => {
    const k = key('once');
    expect(await s.store.setIfAbsent(k, 'first', 60_000)).toBe(true);
    expect(await s.store.setIfAbsent(k, 'second', 60_000)).toBe(false);
    expect(await s.store.get(k)).toBe('first');
  });

  test('simultaneous setIfAbsent of one key: exactly one wins', async () => {
    const k = key('race');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.store.setIfAbsent(k, String(i), 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test('an entry is gone after its TTL, and the key can be taken again', async () => {
    const k = key('ttl');
    expect(await s.store.setIfAbsent(k, 'v', 100)).toBe(true);
    await s.pass(250);
    expect(await s.store.get(k)).toBeUndefined();
    expect(await s.store.setIfAbsent(k, 'again', 100)).toBe(true);
  });

  test('addWithin counts up to the limit, refuses what would pass it whole, and restarts after the window', async () => {
    const k = key('window');
    expect(await s.store.addWithin(k, 3, 5, 300)).toEqual({ added: true, total: 3 });
    expect(await s.store.addWithin(k, 2, 5, 300)).toEqual({ added: true, total: 5 });
    expect(await s.store.addWithin(k, 1, 5, 300)).toEqual({ added: false, total: 5 });
    const fresh = key('window');
    expect(await s.store.addWithin(fresh, 6, 5, 300)).toEqual({ added: false, total: 0 });
    expect(await s.store.addWithin(fresh, 1, 5, 300)).toEqual({ added: true, total: 1 });
    await s.pass(450);
    expect(await s.store.addWithin(k, 1, 5, 300)).toEqual({ added: true, total: 1 });
  });

  test('simultaneous addWithin: never more than the limit is counted', async () => {
    const k = key('burst');
    const results = await Promise.all(Array.from({ length: 30 }, () => s.store.addWithin(k, 1, 10, 60_000)));
    expect(results.filter((r) => r.added)).toHaveLength(10);
  });

  test('set replaces a value and its TTL; a TTL of 0 removes it', async () => {
    const k = key('cache');
    await s.store.set(k, '{"verdict":"accepted"}', 100);
    expect(await s.store.get(k)).toBe('{"verdict":"accepted"}');
    await s.store.set(k, '{"verdict":"rejected"}', 60_000);
    await s.pass(250);
    expect(await s.store.get(k)).toBe('{"verdict":"rejected"}');
    await s.store.set(k, 'x', 0);
    expect(await s.store.get(k)).toBeUndefined();
  });

  test("deleteIfEqual releases only the holder's value", async () => {
    const k = key('hold');
    await s.store.setIfAbsent(k, 'pending:mine', 60_000);
    expect(await s.store.deleteIfEqual(k, 'pending:theirs')).toBe(false);
    expect(await s.store.get(k)).toBe('pending:mine');
    expect(await s.store.deleteIfEqual(k, 'pending:mine')).toBe(true);
    expect(await s.store.get(k)).toBeUndefined();
    expect(await s.store.deleteIfEqual(k, 'pending:mine')).toBe(false);
  });

  test('keys are whatever the caller made of them: storeKey hashes, so no value shows', () => {
    const k = storeKey('code', 'v1.pc.secret-code-value');
    expect(k).toMatch(/^code:[A-Za-z0-9_-]{43}$/);
    expect(k).not.toContain('secret');
  });
});

describe('the memory store at its bound', () => {
  test('setIfAbsent and addWithin refuse a new key (StoreFullError); set drops the oldest entry', async () => {
    let now = 0;
    const store = new MemoryStore({ maxEntries: 2, now: () => now });
    await store.setIfAbsent('a', '1', 10_000);
    await store.addWithin('b', 1, 5, 10_000);
    await expect(store.setIfAbsent('c', '1', 10_000)).rejects.toBeInstanceOf(StoreFullError);
    await expect(store.addWithin('c', 1, 5, 10_000)).rejects.toBeInstanceOf(StoreFullError);
    expect(await store.addWithin('b', 1, 5, 10_000)).toEqual({ added: true, total: 2 }); // an existing key still counts
    await store.set('c', 'cached', 10_000);
    expect(store.size).toBe(2);
    expect(await store.get('a')).toBeUndefined();
    now += 10_000;
    expect(await store.setIfAbsent('d', '1', 10_000)).toBe(true); // expired entries made room
  });
});

describe('Redis: namespaced keys, a TTL on every key', () => {
  test('every key the store writes starts with forge-mcp: and expires', async () => {
    const store = new RedisStore({ url: redis.url, timeoutMs: 2000, probeEveryMs: 0 });
    opened.push(store);
    const k = key('ns');
    await store.setIfAbsent(`${k}:a`, 'v', 60_000);
    await store.set(`${k}:b`, 'v', 60_000);
    await store.addWithin(`${k}:c`, 1, 5, 60_000);
    const raw = await redis.client();
    for (const suffix of ['a', 'b', 'c']) {
      const pttl = Number(await raw.send('PTTL', [`${KEY_PREFIX}${k}:${suffix}`]));
      expect(pttl).toBeGreaterThan(0);
    }
    expect(await raw.send('EXISTS', [`${k}:a`])).toBe(0);
  });
});

describe('Redis failures surface as StoreUnavailableError, and the same store object recovers', () => {
  test('killed: calls fail at once; restarted: calls succeed again without a new store', async () => {
    const own = await startRedis();
    const states: string[] = [];
    const store = new RedisStore({
      url: own.url,
      timeoutMs: 1000,
      probeEveryMs: 0,
      reconnectEveryMs: 50,
      events: { state: (up, reason) => states.push(up ? 'up' : `down:${reason}`) },
    });
    opened.push(store);
    try {
      expect(await store.setIfAbsent('k', 'v', 60_000)).toBe(true);
      await own.kill();
      const error = await store.get('k').catch((e) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      await expect(store.addWithin('n', 1, 5, 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      await own.restart();
      let value: string | undefined | Error = new Error('not yet');
      for (let i = 0; i < 100 && value instanceof Error; i++) {
        await Bun.sleep(60);
        value = await store.setIfAbsent('k', 'after', 60_000).then(
          () => store.get('k'),
          (e: Error) => e,
        );
      }
      expect(value).toBe('after'); // an empty server after the restart
      expect(states[0]).toMatch(/^down:/);
      expect(states.at(-1)).toBe('up');
    } finally {
      await own.stop();
    }
  });

  test('hung (SIGSTOP): a call ends with reason "timeout" instead of waiting for the store', async () => {
    const own = await startRedis();
    const store = new RedisStore({ url: own.url, timeoutMs: 200, probeEveryMs: 0, reconnectEveryMs: 50 });
    opened.push(store);
    try {
      await store.set('k', 'v', 60_000);
      const pid = Number((await (await own.client()).send('INFO', ['server'])).match(/process_id:(\d+)/)![1]);
      process.kill(pid, 'SIGSTOP');
      try {
        const error = await store.get('k').catch((e) => e);
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect((error as StoreUnavailableError).reason).toBe('timeout');
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      let value: string | undefined | Error = new Error('not yet');
      for (let i = 0; i < 100 && value instanceof Error; i++) {
        await Bun.sleep(60);
        value = await store.get('k').catch((e: Error) => e);
      }
      expect(value).toBe('v');
    } finally {
      await own.stop();
    }
  });

  test('a password and a database number in the URL are used; a wrong password is refused without showing it', async () => {
    const own = await startRedis({ password: 'correct-horse-battery' });
    try {
      const good = new RedisStore({ url: `redis://:correct-horse-battery@127.0.0.1:${own.port}/3`, timeoutMs: 1000, probeEveryMs: 0 });
      opened.push(good);
      await good.set('in-db-3', 'v', 60_000);
      const raw = await own.client();
      await raw.send('SELECT', ['3']);
      expect(await raw.send('GET', [`${KEY_PREFIX}in-db-3`])).toBe('v');
      const bad = new RedisStore({ url: `redis://:wrong-password-value@127.0.0.1:${own.port}/3`, timeoutMs: 1000, probeEveryMs: 0 });
      opened.push(bad);
      const error = await bad.get('x').catch((e) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(String(error.message)).not.toContain('wrong-password-value');
    } finally {
      await own.stop();
    }
  });
});
