// OAuth counters (D11, item 5 of the OAuth issue) as an operator reads them: the `oauth` object of
// /metrics.json and the forge_mcp_oauth_…_total counters of /metrics, each moving with its event.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { testConfig } from './support/config';
import { startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
let app: ForgeApp;
beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl));
});
afterAll(async () => {
  await app.close();
  await forge.stop();
});

const json = async () => ((await (await app.handle(new Request('http://localhost/metrics.json'))).json()) as Record<string, any>).oauth;
const text = async () => (await app.handle(new Request('http://localhost/metrics'))).text();

describe('OAuth counters', () => {
  test('start at zero in /metrics.json and /metrics', async () => {
    expect(await json()).toEqual({
      registrations: 0,
      metadataFetches: { ok: 0, refused: 0, failed: 0 },
      authorizations: { approved: 0, denied: 0 },
      tokenGrants: { ok: 0, refused: 0 },
      tokenRefreshes: { ok: 0, refused: 0 },
      bearerRefusals: {},
    });
    const t = await text();
    expect(t).toContain('# TYPE forge_mcp_oauth_registrations_total counter\nforge_mcp_oauth_registrations_total 0\n');
    expect(t).toContain('forge_mcp_oauth_metadata_fetches_total{outcome="refused"} 0\n');
    expect(t).toContain('# TYPE forge_mcp_oauth_bearer_refusals_total counter\n');
  });

  test('each event moves its own counter and no other', async () => {
    const record = (e: Parameters<typeof app.metrics.oauth.record>[0]) => app.metrics.oauth.record(e);
    record({ kind: 'registration' });
    record({ kind: 'metadata_fetch', outcome: 'ok' });
    record({ kind: 'metadata_fetch', outcome: 'failed' });
    record({ kind: 'metadata_fetch', outcome: 'failed' });
    record({ kind: 'authorization', outcome: 'denied' });
    record({ kind: 'token', grant: 'authorization_code', outcome: 'ok' });
    record({ kind: 'token', grant: 'refresh_token', outcome: 'refused' });
    record({ kind: 'bearer_refused', reason: 'expired' });
    record({ kind: 'bearer_refused', reason: 'expired' });
    record({ kind: 'bearer_refused', reason: 'audience' });
    expect(await json()).toEqual({
      registrations: 1,
      metadataFetches: { ok: 1, refused: 0, failed: 2 },
      authorizations: { approved: 0, denied: 1 },
      tokenGrants: { ok: 1, refused: 0 },
      tokenRefreshes: { ok: 0, refused: 1 },
      bearerRefusals: { expired: 2, audience: 1 },
    });
    const t = await text();
    for (const line of [
      'forge_mcp_oauth_registrations_total 1',
      'forge_mcp_oauth_metadata_fetches_total{outcome="ok"} 1',
      'forge_mcp_oauth_metadata_fetches_total{outcome="failed"} 2',
      'forge_mcp_oauth_authorizations_total{outcome="approved"} 0',
      'forge_mcp_oauth_authorizations_total{outcome="denied"} 1',
      'forge_mcp_oauth_token_grants_total{outcome="ok"} 1',
      'forge_mcp_oauth_token_refreshes_total{outcome="refused"} 1',
      'forge_mcp_oauth_bearer_refusals_total{reason="expired"} 2',
      'forge_mcp_oauth_bearer_refusals_total{reason="audience"} 1',
    ])
      expect(t).toContain(`\n${line}\n`);
  });
});
