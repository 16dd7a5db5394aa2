// The forge's answer about a credential (D7): asked with the call that credential kind may
// make, never following a redirect, cached per kind, token and forge origin under a key that is not
// the token, bounded in size, expired answers dropped.
import { afterAll, beforeEach, describe, expect, test } from 'bun:test';
import { CredentialChecks } from '../src/auth/credential-check';
import { createEndpoint } from '../src/forge/endpoint';
import { MemoryStore } from '../src/store/memory-store';
import type { SharedStore } from '../src/store/store';

const seen: { path: string; headers: Headers }[] = [];
let redirectTargetHits = 0;
const target = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => (redirectTargetHits++, Response.json({ id: 1 })) });
const forge = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const url = new URL(request.url);
    seen.push({ path: url.pathname, headers: request.headers });
    const token = request.headers.get('private-token') ?? request.headers.get('job-token') ?? request.headers.get('authorization');
    if (token?.includes('redirect')) return Response.redirect(`http://127.0.0.1:${target.port}/api/v4/user`, 302);
    if (token?.includes('forbidden')) return Response.json({ message: '403 Forbidden' }, { status: 403 });
    if (token?.includes('busy')) return Response.json({ message: '429 Too Many Requests' }, { status: 429 });
    // GET /job answers the job, its user inside (lib/api/ci/jobs.rb); GET /user the user.
    const record = new URL(request.url).pathname.endsWith('/job') ? { id: 7, user: { id: 1, username: 'ada' } } : { id: 1, username: 'ada' };
    return token?.includes('good') ? Response.json(record) : Response.json({ message: '401 Unauthorized' }, { status: 401 });
  },
});
const endpoint = (prefix = '') => createEndpoint(`http://127.0.0.1:${forge.port}${prefix}/api/v4`, { rejectUnauthorized: true, timeoutMs: 2000 });
beforeEach(() => {
  seen.length = 0;
  redirectTargetHits = 0;
});
afterAll(() => {
  forge.stop(true);
  target.stop(true);
});

describe('the question asked', () => {
  test.each([
    ['private', 'PRIVATE-TOKEN', '/api/v4/user', 'good-private-token-000000'],
    ['bearer', 'Authorization', '/api/v4/user', 'Bearer good-bearer-token-00000000'],
    ['job', 'JOB-TOKEN', '/api/v4/job', 'good-job-token-0000000000'],
  ] as const)('a %s token is sent in %s to %s', async (kind, header, path, value) => {
    const token = value.replace('Bearer ', '');
    expect(await new CredentialChecks().check({ kind, token }, endpoint())).toBe('accepted');
    expect(seen.map((r) => [r.path, r.headers.get(header)])).toEqual([[path, value]]);
  });

  test.each([
    ['401', 'made-up-token-0000000000', 'rejected'],
    // A 403 is GitLab taking the token and refusing it this request (a narrower scope): accepted (issue 34).
    ['403', 'forbidden-token-00000000', 'accepted'],
    ['429', 'busy-token-0000000000000', 'unknown'],
    ['a redirect, which is not followed', 'redirect-token-000000000', 'unknown'],
  ])('the forge answers %s → %s', async (_, token, verdict) => {
    expect(await new CredentialChecks().check({ kind: 'private', token }, endpoint())).toBe(verdict as 'rejected');
    expect(redirectTargetHits).toBe(0);
  });

  test('a forge that cannot be reached → unknown, and nothing is cached', async () => {
    const checks = new CredentialChecks();
    const down = createEndpoint('http://127.0.0.1:9/api/v4', { rejectUnauthorized: true, timeoutMs: 2000 });
    expect(await checks.check({ kind: 'private', token: 'good-token-0000000000000' }, down)).toBe('unknown');
    expect(checks.size).toBe(0);
  });
});

describe('the cache', () => {
  test('one question per kind, token and forge origin; path prefixes of one origin share the answer', async () => {
    const checks = new CredentialChecks();
    const token = 'good-token-0000000000000';
    for (let i = 0; i < 3; i++) expect(await checks.check({ kind: 'private', token }, endpoint())).toBe('accepted');
    await checks.check({ kind: 'private', token }, endpoint('/gitlab'));
    await checks.check({ kind: 'bearer', token }, endpoint());
    expect(seen.map((r) => r.path)).toEqual(['/api/v4/user', '/api/v4/user']);
  });

  test('its keys are hashes, never the token', async () => {
    const checks = new CredentialChecks();
    const token = 'good-token-secret-0000000';
    await checks.check({ kind: 'private', token }, endpoint());
    const keys = [...(checks as unknown as { answers: Map<string, unknown> }).answers.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^cred:[A-Za-z0-9_-]{43}$/);
    expect(keys[0]).not.toContain(token);
  });

  test('bounded: beyond maxEntries the oldest answer goes', async () => {
    const checks = new CredentialChecks({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) await checks.check({ kind: 'private', token: `made-up-token-${i}-000000000` }, endpoint());
    expect(checks.size).toBe(3);
    await checks.check({ kind: 'private', token: 'made-up-token-0-000000000' }, endpoint());
    expect(seen).toHaveLength(11); // the first answer had gone
  });

  test('answers last a few minutes; expired ones are asked again and dropped when new ones come', async () => {
    let now = 0;
    const checks = new CredentialChecks({ now: () => now, ttlMs: 300_000, maxEntries: 3 });
    for (let i = 0; i < 3; i++) await checks.check({ kind: 'private', token: `good-token-${i}-00000000000` }, endpoint());
    now = 299_999;
    await checks.check({ kind: 'private', token: 'good-token-0-00000000000' }, endpoint());
    expect(seen).toHaveLength(3);
    now = 300_001;
    await checks.check({ kind: 'private', token: 'good-token-new-0000000000' }, endpoint());
    expect(checks.size).toBe(1); // the three expired answers left
    await checks.check({ kind: 'private', token: 'good-token-0-00000000000' }, endpoint());
    expect(seen).toHaveLength(5);
  });

  test('simultaneous checks of one credential ask once; nothing stays pending', async () => {
    const checks = new CredentialChecks();
    const verdicts = await Promise.all(Array.from({ length: 10 }, () => checks.check({ kind: 'job', token: 'good-job-token-0000000000' }, endpoint())));
    expect(new Set(verdicts)).toEqual(new Set(['accepted']));
    expect(seen).toHaveLength(1);
    expect((checks as unknown as { pending: Map<string, unknown> }).pending.size).toBe(0);
  });
});

describe('the username of audit lines (D35)', () => {
  const good = { kind: 'private', token: 'good-token-audit-00000000' } as const;

  test('looked up once with the check, then known at once without a promise', async () => {
    const checks = new CredentialChecks();
    const first = checks.username(good, endpoint());
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe('ada');
    expect(checks.username(good, endpoint())).toBe('ada');
    expect(await checks.check(good, endpoint())).toBe('accepted'); // the check's answer was kept too
    expect(seen).toHaveLength(1);
  });

  test('a credential a check already admitted costs no forge call', async () => {
    const checks = new CredentialChecks();
    await checks.check(good, endpoint());
    expect(await checks.username(good, endpoint())).toBe('ada');
    expect(seen).toHaveLength(1);
  });

  test('a rejected credential has none, and is not asked about again while the answer lasts', async () => {
    const checks = new CredentialChecks();
    const made = { kind: 'private', token: 'made-up-token-audit-0000' } as const;
    expect(await checks.username(made, endpoint())).toBeUndefined();
    expect(checks.username(made, endpoint())).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  test('a forge that cannot say is asked again after 30 s, not on every call', async () => {
    let now = 0;
    const checks = new CredentialChecks({ now: () => now });
    const busy = { kind: 'private', token: 'busy-token-audit-00000000' } as const;
    expect(await checks.username(busy, endpoint())).toBeUndefined();
    now = 29_999;
    expect(checks.username(busy, endpoint())).toBeUndefined();
    expect(seen).toHaveLength(1);
    now = 30_001;
    expect(await checks.username(busy, endpoint())).toBeUndefined();
    expect(seen).toHaveLength(2);
  });

  test('simultaneous first calls share one lookup; the remembered names are bounded', async () => {
    const checks = new CredentialChecks({ maxEntries: 3 });
    expect(await Promise.all(Array.from({ length: 5 }, () => checks.username(good, endpoint())))).toEqual(Array(5).fill('ada'));
    expect(seen).toHaveLength(1);
    for (let i = 0; i < 10; i++) await checks.username({ kind: 'private', token: `good-token-many-${i}-000000` }, endpoint());
    expect(checks.remembered).toBeLessThanOrEqual(3);
    expect(checks.remembered).toBeGreaterThan(0);
  });
});

describe("answers remembered in this process, as long as the store's record holds (D7, D37)", () => {
  // A store replicas share, seen from one replica: it counts its reads, and a test may write a record as another replica would.
  function sharedStore(now: () => number) {
    const inner = new MemoryStore({ maxEntries: 100, now });
    const store: SharedStore & { reads: number; keys(): string[] } = {
      reads: 0,
      keys: () => inner.keys(),
      setIfAbsent: (k, v, t) => inner.setIfAbsent(k, v, t),
      get: (k) => (store.reads++, inner.get(k)),
      set: (k, v, t) => inner.set(k, v, t),
      deleteIfEqual: (k, v) => inner.deleteIfEqual(k, v),
      addWithin: (k, a, l, t) => inner.addWithin(k, a, l, t),
    };
    return { store, write: (key: string, record: unknown) => inner.set(key, JSON.stringify(record), 300_000) };
  }
  const good = { kind: 'private', token: 'good-token-shared-0000000' } as const;

  test('a credential checked once is answered again without the forge or the store', async () => {
    const { store } = sharedStore(Date.now);
    const checks = new CredentialChecks({ store });
    expect(await checks.check(good, endpoint())).toBe('accepted');
    const reads = store.reads;
    for (let i = 0; i < 5; i++) expect(await checks.check(good, endpoint())).toBe('accepted');
    expect(checks.username(good, endpoint())).toBe('ada');
    expect([store.reads - reads, seen.length]).toEqual([0, 1]);
  });

  test("another replica's answer holds here until ttlMs after that replica asked, then the forge is asked", async () => {
    let now = 1_000_000;
    const { store, write } = sharedStore(() => now);
    const checks = new CredentialChecks({ store, now: () => now, ttlMs: 300_000 });
    const made = { kind: 'private', token: 'made-up-token-shared-000' } as const;
    // First a check of our own, to learn the credential's store key; then the other replica's record replaces ours.
    expect(await checks.check(made, endpoint())).toBe('rejected');
    const [key] = store.keys();
    const other = new CredentialChecks({ store, now: () => now, ttlMs: 300_000 });
    await write(key, { verdict: 'accepted', username: 'ada', at: now - 299_000 });
    expect(await other.check(made, endpoint())).toBe('accepted');
    now += 999;
    expect(await other.check(made, endpoint())).toBe('accepted');
    expect(seen).toHaveLength(1);
    now += 2;
    expect(await other.check(made, endpoint())).toBe('rejected'); // past the record's time: asked again
    expect(seen).toHaveLength(2);
  });

  test.each([
    ['a time in the future', { verdict: 'accepted', at: 9e15 }],
    ['a time that is no number', { verdict: 'accepted', at: 'soon' }],
    ['no time (written before records carried one)', { verdict: 'accepted' }],
  ])('a record with %s holds here at most ttlMs from now', async (_, record) => {
    let now = 1_000_000;
    const { store, write } = sharedStore(() => now);
    const made = { kind: 'private', token: 'made-up-token-hostile-00' } as const;
    await new CredentialChecks({ store, now: () => now }).check(made, endpoint());
    const [key] = store.keys();
    await write(key, record);
    const checks = new CredentialChecks({ store, now: () => now, ttlMs: 300_000 });
    expect(await checks.check(made, endpoint())).toBe('accepted');
    now += 300_001;
    await write(key, record); // the store still has it: only this process's memory of it ended
    const reads = store.reads;
    expect(await checks.check(made, endpoint())).toBe('accepted');
    expect(store.reads - reads).toBe(1);
  });

  test('a record past its time is not an answer', async () => {
    const now = 1_000_000;
    const { store, write } = sharedStore(() => now);
    const made = { kind: 'private', token: 'made-up-token-stale-0000' } as const;
    await new CredentialChecks({ store, now: () => now }).check(made, endpoint());
    const [key] = store.keys();
    await write(key, { verdict: 'accepted', at: now - 300_000 });
    expect(await new CredentialChecks({ store, now: () => now, ttlMs: 300_000 }).check(made, endpoint())).toBe('rejected');
    expect(seen).toHaveLength(2);
  });

  test('what a check asked the forge is written with its time', async () => {
    const now = 1_234_567;
    const { store } = sharedStore(() => now);
    await new CredentialChecks({ store, now: () => now }).check(good, endpoint());
    const [key] = store.keys();
    expect(JSON.parse((await store.get(key))!)).toEqual({ verdict: 'accepted', username: 'ada', at: now });
  });
});

describe('the username of audit lines: what a forge answers is checked (D35)', () => {
  // One token per hostile answer to GET /user; each is accepted (200) but names nobody usable.
  const answers: Record<string, () => Response | Promise<Response>> = {
    number: () => Response.json({ id: 1, username: 42 }),
    long: () => Response.json({ id: 1, username: 'u'.repeat(256) }),
    html: () => new Response('<html><body>Sign in</body></html>', { headers: { 'content-type': 'text/html' } }),
    empty: () => new Response(''),
    malformed: () => new Response('{"username": "ada"', { headers: { 'content-type': 'application/json' } }),
    array: () => Response.json([{ username: 'ada' }]),
    huge: () => new Response(JSON.stringify({ username: 'ada', padding: 'x'.repeat(200_000) }), { headers: { 'content-type': 'application/json' } }),
    slow: () => Bun.sleep(1_000).then(() => Response.json({ username: 'ada' })),
  };
  const hostile = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => (answers[(request.headers.get('private-token') ?? '').split('-')[1]] ?? (() => new Response(null, { status: 401 })))(),
  });
  const at = createEndpoint(`http://127.0.0.1:${hostile.port}/api/v4`, { rejectUnauthorized: true, timeoutMs: 300 });
  afterAll(() => hostile.stop(true));

  // A JSON user record whose name is unusable still accepts; an answer that is no JSON user record
  // (a web page, an empty or cut body, a list) accepts nothing (issue 32: a forge URL that points at
  // a web page answers 200 too).
  const records = ['number', 'long'];
  test.each(records)('a username that is %s: none, and the credential still counts as accepted', async (kind) => {
    const checks = new CredentialChecks();
    const credential = { kind: 'private', token: `audit-${kind}-token-0000000` } as const;
    expect(await checks.username(credential, at)).toBeUndefined();
    expect(checks.username(credential, at)).toBeUndefined(); // remembered: not asked again
    expect(await checks.check(credential, at)).toBe('accepted');
  });

  test('an answer past the size bound is not read: none, and the forge could not say (unknown)', async () => {
    const checks = new CredentialChecks();
    const credential = { kind: 'private', token: 'audit-huge-token-0000000' } as const;
    expect(await checks.username(credential, at)).toBeUndefined();
    expect(await checks.check(credential, at)).toBe('unknown');
  });

  test.each(Object.keys(answers).filter((k) => k !== 'slow' && k !== 'huge' && !records.includes(k)))(
    'an answer that is %s is no user record: none, and the credential is not accepted',
    async (kind) => {
      const checks = new CredentialChecks();
      const credential = { kind: 'private', token: `audit-${kind}-token-0000000` } as const;
      expect(await checks.username(credential, at)).toBeUndefined();
      expect(await checks.check(credential, at)).toBe('rejected');
      expect(checks.notForge(credential, at)).toBe(true);
    },
  );

  test("an answer slower than the forge timeout: none, and not kept as the check's answer", async () => {
    const checks = new CredentialChecks();
    const credential = { kind: 'private', token: 'audit-slow-token-00000000' } as const;
    expect(await checks.username(credential, at)).toBeUndefined();
    expect(checks.size).toBe(0);
  });
});
