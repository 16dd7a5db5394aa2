// The real entry point starts in OAuth mode (stateful and stateless) and serves the discovery
// documents and registration; start-up refuses OAuth mode without its required settings.
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { runToExit, startServer, type Started } from './support/process';

setDefaultTimeout(30_000);
const started: Started[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

const OAUTH = {
  FORGE_MCP_OAUTH: 'true',
  MCP_SERVER_URL: 'https://mcp.example.com',
  FORGE_OAUTH_CLIENT_ID: 'app-uid',
  FORGE_OAUTH_CLIENT_SECRET: 'app-secret-never-logged',
  FORGE_API_URL: 'https://gitlab.example.com',
  LOG_LEVEL: 'debug',
};

describe('bun run src/index.ts in OAuth mode', () => {
  test.each([
    ['stateful', {}, /^[A-Za-z0-9_-]{32}$/],
    ['stateless', { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 3).toString('base64url') }, /^v1\.cid\./],
  ])('%s: serves the metadata and registers clients', async (_, extra, clientIdShape) => {
    const server = await startServer({ ...OAUTH, ...extra });
    started.push(server);
    const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
    expect(metadata.issuer).toBe('https://mcp.example.com');
    const response = await fetch(`${server.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://localhost:8787/callback'] }),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { client_id: string }).client_id).toMatch(clientIdShape);
    const challenge = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="api"',
    );
    expect(server.stderr()).not.toContain('app-secret-never-logged');
  });

  test.each([
    [{ MCP_SERVER_URL: '' }, 'MCP_SERVER_URL'],
    [{ FORGE_OAUTH_CLIENT_ID: '' }, 'FORGE_OAUTH_CLIENT_ID'],
  ])('refuses to start without %o', async (missing, name) => {
    const env = Object.fromEntries(Object.entries({ ...OAUTH, STREAMABLE_HTTP: 'true', ...missing }).filter(([, v]) => v !== ''));
    const { code, stderr } = await runToExit([], env);
    expect(code).toBe(2);
    expect(stderr).toContain(`${name}: required when FORGE_MCP_OAUTH=true`);
  });
});
