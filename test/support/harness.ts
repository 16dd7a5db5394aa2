// One fake forge on a loopback port plus the app pointed at it, and MCP clients per token:
// what most tool tests need. The forge is reset before each test.
import { afterAll, afterEach, beforeAll, beforeEach } from 'bun:test';
import { createApp, type ForgeApp } from '../../src/app';
import { testConfig } from './config';
import { startFakeForge, TOKENS, type FakeForge } from './fake-forge';
import { connect, MCP_URL, type Connected, type Lane } from './mcp-client';

export interface Harness {
  forge: FakeForge;
  app: ForgeApp;
  /** A connected client acting with the given token (default: maintainer). */
  as(token?: string, header?: string): Promise<Connected>;
  /**
   * A client whose token the forge accepted when it connected (a session opens only for such a
   * token, D7) and has revoked since: every later forge call with it gets 401.
   */
  asRevoked(): Promise<Connected>;
  /** A client on the given lane (D27) acting with the token; the credential check of connecting is left out of the record. */
  on(lane: Lane, token?: string): Promise<Connected>;
  /**
   * Upstream requests recorded since the test began, as "METHOD /path", without the credential
   * check a client's connect makes (D7; `as` drops it from the record): what the tools sent.
   */
  upstream(): string[];
  /** `upstream()` without the credential check the modern lane makes beside a credential's first call (D35). */
  toolUpstream(): string[];
}

export function useHarness(overrides: Record<string, string> = {}): Harness {
  const clients: Connected[] = [];
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.forge = await startFakeForge();
    harness.app = createApp(testConfig(harness.forge.apiUrl, overrides));
  });
  beforeEach(() => {
    harness.forge.reset();
    // Tests switch the fake's edition: what the server learnt of the last one does not carry over.
    harness.app.instances.clear();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await harness.app.close();
    await harness.forge.stop();
  });
  harness.as = async (token = TOKENS.maintainer, header = 'Private-Token') => {
    const value = header === 'Authorization' ? `Bearer ${token}` : token;
    const before = harness.forge.requests.length;
    const client = await connect(harness.app, { [header]: value });
    harness.forge.requests.splice(before); // the credential check of initialize (D7), cached after the first connect
    clients.push(client);
    return client;
  };
  harness.asRevoked = async () => {
    const token = `glpat-revoked-${crypto.randomUUID()}`;
    harness.forge.model.tokens.set(token, { userId: 1, kind: 'personal' });
    const client = await harness.as(token);
    harness.forge.model.tokens.delete(token);
    return client;
  };
  harness.on = async (lane, token = TOKENS.maintainer) => {
    if (lane === 'legacy') return harness.as(token);
    const before = harness.forge.requests.length;
    const client = await connect(harness.app, { 'Private-Token': token }, MCP_URL, { lane: 'modern' });
    harness.forge.requests.splice(before);
    clients.push(client);
    return client;
  };
  harness.upstream = () => harness.forge.requests.map((r) => `${r.method} ${r.path}`);
  harness.toolUpstream = () => harness.upstream().filter((r) => r !== 'GET /api/v4/user');
  return harness;
}
