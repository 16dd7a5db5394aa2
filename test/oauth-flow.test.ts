// End to end: the SDK client's own OAuth flow (its authProvider) against this server and the fake
// forge — 401, discovery, registration, consent, the forge, the callback, the token — ending in a
// tool call made with the forge's token. Also with consent off, with a confidential forge
// application, with refresh after the forge token expired, and across stateless replicas.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult } from '@modelcontextprotocol/client';
import { SEED, startFakeForge, type FakeForge } from './support/fake-forge';
import { TestOAuthProvider } from './support/fake-oauth-client';
import { FORGE_APP_SECRET, SECRET, registerForgeApp, serveOAuth, type ServedOAuth, type ServeOptions } from './support/fake-oauth-harness';
import { capturingLogger } from './support/log-capture';
import { structured, toolError } from './support/mcp-client';

let forge: FakeForge;
const servers: ServedOAuth[] = [];
let clock = 0;
const now = () => Date.now() + clock;

beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => {
  clock = 0;
  forge.reset();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await forge.stop();
});

async function serve(options: ServeOptions = {}): Promise<ServedOAuth> {
  const served = await serveOAuth(forge, { now, ...options });
  servers.push(served);
  registerForgeApp(forge, served.url, options.confidential);
  return served;
}

function connectWith(served: ServedOAuth, provider: TestOAuthProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), { authProvider: provider });
  const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
  return { transport, client, connect: () => client.connect(transport) };
}

/** The SDK's sign-in: connect → 401 → the SDK sends the user to /authorize → the browser part → finishAuth. */
async function signInWithSdk(served: ServedOAuth, provider = new TestOAuthProvider()) {
  const first = connectWith(served, provider);
  await expect(first.connect()).rejects.toThrow(UnauthorizedError);
  expect(provider.authorizationUrl?.href).toStartWith(`${served.url}/authorize?`);
  const landing = await provider.completeSignIn();
  expect(landing.error).toBeUndefined();
  // The callback's parameters as the redirect URI received them: the code and the issuer (RFC 9207).
  await first.transport.finishAuth(landing.url.searchParams);
  const second = connectWith(served, provider);
  await second.connect();
  return { provider, landing, client: second.client, transport: second.transport };
}

const getMain = { name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } };
const call = (client: Client, request: { name: string; arguments: Record<string, unknown> }) => client.callTool(request) as Promise<CallToolResult>;

describe('the SDK client signs in and calls a tool', () => {
  test("with the consent page: the client holds this server's token, the tool runs with the forge token sealed in it (D23)", async () => {
    const served = await serve({ env: { FORGE_TOOLSETS: 'all' } });
    const { provider, client } = await signInWithSdk(served);
    expect(provider.browser.visited.some((u) => u.startsWith(`${served.url}/consent`))).toBe(true);
    const branch = structured<{ name: string }>(await call(client, getMain));
    expect(branch.name).toBe('main');
    const held = provider.tokens()!;
    expect(held.access_token).toStartWith('v1.at.');
    expect(held.refresh_token).toStartWith('v1.rt.');
    const [forgeToken] = forge.oauth.accessTokens;
    expect(held.access_token).not.toBe(forgeToken);
    const upstream = forge.requests.find((r) => r.path.endsWith('/repository/branches/main'))!;
    expect(upstream.headers.get('authorization')).toBe(`Bearer ${forgeToken}`);
    await client.close();
  });

  test('consent denied: the client is told access_denied and gets no code', async () => {
    const served = await serve();
    const provider = new TestOAuthProvider();
    const { connect } = connectWith(served, provider);
    await expect(connect()).rejects.toThrow(UnauthorizedError);
    const landing = await provider.completeSignIn('deny');
    expect(landing.error).toBe('access_denied');
    expect(landing.code).toBeUndefined();
    expect(forge.oauth.accessTokens).toEqual([]);
  });

  test('with MCP_OAUTH_CONSENT=false the browser goes straight to the forge', async () => {
    const served = await serve({ env: { MCP_OAUTH_CONSENT: 'false' } });
    const { provider, client } = await signInWithSdk(served);
    expect(provider.browser.visited.some((u) => u.includes('/consent'))).toBe(false);
    expect(structured<{ name: string }>(await call(client, getMain)).name).toBe('main');
    await client.close();
  });

  test('with a confidential forge application', async () => {
    const served = await serve({ confidential: true });
    const { client } = await signInWithSdk(served);
    expect(structured<{ name: string }>(await call(client, getMain)).name).toBe('main');
    await client.close();
  });

  test('after the forge token expires, /mcp answers 401 invalid_token, the SDK refreshes through /token and the call succeeds (D23)', async () => {
    const served = await serve();
    const { provider, client } = await signInWithSdk(served);
    const before = provider.tokens()!;
    const [forgeBefore] = forge.oauth.accessTokens;
    forge.oauth.expire(forgeBefore);
    expect(structured<{ name: string }>(await call(client, getMain)).name).toBe('main');
    const after = provider.tokens()!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).toStartWith('v1.at.');
    const [forgeAfter] = forge.oauth.accessTokens;
    expect(forgeAfter).not.toBe(forgeBefore);
    expect(
      forge.requests
        .filter((r) => r.path.endsWith('/repository/branches/main'))
        .at(-1)!
        .headers.get('authorization'),
    ).toBe(`Bearer ${forgeAfter}`);
    await client.close();
  });

  test("a signed-in user without access to the project gets the forge's refusal as a tool error", async () => {
    const served = await serve();
    forge.oauth.userId = 3; // the guest
    const { client } = await signInWithSdk(served);
    const error = toolError(await call(client, { name: 'create_branch', arguments: { project_id: String(SEED.project), branch: 'x', ref: 'main' } }));
    expect(error.kind).toBe('permission');
    await client.close();
  });
});

describe("the registration's lifetime and the refresh token's (D23)", () => {
  const DAY = 86_400_000;

  test.each(['stateful', 'stateless'])(
    "%s: a day after sign-in, past the registration's lifetime, the SDK refreshes and the call succeeds, with no new registration or sign-in",
    async (mode) => {
      const served = await serve(mode === 'stateless' ? { env: { OAUTH_STATELESS_MODE: 'true' } } : {});
      const { provider, client } = await signInWithSdk(served);
      await client.close();
      const { client_id: clientId } = provider.clientInformation()!;
      const signInStarted = provider.authorizationUrl;
      const before = provider.tokens()!;
      // The access token (one hour) and the registration (OAUTH_STATELESS_CLIENT_TTL_SECONDS, one day)
      // have run out. The client connects again, so one request meets the expired token and the SDK
      // refreshes once.
      clock = DAY + 60_000;
      const again = connectWith(served, provider);
      await again.connect();
      expect(structured<{ name: string }>(await call(again.client, getMain)).name).toBe('main');
      expect(provider.tokens()!.refresh_token).not.toBe(before.refresh_token);
      expect(provider.clientInformation()!.client_id).toBe(clientId);
      expect(provider.authorizationUrl).toBe(signInStarted);
      await again.client.close();
    },
  );

  test('stateful with OAUTH_STATELESS_SECRET: after a restart, which forgets the registration, the SDK refreshes and the call succeeds', async () => {
    const served = await serve({ env: { OAUTH_STATELESS_SECRET: SECRET } });
    const { provider, client } = await signInWithSdk(served);
    await client.close();
    const { client_id: clientId } = provider.clientInformation()!;
    await served.restart();
    clock = 2 * 3_600_000; // the access token has run out
    const again = connectWith(served, provider);
    await again.connect();
    expect(structured<{ name: string }>(await call(again.client, getMain)).name).toBe('main');
    expect(provider.clientInformation()!.client_id).toBe(clientId);
    await again.client.close();
  });

  test('once the refresh token has run out too, the SDK is told invalid_client, so it registers again before it sends the user to sign in', async () => {
    const served = await serve({ env: { OAUTH_STATELESS_MODE: 'true' } });
    const { provider, client } = await signInWithSdk(served);
    await client.close();
    const { client_id: clientId } = provider.clientInformation()!;
    clock = 31 * DAY;
    await expect(connectWith(served, provider).connect()).rejects.toThrow(UnauthorizedError);
    // A new registration, whose id /authorize accepts: the sign-in completes.
    const renewed = provider.clientInformation()!.client_id;
    expect(renewed).not.toBe(clientId);
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(renewed);
    const landing = await provider.completeSignIn();
    expect(landing.code).toStartWith('v1.pc.');
  });
});

describe('stateless replicas sharing a secret', () => {
  test('every step of the sign-in lands on another replica than the one before, then the tool call works', async () => {
    const served = await serve({ replicas: 2, env: { OAUTH_STATELESS_MODE: 'true' } });
    const steps: Record<string, number> = { '/register': 0, '/authorize': 1, '/consent': 0, '/callback': 1, '/token': 0, '/mcp': 1 };
    const seen: string[] = [];
    served.route = (request) => {
      const path = new URL(request.url).pathname;
      seen.push(path);
      return steps[path] ?? 0;
    };
    const { provider, landing, client } = await signInWithSdk(served);
    expect(provider.clientInformation()!.client_id).toStartWith('v1.cid.');
    expect(landing.code).toStartWith('v1.pc.');
    expect(structured<{ name: string }>(await call(client, getMain)).name).toBe('main');
    for (const path of Object.keys(steps)) expect(seen).toContain(path);
    expect(served.hits[0]).toBeGreaterThan(0);
    expect(served.hits[1]).toBeGreaterThan(0);
    await client.close();
  });

  test('a client registered on one replica finishes on the other', async () => {
    const served = await serve({ replicas: 2, env: { OAUTH_STATELESS_MODE: 'true' } });
    served.route = (request) => (new URL(request.url).pathname === '/register' ? 0 : 1);
    const { client } = await signInWithSdk(served);
    expect(structured<{ name: string }>(await call(client, getMain)).name).toBe('main');
    await client.close();
  });
});

describe('logs', () => {
  test('a whole sign-in, refresh and tool call log no token, code, verifier, state, client id or secret', async () => {
    const { logger, lines } = capturingLogger();
    const served = await serve({ replicas: 1, confidential: true, logger, env: { OAUTH_STATELESS_MODE: 'true' } });
    const { provider, landing, client } = await signInWithSdk(served);
    forge.oauth.expire(provider.tokens()!.access_token);
    clock = 61_000;
    expect(structured<{ name: string }>(await call(client, getMain)).name).toBe('main');
    await client.close();
    const log = lines.join('');
    const events = lines.map((l) => JSON.parse(l).event as string);
    expect(events).toEqual(expect.arrayContaining(['client_registered', 'oauth_consent', 'oauth_callback', 'oauth_token', 'tool_call']));
    const secrets = [
      provider.tokens()!.access_token,
      provider.tokens()!.refresh_token!,
      landing.code!,
      provider.codeVerifier(),
      provider.clientInformation()!.client_id,
      FORGE_APP_SECRET,
      // What went to the forge: codes, verifiers, refresh tokens, the sealed state.
      ...forge.requests.flatMap((r) => Object.values((r.body as Record<string, string>) ?? {})).filter((v) => typeof v === 'string' && v.length >= 20),
      ...forge.requests.flatMap((r) => ['state', 'code', 'code_challenge'].map((name) => r.query.get(name))).filter((v): v is string => !!v),
    ];
    expect(secrets.some((v) => v.startsWith('v1.ps.'))).toBe(true);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
