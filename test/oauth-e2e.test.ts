// Real OAuth clients end to end against the fake forge (support/oauth-e2e.ts): the v2 SDK client with
// DCR, the v2 SDK client with a metadata-document client id on loopback (D28), and mcp-remote with
// DCR through its BROWSER hook; each on the modern and the legacy lane (D27), on one server and
// across two stateless replicas sharing a secret (register on one, authorize on the other, call on
// either). Each client holds only the server's own tokens, and the forge never sees them (D23).
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { registerForgeApp, serveOAuth, type ServedOAuth } from './support/fake-oauth-harness';
import { MODERN_VERSION, forgeSaw, signIn, startWorld, type ClientKind, type E2eWorld, type Signed } from './support/oauth-e2e';
import type { Lane } from './support/mcp-client';

setDefaultTimeout(60_000);

const ENV = { OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true' };
let forge: FakeForge;
let world: E2eWorld;
let single: ServedOAuth;
let replicas: ServedOAuth;

beforeAll(async () => {
  forge = await startFakeForge();
  world = await startWorld();
  single = await serveOAuth(forge, { confidential: true, env: ENV });
  replicas = await serveOAuth(forge, { confidential: true, replicas: 2, env: { ...ENV, OAUTH_STATELESS_MODE: 'true' } });
  // Register on replica 0, authorize (consent, callback) on replica 1, redeem on 0, call on either in turn.
  const sign: Record<string, number> = { '/register': 0, '/authorize': 1, '/consent': 1, '/callback': 1, '/token': 0 };
  let turn = 0;
  replicas.route = (request) => sign[new URL(request.url).pathname] ?? turn++ % 2;
});
beforeEach(() => {
  forge.reset();
  for (const s of [single, replicas]) registerForgeApp(forge, s.url, true);
});
afterAll(async () => {
  await world?.stop();
  await single?.stop();
  await replicas?.stop();
  await forge?.stop();
});

// The server's own tokens (D23) have landed: the client holds only v1.at./v1.rt. values.
const OWN_TOKENS = true;
const KINDS: ClientKind[] = ['v2-dcr', 'v2-cimd', 'mcp-remote'];
const LANES: Lane[] = ['modern', 'legacy'];
const CASES = KINDS.flatMap((kind) => LANES.map((lane) => [kind, lane] as const));

function expectSignedIn(s: Signed, kind: ClientKind, lane: Lane) {
  expect(s.branch).toBe('main');
  expect(s.tools).toContain('get_branch');
  if (lane === 'modern') expect(s.version).toBe(MODERN_VERSION);
  else expect(s.version).toStartWith('2025-');
  if (kind === 'v2-cimd') expect(s.clientId).toBe(`${world.site}/client.json`);
  if (!OWN_TOKENS) {
    expect(forge.oauth.accessTokens).toContain(s.held[0]);
    return;
  }
  // The client holds only the server's own tokens (D23) ...
  expect(s.held[0]).toStartWith('v1.at.');
  expect(s.held[1]).toStartWith('v1.rt.');
  // ... and the forge, which did serve the tool call, never received one of them.
  expect(forge.requests.some((r) => r.path.endsWith('/repository/branches/main'))).toBe(true);
  const saw = forgeSaw(forge);
  for (const value of s.held) expect(saw).not.toContain(value);
}

describe('one server', () => {
  test.each(CASES)('%s on the %s lane', async (kind, lane) => {
    const fetches = world.documentFetches;
    const s = await signIn(world, single, lane, kind);
    try {
      expectSignedIn(s, kind, lane);
      // The server read the metadata document itself (D28; served no-store, so once per sign-in).
      if (kind === 'v2-cimd') expect(world.documentFetches).toBeGreaterThan(fetches);
      else expect(world.documentFetches).toBe(fetches);
    } finally {
      await s.close();
    }
  });
});

describe('two stateless replicas sharing a secret', () => {
  test.each(CASES)('%s on the %s lane: registered on one, authorized on the other, calls on either', async (kind, lane) => {
    const before = [...replicas.hits];
    const s = await signIn(world, replicas, lane, kind);
    try {
      expectSignedIn(s, kind, lane);
      expect(replicas.hits[0]).toBeGreaterThan(before[0]);
      expect(replicas.hits[1]).toBeGreaterThan(before[1]);
    } finally {
      await s.close();
    }
  });
});
