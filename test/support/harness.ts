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
  /** Upstream requests recorded since the test began, as "METHOD /path". */
  upstream(): string[];
}

export function useHarness(overrides: Record<string, string> = {}): Harness {
  const clients: Connected[] = [];
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.forge = await startFakeForge();
    harness.app = createApp(testConfig(harness.forge.apiUrl, overrides));
  });
  beforeEach(() => harness.forge.reset());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await harness.app.close();
    await harness.forge.stop();
  });
  harness.as = async (token = TOKENS.maintainer, header = 'Private-Token') => {
    const value = header === 'Authorization' ? `Bearer ${token}` : token;
    const client = await connect(harness.app, { [header]: value });
    clients.push(client);
    return client;
  };
  harness.upstream = () => harness.forge.requests.map((r) => `${r.method} ${r.path}`);
  return harness;
}
