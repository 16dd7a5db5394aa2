// Client ID Metadata Documents over HTTP (D28, D24): a client id that is a URL, served from a
// Bun.serve on 127.0.0.1 with OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK=true. /authorize matches the
// document's redirect URIs (loopback on any port, custom schemes), refuses unusable documents as
// unknown clients (D22: 400 "Unregistered redirect_uri", then why) and never with a redirect, the
// consent page shows the document's host, and a whole sign-in through the fake forge ends in a token
// that works on /mcp.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { resetForge, serveOAuth, stopAll, type ServedOAuth } from './support/fake-oauth-harness';
import { REDIRECT, authorizeUrl, codeGrant, pkce, redeem, registerClient, signIn } from './support/fake-oauth-steps';

const LOOPBACK = { OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true' };

let forge: FakeForge;
let served: ServedOAuth;
let stateless: ServedOAuth;
let strict: ServedOAuth;
let documents: ReturnType<typeof Bun.serve>;
let docBase: string;
const bodies = new Map<string, unknown>();
const hits = new Map<string, number>();

beforeAll(async () => {
  forge = await startFakeForge();
  served = await serveOAuth(forge, { env: LOOPBACK });
  stateless = await serveOAuth(forge, { env: { ...LOOPBACK, OAUTH_STATELESS_MODE: 'true', MCP_OAUTH_CONSENT: 'false' } });
  strict = await serveOAuth(forge);
  documents = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (!bodies.has(path)) return new Response('not found', { status: 404 });
      const body = bodies.get(path);
      return typeof body === 'string' ? new Response(body) : Response.json(body);
    },
  });
  docBase = `http://127.0.0.1:${documents.port}`;
});
beforeEach(() => {
  bodies.clear();
  hits.clear();
  resetForge(forge, served, stateless, strict);
});
afterAll(async () => {
  await documents.stop(true);
  await stopAll(forge, served, stateless, strict);
});

/** Publishes a document at `path` and returns its client id. */
function publish(path: string, redirectUris: string[], extra: Record<string, unknown> = {}): string {
  const clientId = `${docBase}${path}`;
  bodies.set(path, { client_id: clientId, client_name: 'Loop Agent', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', ...extra });
  return clientId;
}

const get = (url: string) => fetch(url, { redirect: 'manual' });
const authorize = (base: string, clientId: string, redirectUri = REDIRECT) =>
  get(authorizeUrl(base, { client_id: clientId, redirect_uri: redirectUri, code_challenge: pkce().challenge }));

/** D22: a client whose document cannot be used is an unknown client; the reason follows docs/spec.md's text. */
async function expectRefused(response: Response, reason: string) {
  expect(response.status).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect(await response.json()).toEqual({ error: 'invalid_request', error_description: `Unregistered redirect_uri: ${reason}` });
}

async function expectUnregistered(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('location')).toBeNull();
  expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
}

describe('the consent page', () => {
  test("names the document's host prominently, and the name from the document", async () => {
    const clientId = publish('/agent.json', [REDIRECT], { client_name: 'Loop\u200B Agent' });
    const response = await authorize(served.url, clientId);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`Application published at <strong class="client-host" style="font-size:1.2rem">127.0.0.1:${documents.port}</strong>`);
    expect(html).toContain('<strong>Loop Agent</strong> wants to use');
    expect(html).not.toContain('registered with this server');
  });

  test('says a registered client is a registration', async () => {
    const response = await authorize(served.url, await registerClient(served.url));
    const html = await response.text();
    expect(html).toContain('Application registered with this server');
    expect(html).not.toContain('Application published at');
  });
});

describe('redirect URIs of a document', () => {
  test('a loopback redirect URI matches on any port', async () => {
    const clientId = publish('/portless.json', ['http://127.0.0.1/callback']);
    expect((await authorize(served.url, clientId, 'http://127.0.0.1:40001/callback')).status).toBe(200);
    expect((await authorize(stateless.url, clientId, 'http://127.0.0.1:40002/callback')).status).toBe(302);
  });

  test('a non-loopback redirect URI must match exactly: another port or path is refused', async () => {
    const clientId = publish('/web.json', ['https://app.example/cb']);
    expect((await authorize(served.url, clientId, 'https://app.example/cb')).status).toBe(200);
    await expectUnregistered(await authorize(served.url, clientId, 'https://app.example:8443/cb'));
    await expectUnregistered(await authorize(served.url, clientId, 'https://app.example/cb/'));
    await expectUnregistered(await authorize(served.url, clientId, 'http://127.0.0.1:33418/other'));
    expect(forge.requests).toEqual([]);
  });

  test('a custom scheme is accepted', async () => {
    const cursor = 'cursor://anysphere.cursor-mcp/oauth/callback';
    const clientId = publish('/cursor.json', [cursor]);
    const response = await authorize(served.url, clientId, cursor);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`<code>${cursor}</code>`);
  });

  test('plain http to a non-loopback host makes the document unusable', async () => {
    const clientId = publish('/plain.json', ['http://app.example/cb']);
    await expectRefused(
      await authorize(served.url, clientId, 'http://app.example/cb'),
      "the client metadata document's redirect_uris[0] http is allowed only for loopback addresses (localhost, 127.0.0.1, [::1]); use https",
    );
  });
});

describe('unusable documents at /authorize: D22\'s 400 "Unregistered redirect_uri" saying why, never a redirect', () => {
  test('a document for another client_id', async () => {
    const clientId = publish('/liar.json', [REDIRECT], { client_id: `${docBase}/someone-else.json` });
    await expectRefused(await authorize(served.url, clientId), "the client metadata document's client_id is not the URL it was fetched from");
    expect(forge.requests).toEqual([]);
  });

  test('a document that is not there', async () => {
    await expectRefused(await authorize(stateless.url, `${docBase}/nothing.json`), "the client metadata document's URL answered HTTP 404");
  });

  test('a document that is not JSON, or on a host that cannot be reached', async () => {
    bodies.set('/text.json', 'client_id: nope');
    for (const s of [served, stateless]) {
      await expectRefused(await authorize(s.url, `${docBase}/text.json`), 'the client metadata document is not JSON');
      // Port 1 on loopback: nothing listens there.
      await expectRefused(await authorize(s.url, 'http://127.0.0.1:1/gone.json'), 'the client metadata document could not be fetched (connection failed)');
    }
    expect(forge.requests).toEqual([]);
  });

  test('without the insecure-loopback allowance a loopback client id is refused before any request', async () => {
    const clientId = publish('/agent.json', [REDIRECT]);
    await expectRefused(await authorize(strict.url, clientId), 'the client_id URL must use https');
    await expectRefused(await authorize(strict.url, clientId.replace('http:', 'https:')), 'the client_id URL must use the default https port');
    expect(hits.size).toBe(0);
  });
});

describe('a whole sign-in with a metadata-document client id', () => {
  for (const mode of ['stateful with consent', 'stateless without consent'] as const) {
    test(`${mode}: authorize, the forge, the callback, /token as a public client with PKCE, then /mcp`, async () => {
      const s = mode === 'stateless without consent' ? stateless : served;
      const clientId = publish('/signin.json', ['http://127.0.0.1/callback']);
      const signedIn = await signIn(s.url, { clientId });
      expect(signedIn.landing.error).toBeUndefined();
      expect(signedIn.landing.code).toBeString();
      expect(signedIn.landing.url.href.startsWith(REDIRECT)).toBe(true);

      // Another client cannot redeem it, and neither can the client without the verifier.
      const otherId = publish('/other.json', [REDIRECT]);
      expect((await redeem(s.url, codeGrant(signedIn, { client_id: otherId }))).status).toBe(400);
      expect((await redeem(s.url, codeGrant(signedIn, { code_verifier: pkce().verifier }))).status).toBe(400);

      const response = await redeem(s.url, codeGrant(signedIn));
      expect(response.status).toBe(200);
      const tokens = (await response.json()) as { access_token: string; token_type: string };
      expect(tokens.token_type).toBe('Bearer');

      const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      });
      const client = new Client({ name: 'cimd-e2e', version: '1.0.0' });
      await client.connect(transport);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    });
  }
});
