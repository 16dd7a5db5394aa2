// Real OAuth clients end to end (issue: "Real clients end to end"): each signs in against the server
// on a loopback port in OAuth mode (fake-oauth-harness.ts), a person's part done by headless
// Chromium on the real consent page, then lists tools and calls one on the lane it was given (D27).
// Every client reports the tokens it ended up holding, so a test can check they are the server's own
// (D23) and that the forge never received any of them.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from './chromium';
import type { FakeForge } from './fake-forge';
import { SEED } from './fake-forge';
import { TestOAuthProvider } from './fake-oauth-client';
import type { ServedOAuth } from './fake-oauth-harness';
import { MODERN_VERSION, newClient, type Lane } from './mcp-client';

const MCP_REMOTE = resolve(import.meta.dir, '../../node_modules/mcp-remote/dist/proxy.js');

/** Headless Chromium, and a loopback site standing for the client: its redirect target and its metadata document. */
export interface E2eWorld {
  browser: BrowserContext;
  /** e.g. http://127.0.0.1:PORT — `/callback` answers "Signed in", `/client.json` is the metadata document. */
  site: string;
  /** How many times the server fetched the metadata document. */
  documentFetches: number;
  stop(): Promise<void>;
}

export async function startWorld(): Promise<E2eWorld> {
  const { context: browser, profile } = await launchChromium('forge-mcp-e2e-chromium-');
  const world = { browser, documentFetches: 0 } as E2eWorld;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === '/client.json' && ++world.documentFetches) return Response.json(metadataDocument(world.site), { headers: { 'cache-control': 'no-store' } });
      return new Response('<h1>Signed in</h1>', { headers: { 'content-type': 'text/html' } });
    },
  });
  world.site = `http://127.0.0.1:${server.port}`;
  world.stop = async () => {
    await browser.close();
    await server.stop(true);
    rmSync(profile, { recursive: true, force: true });
  };
  return world;
}

/** The Client ID Metadata Document (D28) of the CIMD client: its URL is its client id. */
export function metadataDocument(site: string) {
  return {
    client_id: `${site}/client.json`,
    client_name: 'E2E Metadata Client',
    redirect_uris: [`${site}/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

/** A person approving on the consent page in Chromium; resolves to where the browser landed. */
export async function approveInChromium(world: E2eWorld, authorizeUrl: string, landed: (url: URL) => boolean): Promise<URL> {
  const page = await world.browser.newPage();
  try {
    const response = await page.goto(authorizeUrl);
    if (response?.status() !== 200) throw new Error(`consent page: ${response?.status()} ${await response?.text()}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(landed);
    return new URL(page.url());
  } finally {
    await page.close();
  }
}

export interface Signed {
  /** The access and refresh tokens the client holds after signing in and calling a tool. */
  held: string[];
  /** The client id the server knows it by. */
  clientId: string;
  tools: string[];
  /** The get_branch result's name. */
  branch: string;
  version?: string;
  close(): Promise<void>;
}

export type ClientKind = 'v2-dcr' | 'v2-cimd' | 'mcp-remote';

function laneClient(lane: Lane): Client {
  return newClient({ lane });
}

async function exercise(client: Client) {
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const result = await client.callTool({ name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'main' } });
  if (result.isError) throw new Error(`get_branch failed: ${JSON.stringify(result.content)}`);
  return { tools, branch: (result.structuredContent as { name: string }).name, version: client.getNegotiatedProtocolVersion() };
}

/** A TestOAuthProvider whose client id is its metadata document's URL, known before any sign-in (D28). */
class MetadataDocumentProvider extends TestOAuthProvider {
  constructor(site: string) {
    super(`${site}/callback`, 'E2E Metadata Client');
    // The SDK sends a clientMetadataUrl only when it is https; a loopback document is http, so the
    // client id is handed over as already known client information, which the SDK uses as it is.
    this.saveClientInformation({ client_id: `${site}/client.json` });
  }
}

/** The v2 SDK client's own OAuth flow (its authProvider), by DCR or with a metadata-document client id. */
export async function signInV2(world: E2eWorld, served: ServedOAuth, lane: Lane, kind: 'v2-dcr' | 'v2-cimd'): Promise<Signed> {
  const provider = kind === 'v2-cimd' ? new MetadataDocumentProvider(world.site) : new TestOAuthProvider(`${world.site}/callback`, 'E2E DCR Client');
  const url = new URL(`${served.url}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const refused = await laneClient(lane)
    .connect(first)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  if (!(refused instanceof UnauthorizedError)) throw new Error(`expected the first connect to need a sign-in, got ${String(refused)}`);
  const landing = await approveInChromium(world, provider.authorizationUrl!.href, (u) => u.href.startsWith(`${world.site}/callback`));
  if (!landing.searchParams.get('code')) throw new Error(`no code: ${landing.href}`);
  await first.finishAuth(landing.searchParams);
  const client = laneClient(lane);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await client.connect(transport);
  const done = await exercise(client);
  const tokens = provider.tokens()!;
  return {
    ...done,
    held: [tokens.access_token, tokens.refresh_token ?? ''],
    clientId: provider.clientInformation()!.client_id,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/**
 * `mcp-remote` (a stdio proxy) with DCR, driven by the v2 client over stdio. Its BROWSER hook is a
 * script that writes the authorize URL to a file; Chromium then approves it and lands on
 * mcp-remote's own loopback callback. Its tokens are read from its config directory.
 */
export async function signInMcpRemote(world: E2eWorld, served: ServedOAuth, lane: Lane): Promise<Signed> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-mcp-e2e-mcp-remote-'));
  const opened = join(dir, 'opened.txt');
  const hook = join(dir, 'browser.sh');
  writeFileSync(hook, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  const transport = new StdioClientTransport({
    command: 'node',
    args: [MCP_REMOTE, `${served.url}/mcp`, '--transport', 'http-only'],
    env: { PATH: process.env.PATH ?? '', HOME: dir, BROWSER: hook, MCP_REMOTE_CONFIG_DIR: join(dir, 'auth'), DISPLAY: '' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = laneClient(lane);
  const connected = client.connect(transport);
  try {
    const authorizeUrl = await waitForLine(opened, 20_000, () => stderr);
    const redirect = new URL(new URL(authorizeUrl).searchParams.get('redirect_uri')!);
    await approveInChromium(world, authorizeUrl, (u) => u.port === redirect.port && u.pathname === redirect.pathname);
    await connected;
    const done = await exercise(client);
    const store = join(dir, 'auth', 'mcp-remote-v1');
    const read = (suffix: string) => JSON.parse(readFileSync(join(store, readdirSync(store).find((f) => f.endsWith(suffix))!), 'utf8'));
    const tokens = read('_tokens.json') as { access_token: string; refresh_token?: string };
    return {
      ...done,
      held: [tokens.access_token, tokens.refresh_token ?? ''],
      clientId: (read('_client_info.json') as { client_id: string }).client_id,
      close: async () => {
        await client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await client.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${String(e)}\nmcp-remote stderr:\n${stderr}`);
  }
}

async function waitForLine(file: string, timeoutMs: number, context: () => string): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const line = readFileSync(file, 'utf8').trim().split('\n').at(-1);
      if (line) return line;
    } catch {
      // not written yet
    }
    await Bun.sleep(50);
  }
  throw new Error(`mcp-remote never opened a browser\n${context()}`);
}

export function signIn(world: E2eWorld, served: ServedOAuth, lane: Lane, kind: ClientKind): Promise<Signed> {
  return kind === 'mcp-remote' ? signInMcpRemote(world, served, lane) : signInV2(world, served, lane, kind);
}

/** Every value of a forge request a token could travel in: headers, query and body. */
export function forgeSaw(forge: FakeForge): string {
  return forge.requests
    .map((r) => `${[...r.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${r.query.toString()}\n${JSON.stringify(r.body ?? null)}`)
    .join('\n');
}

export { MODERN_VERSION };
