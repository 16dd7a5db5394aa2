// One fake forge on a loopback port plus the app pointed at it, and MCP clients per token:
// what most tool tests need. The forge is reset before each test.
import { afterAll, afterEach, beforeAll, beforeEach } from 'bun:test';
import { createApp, type ForgeApp } from '../../src/app';
import { testConfig } from './config';
import { startFakeForge, TOKENS, type FakeForge } from './fake-forge';
import { connect, type Connected } from './mcp-client';

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
  /**
   * Upstream requests recorded since the test began, as "METHOD /path", without the credential
   * check a client's connect makes (D7; `as` drops it from the record): what the tools sent.
   */
  upstream(): string[];
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
  harness.upstream = () => harness.forge.requests.map((r) => `${r.method} ${r.path}`);
  return harness;
}
