// `bun run fake-forge` as a person runs it to try OAuth locally: it prints the OAuth application's
// id and secret and the server command, and that application signs in at the fake forge's OAuth
// provider on the same port with the redirect URI it printed (default or --redirect-uri).
import { afterEach, describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { pkce } from './support/fake-oauth-steps';

const SERVE = resolve(import.meta.dir, 'support/fake-forge/serve.ts');
let proc: ReturnType<typeof Bun.spawn> | undefined;
afterEach(async () => {
  proc?.kill();
  await proc?.exited;
  proc = undefined;
});

/** Starts the CLI and reads its start-up lines. */
async function start(args: string[]): Promise<string> {
  proc = Bun.spawn(['bun', 'run', SERVE, '--port', '0', ...args], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let out = '';
  while (!out.includes('start the server with:') || !out.endsWith('\n')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`fake forge exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return out;
}

const field = (out: string, re: RegExp) => re.exec(out)?.[1] ?? '';

async function signIn(out: string) {
  const apiUrl = field(out, /listening on (\S+)/);
  const origin = new URL(apiUrl).origin;
  const clientId = field(out, /client id (\S+),/);
  const secret = field(out, /secret (\S+),/);
  const redirectUri = field(out, /redirect URI (\S+)/);
  const p = pkce();
  const authorize = await fetch(
    `${origin}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', code_challenge: p.challenge, code_challenge_method: 'S256', state: 's1' })}`,
    { redirect: 'manual' },
  );
  expect(authorize.status).toBe(302);
  const code = new URL(authorize.headers.get('location')!).searchParams.get('code')!;
  const token = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: p.verifier,
      client_id: clientId,
      client_secret: secret,
    }).toString(),
  });
  expect(token.status).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  // The token works at the REST fake on the same port, as the maintainer.
  const user = await fetch(`${apiUrl}/user`, { headers: { authorization: `Bearer ${access_token}` } });
  expect(((await user.json()) as { username: string }).username).toBe('maria');
  return { apiUrl, clientId, secret, redirectUri };
}

describe('bun run fake-forge', () => {
  test('prints an OAuth application for http://127.0.0.1:3002/callback that signs in on the same port', async () => {
    const out = await start([]);
    const { apiUrl, clientId, secret, redirectUri } = await signIn(out);
    expect(redirectUri).toBe('http://127.0.0.1:3002/callback');
    expect(out).toContain(
      `--forge-mcp-oauth=true --mcp-server-url=http://127.0.0.1:3002 --forge-api-url=${apiUrl} --forge-oauth-client-id=${clientId} --forge-oauth-client-secret=${secret}`,
    );
  });

  test("--redirect-uri changes the application's redirect URI and the printed server URL", async () => {
    const out = await start(['--redirect-uri', 'http://127.0.0.1:4555/callback']);
    const { redirectUri } = await signIn(out);
    expect(redirectUri).toBe('http://127.0.0.1:4555/callback');
    expect(out).toContain('--port=4555 --forge-mcp-oauth=true --mcp-server-url=http://127.0.0.1:4555 ');
  });

  test('a redirect URI the application does not have is refused', async () => {
    const out = await start([]);
    const origin = new URL(field(out, /listening on (\S+)/)).origin;
    const response = await fetch(
      `${origin}/oauth/authorize?${new URLSearchParams({ client_id: field(out, /client id (\S+),/), redirect_uri: 'http://127.0.0.1:9999/callback', response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
  });
});
