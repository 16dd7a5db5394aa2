// The tokens this server issues (D23), unit by unit: what goes in, the expiry rule (never past the
// forge token's own), and every way a value fails to open as an access or a refresh token.
import { describe, expect, test } from 'bun:test';
import { Sealer } from '../src/sealing/sealer';
import { OwnTokens } from '../src/oauth/own-tokens';

const SECRET = Buffer.alloc(32, 9).toString('base64url');
const RESOURCE = 'https://mcp.example.com/mcp';
const GRANT = { apiUrl: 'https://forge.example/api/v4', scope: 'api', clientId: 'client-1' } as const;
const FORGE = { access_token: 'f'.repeat(64), token_type: 'Bearer', refresh_token: 'r'.repeat(64), expires_in: 7200 };

let nowMs = 1_800_000_000_000;
const clock = () => nowMs;
const sealer = () => Sealer.create({ secret: SECRET, ttlSeconds: { cid: 1, ps: 1, pc: 1, sid: 1, dl: 1, at: 3600, rt: 2592000 }, now: clock });
const tokens = (resource = RESOURCE, access = 3600) => new OwnTokens(sealer(), { resource, accessTtlSeconds: access, refreshTtlSeconds: 2592000 }, clock);

describe('issue', () => {
  test('a v1.at. and a v1.rt., expires_in and scope; nothing of the forge token readable', async () => {
    const body = await tokens().issue(GRANT, FORGE, nowMs / 1000 + 7200);
    expect(body.access_token).toStartWith('v1.at.');
    expect(body.refresh_token).toStartWith('v1.rt.');
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'api' });
    // Neither as written nor in any part read as base64url. (A random ciphertext holds `fff` by
    // chance about once in a few hundred issues; sixteen in a row, never.)
    const readable = [
      JSON.stringify(body),
      ...[body.access_token, body.refresh_token!].flatMap((token) => token.split('.')).map((part) => Buffer.from(part, 'base64url').toString('latin1')),
    ];
    for (const text of readable) {
      expect(text).not.toContain('f'.repeat(16));
      expect(text).not.toContain('r'.repeat(16));
    }
  });

  test('the access token never outlives the forge token', async () => {
    const body = await tokens().issue(GRANT, FORGE, nowMs / 1000 + 100);
    expect(body.expires_in).toBe(100);
    nowMs += 100_000;
    expect(await tokens().openAccess(body.access_token)).toEqual({ ok: false, reason: 'expired' });
    nowMs -= 100_000;
  });

  test('no forge refresh token, no refresh token', async () => {
    const body = await tokens().issue(GRANT, { access_token: 'f'.repeat(64), token_type: 'Bearer' });
    expect(body.refresh_token).toBeUndefined();
    expect(body.expires_in).toBe(3600);
  });
});

describe('open', () => {
  test('an access token opens as what was sealed, for this audience only', async () => {
    const body = await tokens().issue(GRANT, FORGE);
    expect(await tokens().openAccess(body.access_token)).toEqual({ ok: true, forgeToken: FORGE.access_token, grant: GRANT, expiresAt: nowMs / 1000 + 3600 });
    expect(await tokens('https://other.example/mcp').openAccess(body.access_token)).toEqual({ ok: false, reason: 'audience' });
  });

  test('a v1.at. is no refresh token and a v1.rt. no access token', async () => {
    const body = await tokens().issue(GRANT, FORGE);
    expect((await tokens().openRefresh(body.access_token)).ok).toBe(false);
    expect((await tokens().openAccess(body.refresh_token!)).ok).toBe(false);
  });

  test('huge, malformed, tampered, another secret: refused', async () => {
    const t = tokens();
    const body = await t.issue(GRANT, FORGE);
    expect(await t.openAccess(`v1.at.${'A'.repeat(20_000)}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(await t.openAccess('v1.at.%%%')).toEqual({ ok: false, reason: 'malformed' });
    const flipped = body.access_token.slice(0, -2) + (body.access_token.endsWith('AA') ? 'BB' : 'AA');
    expect(await t.openAccess(flipped)).toEqual({ ok: false, reason: 'invalid' });
    const other = new OwnTokens(
      Sealer.create({ secret: Buffer.alloc(32, 1).toString('base64url'), ttlSeconds: { cid: 1, ps: 1, pc: 1, sid: 1, dl: 1 }, now: clock }),
      { resource: RESOURCE, accessTtlSeconds: 3600, refreshTtlSeconds: 60 },
      clock,
    );
    expect(await other.openAccess(body.access_token)).toEqual({ ok: false, reason: 'invalid' });
  });

  test('a refresh token opens for the audience that issued it only; one sealed without an audience is refused', async () => {
    const body = await tokens().issue(GRANT, FORGE);
    expect((await tokens().openRefresh(body.refresh_token!)).ok).toBe(true);
    expect(await tokens('https://other.example/mcp').openRefresh(body.refresh_token!)).toEqual({ ok: false, reason: 'audience' });
    const unbound = await (await sealer()).seal('rt', { f: 'r'.repeat(64), u: GRANT.apiUrl, s: 'api', c: GRANT.clientId, e: nowMs / 1000 + 60 });
    expect(await tokens().openRefresh(unbound)).toEqual({ ok: false, reason: 'audience' });
  });

  test('a refresh token expires after OAUTH_REFRESH_TOKEN_TTL_SECONDS', async () => {
    const body = await tokens().issue(GRANT, FORGE);
    expect((await tokens().openRefresh(body.refresh_token!)).ok).toBe(true);
    nowMs += 2592000_000;
    expect(await tokens().openRefresh(body.refresh_token!)).toEqual({ ok: false, reason: 'expired' });
    nowMs -= 2592000_000;
  });
});
