// One deployment, several forges: X-Forge-API-URL picks the forge per session (two fake forges on
// different ports), a refused URL never receives the token nor has it logged, the scheme is part of
// what is allowed, and the header is ignored when the feature is off. The fake forges are plain
// http, so they are allowed as `http://127.0.0.1:PORT` (D7/D8: a port alone means https).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { sealerFromConfig } from '../src/sealing/from-config';
import type { Sealer } from '../src/sealing/sealer';
import { useApps } from './support/apps';
import { testConfig } from './support/config';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { capturingLogger } from './support/log-capture';
import { INITIALIZE, connect, modernRpc, rpc, structured } from './support/mcp-client';

let one: FakeForge;
let two: FakeForge;
let evil: ReturnType<typeof Bun.serve>;
let evilHits = 0;
const apps = useApps(() => one.apiUrl, 'all');

beforeAll(async () => {
  one = await startFakeForge();
  two = await startFakeForge();
  evil = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => (evilHits++, Response.json({})) });
});
beforeEach(() => {
  one.reset();
  two.reset();
  evilHits = 0;
});
afterAll(async () => {
  await one.stop();
  await two.stop();
  evil.stop(true);
});

const makeApp = (overrides: Record<string, string>, logger = capturingLogger().logger, sealer?: Sealer) =>
  apps({ ENABLE_DYNAMIC_API_URL: 'true', FORGE_ALLOWED_HOSTS: new URL(two.apiUrl).origin, ...overrides }, { logger, sealer });

const args = { project_id: String(SEED.project), branch_name: 'main' };

describe('ENABLE_DYNAMIC_API_URL=true', () => {
  test('each session talks to the forge it named; later requests need not repeat the header', async () => {
    const app = makeApp({});
    const toTwo = await connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': two.apiUrl.replace('/api/v4', '') });
    const toDefault = await connect(app, { 'Private-Token': TOKENS.developer });
    structured(await toTwo.call('get_branch', args));
    structured(await toDefault.call('get_branch', args));
    // Each token was checked (D7) and used at the forge its session named, and only there.
    const seen = (forge: FakeForge) => forge.requests.map((r) => `${r.method} ${r.path} ${r.headers.get('private-token')}`);
    const branch = `GET /api/v4/projects/${SEED.project}/repository/branches/main`;
    // The check, what the token may do (D38), then the call.
    expect(seen(two)).toEqual([
      `GET /api/v4/user ${TOKENS.maintainer}`,
      `GET /api/v4/personal_access_tokens/self ${TOKENS.maintainer}`,
      `${branch} ${TOKENS.maintainer}`,
    ]);
    expect(seen(one)).toEqual([
      `GET /api/v4/user ${TOKENS.developer}`,
      `GET /api/v4/personal_access_tokens/self ${TOKENS.developer}`,
      `${branch} ${TOKENS.developer}`,
    ]);

    // A request carrying only the session id still goes to the session's forge.
    const sid = toTwo.transport.sessionId!;
    const response = await rpc(
      app,
      { jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'get_branch', arguments: args } },
      { 'mcp-session-id': sid },
    );
    expect(response.status).toBe(200);
    expect(two.requests).toHaveLength(4);
    expect(app.pool.size).toBe(2);
  });

  test.each([
    ['a port of an allowed host that is not allowed', () => `http://127.0.0.1:${evil.port}/api/v4`, 'its port is not allowed for that host'],
    ['a host that is not allowed', () => `http://localhost:${evil.port}/api/v4`, 'its host is not an allowed forge (FORGE_API_URL, FORGE_ALLOWED_HOSTS)'],
    [
      'userinfo trick',
      () => `http://${new URL(two.apiUrl).host}@127.0.0.1:${evil.port}`,
      'it holds a user name or password; credentials go in headers, never in the URL',
    ],
    ['not a URL', () => 'gitlab', 'not an absolute http(s) URL'],
  ])('%s → 400 "Invalid custom API URL provided: <why>", a warning, and nothing sent anywhere', async (_, url, why) => {
    const capture = capturingLogger();
    const app = makeApp({}, capture.logger);
    const response = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': url() });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(`Invalid custom API URL provided: ${why}`);
    expect(capture.entries().some((e) => e.level === 'warn' && e.event === 'forge_url_refused' && e.reason === why)).toBe(true);
    expect(capture.lines.join('')).not.toContain(TOKENS.maintainer);
    expect(app.sessions.size).toBe(0);
    expect(evilHits + one.requests.length + two.requests.length).toBe(0);
  });

  test('a refused URL on a later request of a live session is refused too', async () => {
    const app = makeApp({});
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer });
    const sid = session.transport.sessionId!;
    const response = await rpc(
      app,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_branch', arguments: args } },
      { 'mcp-session-id': sid, 'X-Forge-API-URL': `http://127.0.0.1:${evil.port}` },
    );
    expect(response.status).toBe(400);
    expect(evilHits).toBe(0);
  });

  test('without a credential or a session, the forge a request names is not judged: 401 on both lanes, whatever it names', async () => {
    const app = makeApp({});
    const call = { name: 'get_branch', arguments: args };
    const answers = async (url: string) => {
      const legacy = await rpc(app, INITIALIZE, { 'X-Forge-API-URL': url });
      const modern = await modernRpc(app, 8, 'tools/call', call, { 'X-Forge-API-URL': url });
      return [
        legacy.status,
        ((await legacy.json()) as { error: { message: string } }).error.message,
        modern.status,
        ((await modern.json()) as { error: { message: string } }).error.message,
      ];
    };
    // An allowed forge and a refused one are told apart only to a caller who may use them.
    const missing = 'Missing Authorization or Private-Token header';
    expect(await answers(`http://127.0.0.1:${evil.port}`)).toEqual([401, missing, 401, missing]);
    expect(await answers(two.apiUrl)).toEqual([401, missing, 401, missing]);
    expect(await answers('not a url')).toEqual([401, missing, 401, missing]);
    expect(evilHits + one.requests.length + two.requests.length).toBe(0);
    // With a credential the refused forge is named as such.
    expect(
      (await modernRpc(app, 9, 'tools/call', call, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': `http://127.0.0.1:${evil.port}` })).status,
    ).toBe(400);
  });

  test.each([
    ['stateful', {}],
    ['stateless', { OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: Buffer.alloc(32, 3).toString('base64url') }],
  ])('%s: the token a session keeps goes only to its own forge; a request bringing its own may name another', async (_, mode) => {
    const capture = capturingLogger();
    const config = testConfig(one.apiUrl, mode);
    const app = makeApp(mode, capture.logger, config.OAUTH_STATELESS_MODE ? await sealerFromConfig(config) : undefined);
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': two.apiUrl });
    const sid = session.transport.sessionId!;
    const call = { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'get_branch', arguments: args } };
    one.reset();
    two.reset();
    // Only the session id, naming the deployment's other allowed forge: refused, nothing sent.
    const moved = await rpc(app, call, { 'mcp-session-id': sid, 'X-Forge-API-URL': one.apiUrl });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as { error: { message: string } }).error.message).toBe('Invalid custom API URL provided: session opened for another forge');
    expect(one.requests.length + two.requests.length).toBe(0);
    expect(capture.entries().find((e) => e.event === 'forge_url_refused')).toMatchObject({ level: 'warn', reason: 'session opened for another forge' });
    // Naming the session's own forge is the same as naming none.
    expect((await rpc(app, call, { 'mcp-session-id': sid, 'X-Forge-API-URL': two.apiUrl })).status).toBe(200);
    expect(two.requests.map((r) => r.headers.get('private-token'))).toEqual([TOKENS.maintainer]);
    // A request with its own credential is served with it, at the forge it names (D9).
    expect((await rpc(app, call, { 'mcp-session-id': sid, 'Private-Token': TOKENS.developer, 'X-Forge-API-URL': one.apiUrl })).status).toBe(200);
    expect(one.requests.filter((r) => r.path.includes('/repository/')).map((r) => r.headers.get('private-token'))).toEqual([TOKENS.developer]);
  });

  test('a custom path prefix is kept: https://h/gitlab → https://h/gitlab/api/v4', async () => {
    const paths: string[] = [];
    const prefixed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => (paths.push(new URL(r.url).pathname), Response.json({ name: 'main' })) });
    const app = makeApp({ FORGE_ALLOWED_HOSTS: `http://127.0.0.1:${prefixed.port}` });
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': `http://127.0.0.1:${prefixed.port}/gitlab` });
    structured(await session.call('get_branch', { project_id: 'a/b', branch_name: 'main' }));
    expect(paths).toEqual(['/gitlab/api/v4/user', '/gitlab/api/v4/personal_access_tokens/self', '/gitlab/api/v4/projects/a%2Fb/repository/branches/main']);
    prefixed.stop(true);
  });
});

describe('the scheme is part of what is allowed (D7/D8)', () => {
  test('a host:port entry allows that host and port, as docs/spec.md rule 3 compares them: plain http is served', async () => {
    const app = makeApp({ FORGE_ALLOWED_HOSTS: new URL(two.apiUrl).host });
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': two.apiUrl });
    structured(await session.call('get_branch', args));
    // The check, what the token may do (D38), then the call.
    expect(two.requests.map((r) => r.headers.get('private-token'))).toEqual([TOKENS.maintainer, TOKENS.maintainer, TOKENS.maintainer]);
    expect(one.requests).toHaveLength(0);
  });

  test.each([
    [
      'an https:// entry: plain http to it is refused',
      () => `https://${new URL(two.apiUrl).host}`,
      () => two.apiUrl,
      'its scheme is not allowed for that host and port',
    ],
    [
      'an http:// entry on the default port: https with no port written is refused for its scheme',
      () => `http://${new URL(two.apiUrl).hostname}`,
      () => `https://${new URL(two.apiUrl).hostname}/api/v4`,
      'its scheme is not allowed for that host',
    ],
    [
      'a bare host entry means https on 443: plain http on another port is refused',
      () => new URL(two.apiUrl).hostname,
      () => two.apiUrl,
      'its port is not allowed for that host',
    ],
  ])('%s, saying why, and the token goes nowhere', async (_, allowed, named, why) => {
    const app = makeApp({ FORGE_ALLOWED_HOSTS: allowed() });
    const response = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': named() });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(`Invalid custom API URL provided: ${why}`);
    expect(one.requests.length + two.requests.length).toBe(0);
  });

  test('a FORGE_API_URL entry allows its own scheme only: https to a plain-http forge is refused', async () => {
    const app = makeApp({ FORGE_ALLOWED_HOSTS: '' });
    const response = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': one.apiUrl.replace('http:', 'https:') });
    expect(response.status).toBe(400);
    expect(one.requests).toHaveLength(0);
  });
});

describe('a refused URL in the log (D5)', () => {
  test.each([
    ["the request's own token as a host label", () => `https://${TOKENS.maintainer}.evil.example`],
    ['a token with underscores in the host', () => 'https://glpat_Xy7fQ2mN9pL4kR8sT1vW.evil.example'],
    ['another GitLab token as a host label', () => 'https://glpat-someoneelses0000000.evil.example'],
    ['a token after userinfo', () => `https://user:${TOKENS.developer}@glpat-x${TOKENS.developer}.example`],
    ['a huge host', () => `https://${'a'.repeat(5000)}.example`],
  ])('%s: the line names the host as `invalid`, and no token-like value appears', async (_, url) => {
    const capture = capturingLogger();
    const app = makeApp({}, capture.logger);
    const response = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': url() });
    expect(response.status).toBe(400);
    expect(
      capture
        .entries()
        .filter((e) => e.event === 'forge_url_refused')
        .map((e) => e.host),
    ).toEqual(['invalid']);
    const all = capture.lines.join('');
    for (const secret of [TOKENS.maintainer, TOKENS.maintainer.toLowerCase(), TOKENS.developer, 'glpat_', 'glpat-someone', 'aaaaaaaaaa'])
      expect(all).not.toContain(secret);
  });

  test('a plain host that is not allowed is named', async () => {
    const capture = capturingLogger();
    const app = makeApp({}, capture.logger);
    await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': 'https://Evil.Example:8443/api/v4' });
    expect(
      capture
        .entries()
        .filter((e) => e.event === 'forge_url_refused')
        .map((e) => e.host),
    ).toEqual(['evil.example']);
  });
});

describe('ENABLE_DYNAMIC_API_URL=false (default)', () => {
  test('X-Forge-API-URL is ignored, valid or not', async () => {
    const app = makeApp({ ENABLE_DYNAMIC_API_URL: 'false' });
    const session = await connect(app, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': two.apiUrl });
    structured(await session.call('get_branch', args));
    expect(one.requests.map((r) => r.path)).toEqual([
      '/api/v4/user',
      '/api/v4/personal_access_tokens/self',
      `/api/v4/projects/${SEED.project}/repository/branches/main`,
    ]);
    expect(two.requests).toHaveLength(0);
    const junk = await rpc(app, INITIALIZE, { 'Private-Token': TOKENS.maintainer, 'X-Forge-API-URL': 'javascript:alert(1)' });
    expect(junk.status).toBe(200);
  });
});
