// A sealed session id is held to what its credential would be held to (session/sealed-session.ts):
// the deployment that sealed it, a forge that deployment may call, and, for a credential that came
// in this server's own access token, that token's end (D23), whatever the inactivity timeout.
import { expect, test } from 'bun:test';
import type { Caller } from '../src/auth/caller';
import { SealedSessions } from '../src/session/sealed-session';
import { Sealer } from '../src/sealing/sealer';

const SECRET = Buffer.alloc(32, 4).toString('base64url');
const FORGE = 'https://forge.example/api/v4';
let nowMs = 1_800_000_000_000;
const clock = () => nowMs;
const sealer = Sealer.create({ secret: SECRET, ttlSeconds: { cid: 1, ps: 1, pc: 1, sid: 3600, dl: 1 }, now: clock });
const sessions = async (audience = 'https://mcp.example.com', allowed = [FORGE]) =>
  new SealedSessions(await sealer, { audience, forgeAllowed: (url) => allowed.includes(url), now: clock });

const granted: Caller = {
  credential: { kind: 'bearer', token: 'forge-token-from-an-access-token' },
  apiUrl: FORGE,
  grant: { scope: 'read_api', expiresAt: nowMs / 1000 + 60 },
};
const plain: Caller = { credential: { kind: 'private', token: 'glpat-plain-token-000000' }, apiUrl: FORGE };

test("an id opens as what was sealed, its access token's end included", async () => {
  const s = await sessions();
  expect(await s.open(await s.issue(granted))).toMatchObject({ credential: granted.credential, apiUrl: FORGE, grant: granted.grant });
  expect(await s.open(await s.issue(plain))).toMatchObject({ credential: plain.credential, apiUrl: FORGE });
});

test('an id sealed from an access token ends with it, though the session was not idle', async () => {
  const s = await sessions();
  const sid = await s.issue(granted);
  nowMs += 59_000;
  expect(await s.open(sid)).toBeDefined();
  nowMs += 1_000;
  expect(await s.open(sid)).toBeUndefined();
  // Re-sealing on a later response keeps the token's end: no id outlives it.
  nowMs -= 30_000;
  const renewed = await s.issue((await s.open(sid))!);
  nowMs += 30_000;
  expect(await s.open(renewed)).toBeUndefined();
  nowMs -= 60_000;
});

test('another deployment, or one that may not call the forge, does not open it', async () => {
  const sid = await (await sessions()).issue(plain);
  expect(await (await sessions('https://other.example.com')).open(sid)).toBeUndefined();
  expect(await (await sessions('')).open(sid)).toBeUndefined();
  expect(await (await sessions('https://mcp.example.com', ['https://other-forge.example/api/v4'])).open(sid)).toBeUndefined();
});

test("an id claiming a grant without the token's end, or an end without a grant, does not open", async () => {
  const s = await sealer;
  const bound = await sessions();
  const base = { k: 'bearer', t: 'forge-token-from-an-access-token', u: FORGE, g: 'tag', a: 'https://mcp.example.com' };
  expect(await bound.open(await s.seal('sid', { ...base, s: 'api' }))).toBeUndefined();
  expect(await bound.open(await s.seal('sid', { ...base, s: 'api', x: '9999999999' }))).toBeUndefined();
  expect(await bound.open(await s.seal('sid', { ...base, x: nowMs / 1000 + 60 }))).toBeUndefined();
  expect(await bound.open(await s.seal('sid', { ...base, s: 'api', x: nowMs / 1000 + 60 }))).toBeDefined();
});
