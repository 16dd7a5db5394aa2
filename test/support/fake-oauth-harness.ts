// OAuth mode on real ports: the fake forge (with its OAuth provider and this server's application
// registered there) and one or more app replicas behind one address, as an ingress would put them.
// `route` picks the replica of each request (default: the first), so a test can send every step of
// a sign-in to another replica.
import { afterAll, beforeAll, beforeEach } from 'bun:test';
import { createApp, type ForgeApp } from '../../src/app';
import type { Logger } from '../../src/logging/logger';
import { sealerFromConfig } from '../../src/sealing/from-config';
import { testConfig } from './config';
import { startFakeForge, type FakeForge } from './fake-forge';

export const FORGE_APP_ID = 'forge-mcp-app-uid-0001';
export const FORGE_APP_SECRET = 'forge-mcp-app-secret-0001';
export const SECRET = Buffer.alloc(32, 7).toString('base64url');

export interface ServedOAuth {
  /** MCP_SERVER_URL: the address every replica is reached at. */
  url: string;
  apps: ForgeApp[];
  /** Which replica answers a request; `hits` counts per replica. */
  route: (request: Request) => number;
  hits: number[];
  /**
   * Replaces replica `i` with a new app of the same settings, as a restarted process: everything it
   * held in memory is gone, and its keys are derived again (from OAUTH_STATELESS_SECRET when set).
   */
  restart(i?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ServeOptions {
  replicas?: number;
  /** Settings beside the OAuth ones (e.g. OAUTH_STATELESS_MODE, MCP_OAUTH_CONSENT). */
  env?: Record<string, string>;
  now?: () => number;
  /** Register this server's application at the fake forge as confidential (with a secret). */
  confidential?: boolean;
  logger?: Logger;
  /** FORGE_API_URL when it is not the fake forge's own (a forge that cannot be reached, or does not answer). */
  apiUrl?: string;
}

/** The settings of OAuth mode against `forge` for a server reached at `url`. */
export function oauthEnv(forge: FakeForge, url: string, env: Record<string, string> = {}, confidential = false): Record<string, string> {
  const stateless = env.OAUTH_STATELESS_MODE === 'true';
  return {
    REMOTE_AUTHORIZATION: 'false',
    FORGE_MCP_OAUTH: 'true',
    MCP_SERVER_URL: url,
    FORGE_OAUTH_CLIENT_ID: FORGE_APP_ID,
    ...(confidential ? { FORGE_OAUTH_CLIENT_SECRET: FORGE_APP_SECRET } : {}),
    ...(stateless ? { OAUTH_STATELESS_SECRET: SECRET } : {}),
    ...env,
  };
}

/** Registers this server's application at the fake forge (again after each forge reset); several servers add their callbacks. */
export function registerForgeApp(forge: FakeForge, url: string, confidential = false): void {
  const existing = forge.oauth.apps.get(FORGE_APP_ID);
  const redirectUris = [...(existing?.redirectUris ?? []), `${url}/callback`];
  forge.oauth.registerApp({ uid: FORGE_APP_ID, secret: confidential ? FORGE_APP_SECRET : existing?.secret, redirectUris, scopes: ['api', 'read_api'] });
}

export async function serveOAuth(forge: FakeForge, options: ServeOptions = {}): Promise<ServedOAuth> {
  const apps: ForgeApp[] = [];
  const hits: number[] = [];
  const served = { apps, hits, route: () => 0 } as unknown as ServedOAuth;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request, srv) {
      const i = served.route(request);
      hits[i]++;
      return apps[i].handle(request, srv.requestIP(request)?.address);
    },
  });
  served.url = `http://127.0.0.1:${server.port}`;
  const config = testConfig(options.apiUrl ?? forge.apiUrl, oauthEnv(forge, served.url, options.env, options.confidential));
  // Each replica derives its own keys (from the shared secret when set), as separate processes would.
  const start = async () => createApp(config, { now: options.now, logger: options.logger, sealer: await sealerFromConfig(config, options.now) });
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    apps.push(await start());
    hits.push(0);
  }
  served.restart = async (i = 0) => {
    await apps[i].close();
    apps[i] = await start();
  };
  served.stop = async () => {
    await server.stop(true);
    await Promise.all(apps.map((a) => a.close()));
  };
  return served;
}

/** Before each test: a fresh forge with this server's application registered for each served address. */
export function resetForge(forge: FakeForge, ...servers: ServedOAuth[]): void {
  forge.reset();
  for (const s of servers) registerForgeApp(forge, s.url);
}

/** After all tests: every served app, then the forge. */
export async function stopAll(forge: FakeForge, ...servers: ServedOAuth[]): Promise<void> {
  await Promise.all(servers.map((s) => s.stop()));
  await forge.stop();
}

export type OAuthServers<K extends string> = { forge: FakeForge } & { [name in K]: ServedOAuth };

/**
 * The OAuth set-up of a test file: a fake forge and one served app per entry of `specs`, started
 * before the file's tests; before each test the forge is reset (resetForge) and every server routes
 * to its first replica again; after the file all are stopped (stopAll). The returned object is
 * filled once the file's first beforeAll has run.
 */
export function useOAuthServers<K extends string>(specs: Record<K, ServeOptions>): OAuthServers<K> {
  const setup = {} as OAuthServers<K>;
  const served = setup as unknown as Record<K, ServedOAuth>;
  const names = Object.keys(specs) as K[];
  const servers = () => names.map((name) => served[name]);
  beforeAll(async () => {
    setup.forge = await startFakeForge();
    for (const name of names) served[name] = await serveOAuth(setup.forge, specs[name]);
  });
  beforeEach(() => {
    resetForge(setup.forge, ...servers());
    for (const server of servers()) server.route = () => 0;
  });
  afterAll(() => stopAll(setup.forge, ...servers()));
  return setup;
}
