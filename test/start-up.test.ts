// D47 against real processes: the `listening` line names the /mcp URL, the forge (or "per request"
// with the hosts a request may name), the lanes' revisions, the tool groups, the auth mode and
// tracing; every setting that weakens security is named in a warning, and no secret is written.
// weakeningSettings is also checked as a table, each weakening alone.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { loadConfig } from '../src/config/load';
import { weakeningSettings } from '../src/config/weakening';
import { startFakeForge, type FakeForge } from './support/fake-forge';
import { startServer, type Started } from './support/process';

setDefaultTimeout(20_000);

let forge: FakeForge;
const started: Started[] = [];

beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  for (const server of started) await server.stop();
  await forge?.stop();
});

async function logOf(env: Record<string, string>): Promise<{ url: string; lines: Record<string, unknown>[] }> {
  const server = await startServer(env);
  started.push(server);
  const lines = server
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { url: server.url, lines };
}

const listening = (lines: Record<string, unknown>[]) => lines.find((line) => line.event === 'listening')!;
const warned = (lines: Record<string, unknown>[]) => lines.filter((line) => line.level === 'warn').map((line) => line.setting);

describe('the start line (D47)', () => {
  test('one forge, remote authorization: the /mcp URL, the forge, both lanes, the groups, the auth mode; no warning', async () => {
    const { url, lines } = await logOf({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'issues,pipelines' });
    expect(listening(lines)).toMatchObject({
      level: 'info',
      url,
      mcp_url: `${url}/mcp`,
      forge: forge.apiUrl,
      lanes: { modern: ['2026-07-28'], legacy: ['2025-11-25', '2025-06-18', '2025-03-26'] },
      tool_groups: ['issues', 'pipelines'],
      read_only: false,
      auth: 'remote',
      stateless: false,
      tracing: 'off',
    });
    expect(listening(lines).forge_allowed).toBeUndefined();
    expect(warned(lines)).toEqual([]);
  });

  test('a forge per request: "per request", the default, and the hosts a request may name; the public /mcp URL', async () => {
    const { lines } = await logOf({
      REMOTE_AUTHORIZATION: 'true',
      FORGE_API_URL: forge.apiUrl,
      ENABLE_DYNAMIC_API_URL: 'true',
      FORGE_ALLOWED_HOSTS: 'gitlab.example.com,git.corp.example:8443',
      MCP_SERVER_URL: 'https://mcp.example.com/',
    });
    expect(listening(lines)).toMatchObject({
      mcp_url: 'https://mcp.example.com/mcp',
      forge: 'per request',
      forge_default: forge.apiUrl,
      forge_allowed: [new URL(forge.apiUrl).origin, 'gitlab.example.com', 'git.corp.example:8443'],
    });
  });

  test('every weakening setting is named in a warning; secrets are not written', async () => {
    const clientSecret = 'oauth-client-secret-value-0123456789';
    const { lines } = await logOf({
      REMOTE_AUTHORIZATION: 'true',
      FORGE_API_URL: `${forge.apiUrl},http://gitlab.internal.example`,
      ENABLE_DYNAMIC_API_URL: 'true',
      FORGE_ALLOWED_HOSTS: 'http://other-forge.example,tls.example:443',
      FORGE_MCP_OAUTH: 'true',
      MCP_SERVER_URL: 'http://127.0.0.1:9',
      FORGE_OAUTH_CLIENT_ID: 'client-id',
      FORGE_OAUTH_CLIENT_SECRET: clientSecret,
      OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true',
      MCP_OAUTH_CONSENT: 'false',
      RUNTIME_TLS_REJECT_UNAUTHORIZED: 'false',
      FORGE_ALLOW_QUICK_ACTIONS: 'true',
    });
    expect(warned(lines).sort()).toEqual(
      [
        'FORGE_ALLOWED_HOSTS',
        'FORGE_ALLOW_QUICK_ACTIONS',
        'FORGE_API_URL',
        'MCP_OAUTH_CONSENT',
        'OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK',
        'RUNTIME_TLS_REJECT_UNAUTHORIZED',
      ].sort(),
    );
    const events = new Set(lines.filter((line) => line.level === 'warn').map((line) => line.event));
    expect(events).toEqual(new Set(['insecure_setting', 'tls_verification_disabled']));
    expect(lines.find((line) => line.setting === 'FORGE_API_URL')?.note).toBe("plain http to gitlab.internal.example: callers' tokens travel unencrypted");
    expect(lines.find((line) => line.setting === 'FORGE_ALLOWED_HOSTS')?.note).toBe(
      'an entry allows plain http to other-forge.example: tokens sent there travel unencrypted',
    );
    expect(listening(lines)).toMatchObject({ auth: 'oauth' });
    expect(JSON.stringify(lines)).not.toContain(clientSecret);
  });
});

describe('weakeningSettings, one at a time (D47)', () => {
  const HTTP = { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true' };
  const OAUTH = { STREAMABLE_HTTP: 'true', FORGE_MCP_OAUTH: 'true', MCP_SERVER_URL: 'https://mcp.example', FORGE_OAUTH_CLIENT_ID: 'c' };
  const names = (env: Record<string, string>) => weakeningSettings(loadConfig(env)).map((w) => w.setting);

  test('the defaults weaken nothing (HTTP, OAuth, stdio, a local static-token server)', () => {
    expect(names(HTTP)).toEqual([]);
    expect(names(OAUTH)).toEqual([]);
    expect(names({ FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-aaaaaaaaaaaaaaaaaaaa' })).toEqual([]);
    expect(names({ STREAMABLE_HTTP: 'true', FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-aaaaaaaaaaaaaaaaaaaa' })).toEqual([]);
    // Plain http to a loopback forge or collector is local traffic.
    expect(
      names({ ...HTTP, FORGE_API_URL: 'http://127.0.0.1:8080', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318', OTEL_EXPORTER_OTLP_HEADERS: 'k=v' }),
    ).toEqual([]);
    // https entries and host:443 take https only (D8).
    expect(names({ ...HTTP, ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: 'a.example,b.example:443,https://c.example:8443' })).toEqual([]);
  });

  test.each([
    [{ ...HTTP, RUNTIME_TLS_REJECT_UNAUTHORIZED: '0' }, 'RUNTIME_TLS_REJECT_UNAUTHORIZED'],
    [{ ...HTTP, FORGE_API_URL: 'http://gitlab.corp.example' }, 'FORGE_API_URL'],
    [{ ...HTTP, ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: 'git.corp.example:8080' }, 'FORGE_ALLOWED_HOSTS'],
    [{ ...HTTP, ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: 'http://git.corp.example' }, 'FORGE_ALLOWED_HOSTS'],
    [{ ...OAUTH, OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true' }, 'OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK'],
    [{ ...OAUTH, MCP_OAUTH_CONSENT: 'false' }, 'MCP_OAUTH_CONSENT'],
    [{ ...HTTP, FORGE_ALLOW_QUICK_ACTIONS: 'true' }, 'FORGE_ALLOW_QUICK_ACTIONS'],
    [{ STREAMABLE_HTTP: 'true', HOST: '0.0.0.0', FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-aaaaaaaaaaaaaaaaaaaa' }, 'REMOTE_AUTHORIZATION'],
    [{ ...HTTP, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=k' }, 'OTEL_EXPORTER_OTLP_HEADERS'],
  ])('%j → %s', (env, setting) => {
    expect(names(env)).toEqual([setting]);
  });

  test('a weakening that has no effect in the mode is not warned of (loopback documents without OAuth mode or without CIMD)', () => {
    expect(names({ ...HTTP, OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true' })).toEqual([]);
    expect(names({ ...OAUTH, OAUTH_CIMD_ENABLED: 'false', OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: 'true' })).toEqual([]);
  });

  test('a note never repeats a credential written into a URL', () => {
    const notes = weakeningSettings(
      loadConfig({ ...HTTP, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://user:pa55word@collector.example:4318', OTEL_EXPORTER_OTLP_HEADERS: 'k=v' }),
    );
    expect(JSON.stringify(notes)).not.toContain('pa55word');
  });
});
