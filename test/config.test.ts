import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig } from '../src/config/load';
import { SETTING_NAMES } from '../src/config/schema';
import { DEFAULT_TOOLS } from '../src/tools/default-set';

const HTTP_REMOTE = { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true' };
const SECRET = Buffer.alloc(32, 7).toString('base64url');

function refusal(env: Record<string, string>, argv: string[] = []): ConfigError {
  try {
    loadConfig(env, argv);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  test('defaults match SPEC and DECISIONS', () => {
    const c = loadConfig(HTTP_REMOTE);
    expect(c.PORT).toBe(3002);
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.MAX_SESSIONS).toBe(1000);
    expect(c.MAX_REQUESTS_PER_MINUTE).toBe(60);
    expect(c.FORGE_POOL_MAX_SIZE).toBe(100);
    expect(c.FORGE_POOL_IDLE_TIMEOUT).toBe(300000);
    expect(c.FORGE_POOL_CLEANUP_INTERVAL).toBe(60000);
    expect(c.FORGE_REQUEST_TIMEOUT_MS).toBe(30000);
    expect(c.OAUTH_STATELESS_CLIENT_TTL_SECONDS).toBe(86400);
    expect(c.OAUTH_STATELESS_PENDING_TTL_SECONDS).toBe(600);
    expect(c.OAUTH_STATELESS_STORED_TTL_SECONDS).toBe(120);
    expect(c.statelessSessionTtlSeconds).toBe(c.SESSION_TIMEOUT_SECONDS);
    expect(c.forgeApiUrls).toEqual(['https://gitlab.com/api/v4']);
    // D40: no whole group; the default set's tools by name.
    expect([...c.toolGroups]).toEqual([]);
    expect(c.toolNames).toBe(DEFAULT_TOOLS);
    expect(c.LOG_LEVEL).toBe('info');
  });

  test('the result is frozen', () => {
    const c = loadConfig(HTTP_REMOTE);
    expect(Object.isFrozen(c)).toBe(true);
    expect(() => {
      (c as { PORT: number }).PORT = 1;
    }).toThrow();
  });

  test('flags override the environment, may contain "=", and take a separate value', () => {
    const c = loadConfig({ ...HTTP_REMOTE, PORT: '4000', MCP_SERVER_URL: 'https://a.example' }, [
      '--port=5000',
      '--mcp-server-url=https://b.example/x?y=1',
      '--max-sessions',
      '7',
    ]);
    expect(c.PORT).toBe(5000);
    expect(c.MCP_SERVER_URL).toBe('https://b.example/x?y=1');
    expect(c.MAX_SESSIONS).toBe(7);
  });

  test('booleans accept true/false/1/0, and a bare boolean flag means true', () => {
    expect(loadConfig({ ...HTTP_REMOTE, FORGE_READ_ONLY_MODE: '1' }).FORGE_READ_ONLY_MODE).toBe(true);
    expect(loadConfig({ ...HTTP_REMOTE, FORGE_READ_ONLY_MODE: 'FALSE' }).FORGE_READ_ONLY_MODE).toBe(false);
    expect(loadConfig(HTTP_REMOTE, ['--forge-read-only-mode']).FORGE_READ_ONLY_MODE).toBe(true);
    expect(refusal({ ...HTTP_REMOTE, FORGE_READ_ONLY_MODE: 'yes' }).message).toBe('FORGE_READ_ONLY_MODE: must be true, false, 1 or 0 (got "yes")');
  });

  test.each([
    [{ PORT: 'abc' }, 'PORT: must be a whole number (got "abc")'],
    [{ PORT: '70000' }, 'PORT: must be between 0 and 65535 (got 70000)'],
    [{ MAX_SESSIONS: '0' }, 'MAX_SESSIONS: must be between 1 and 1000000 (got 0)'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of debug, info, warn, error (got "loud")'],
    [
      { FORGE_TOOLSETS: 'branches,snippets' },
      'FORGE_TOOLSETS: unknown tool group "snippets" (known: milestones, branches, issues, merge_requests, pipelines, repository, projects, users, search, labels, wiki, releases, context, variables, ci, work_items, all, default)',
    ],
    [
      { FORGE_TOOLSETS: ',' },
      'FORGE_TOOLSETS: names no tool group (known: milestones, branches, issues, merge_requests, pipelines, repository, projects, users, search, labels, wiki, releases, context, variables, ci, work_items, all, default)',
    ],
    [
      { FORGE_TOOLSETS: ' , ,' },
      'FORGE_TOOLSETS: names no tool group (known: milestones, branches, issues, merge_requests, pipelines, repository, projects, users, search, labels, wiki, releases, context, variables, ci, work_items, all, default)',
    ],
    [{ FORGE_API_URL: 'ftp://x' }, 'FORGE_API_URL: must be http(s) URLs without credentials (got "ftp://x")'],
    [{ MCP_SERVER_URL: 'not a url' }, 'MCP_SERVER_URL: must be an http(s) URL (got "not a url")'],
  ])('a bad value names the setting: %p', (env, message) => {
    expect(refusal({ ...HTTP_REMOTE, ...env }).message).toBe(message);
  });

  // D5: a refusal is written to stderr, and a URL's user and password are credentials. The message
  // shows the rest of the value, so the operator still sees which one is meant.
  test.each([
    [
      { FORGE_API_URL: 'https://alice:glpat-SeCrEt0123456789@gitlab.example.com' },
      'FORGE_API_URL: must be http(s) URLs without credentials (got "https://***@gitlab.example.com")',
    ],
    [
      { FORGE_API_URL: 'https://gitlab.com,https://:glpat-SeCrEt0123456789@x.example/api/v4' },
      'FORGE_API_URL: must be http(s) URLs without credentials (got "https://***@x.example/api/v4")',
    ],
    [{ HTTP_PROXY: 'socks5://alice:SeCrEt-proxy@proxy.example:1080' }, 'HTTP_PROXY: must be an http(s) URL (got "socks5://***@proxy.example:1080")'],
    [{ HTTPS_PROXY: 'http//alice:SeCrEt-proxy@proxy.example:3128' }, 'HTTPS_PROXY: must be an http(s) URL (got "***@proxy.example:3128")'],
    [
      { MCP_SERVER_URL: 'https://alice:SeCrEt-pw@mcp.example.com/mcp' },
      'MCP_SERVER_URL: is the server\'s base URL: drop the trailing /mcp (got "https://***@mcp.example.com/mcp")',
    ],
  ])('a refused URL is shown without its user and password: %p', (env, message) => {
    const refused = refusal({ ...HTTP_REMOTE, ...env });
    expect(refused.message).toBe(message);
    expect(refused.message).not.toContain('SeCrEt');
  });

  // D2: one line. A value or flag holding a line break must not split the refusal (or forge a line).
  test.each([
    [{ PORT: '1\nforge-mcp: listening' }, [], 'PORT: must be a whole number (got "1\\nforge-mcp: listening")'],
    [{ LOG_LEVEL: 'info\r\n' }, [], 'LOG_LEVEL: must be one of debug, info, warn, error (got "info\\r\\n")'],
    [{ MAX_SESSIONS: '0\n' }, [], 'MAX_SESSIONS: must be between 1 and 1000000 (got 0\\n)'],
    [{}, ['--no\nsuch=1'], '--no\\nsuch: unknown flag (see --help)'],
  ])('a refusal stays on one line: %p %p', (env, argv, message) => {
    expect(refusal({ ...HTTP_REMOTE, ...env }, argv).message).toBe(message);
  });

  test('an unknown flag or a stray argument is refused', () => {
    expect(refusal(HTTP_REMOTE, ['--no-such-thing=1']).message).toBe('--no-such-thing: unknown flag (see --help)');
    expect(refusal(HTTP_REMOTE, ['serve']).message).toContain('unexpected argument');
  });

  test.each([
    [{ REMOTE_AUTHORIZATION: 'true' }, 'STREAMABLE_HTTP: required when REMOTE_AUTHORIZATION=true'],
    [
      { STREAMABLE_HTTP: 'true', ENABLE_DYNAMIC_API_URL: 'true', FORGE_PERSONAL_ACCESS_TOKEN: 'x'.repeat(20) },
      'REMOTE_AUTHORIZATION: required when ENABLE_DYNAMIC_API_URL=true',
    ],
    [
      { STREAMABLE_HTTP: 'true', OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET, FORGE_PERSONAL_ACCESS_TOKEN: 'x'.repeat(20) },
      'REMOTE_AUTHORIZATION: required when OAUTH_STATELESS_MODE=true',
    ],
    [{ ...HTTP_REMOTE, OAUTH_STATELESS_MODE: 'true' }, 'OAUTH_STATELESS_SECRET: required when OAUTH_STATELESS_MODE=true'],
    [{ ...HTTP_REMOTE, OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: 'c2hvcnQ' }, 'OAUTH_STATELESS_SECRET: must decode to at least 32 bytes (got 5)'],
    [{ ...HTTP_REMOTE, FORGE_MCP_OAUTH: 'true' }, 'MCP_SERVER_URL: required when FORGE_MCP_OAUTH=true'],
    [{}, 'FORGE_PERSONAL_ACCESS_TOKEN: required for stdio (STREAMABLE_HTTP=false)'],
    [{ STREAMABLE_HTTP: 'true' }, 'FORGE_PERSONAL_ACCESS_TOKEN: required for HTTP without REMOTE_AUTHORIZATION or FORGE_MCP_OAUTH'],
  ])('impossible combinations are refused: %p', (env, message) => {
    expect(refusal(env).message).toContain(message);
  });

  test('stateless mode with remote authorization and a long secret is accepted', () => {
    const c = loadConfig({ ...HTTP_REMOTE, OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: SECRET, OAUTH_STATELESS_SESSION_TTL_SECONDS: '90' });
    expect(c.statelessSessionTtlSeconds).toBe(90);
  });

  test('FORGE_API_URL is a list normalized to /api/v4, the first being the default', () => {
    const c = loadConfig({ ...HTTP_REMOTE, FORGE_API_URL: 'https://gitlab.example.com/, https://h.example/gitlab ,https://x.example/api/v4' });
    expect(c.forgeApiUrls).toEqual(['https://gitlab.example.com/api/v4', 'https://h.example/gitlab/api/v4', 'https://x.example/api/v4']);
  });

  test('tool groups: all, explicit lists, and the legacy USE_MILESTONE switch', () => {
    expect([...loadConfig({ ...HTTP_REMOTE, FORGE_TOOLSETS: 'all' }).toolGroups].sort()).toEqual([
      'branches',
      'ci',
      'context',
      'issues',
      'labels',
      'merge_requests',
      'milestones',
      'pipelines',
      'projects',
      'releases',
      'repository',
      'search',
      'users',
      'wiki',
      'work_items',
    ]);
    expect([...loadConfig({ ...HTTP_REMOTE, FORGE_TOOLSETS: 'milestones' }).toolGroups]).toEqual(['milestones']);
    expect([...loadConfig({ ...HTTP_REMOTE, USE_MILESTONE: 'true' }).toolGroups]).toEqual(['milestones']);
    expect(loadConfig({ ...HTTP_REMOTE, USE_MILESTONE: 'true' }).toolNames).toBe(DEFAULT_TOOLS);
    // The former default, named, means what it meant; naming groups alone picks no tool by name (D40).
    const former = loadConfig({ ...HTTP_REMOTE, FORGE_TOOLSETS: 'branches,issues' });
    expect([...former.toolGroups].sort()).toEqual(['branches', 'issues']);
    expect([...former.toolNames]).toEqual([]);
    const both = loadConfig({ ...HTTP_REMOTE, FORGE_TOOLSETS: 'default,pipelines' });
    expect([...both.toolGroups]).toEqual(['pipelines']);
    expect(both.toolNames).toBe(DEFAULT_TOOLS);
  });

  // D2: a flag is the setting under another name. An empty environment variable counts as not
  // given; so does an empty flag, which once read FORGE_TOOLSETS as "no groups" (a server with no tools).
  test('an empty --forge-toolsets= gives the default set, as FORGE_TOOLSETS= does', () => {
    for (const c of [
      loadConfig({ ...HTTP_REMOTE, FORGE_TOOLSETS: '' }),
      loadConfig(HTTP_REMOTE, ['--forge-toolsets=']),
      loadConfig(HTTP_REMOTE, ['--forge-toolsets', '']),
    ]) {
      expect([...c.toolGroups]).toEqual([]);
      expect(c.toolNames).toBe(DEFAULT_TOOLS);
    }
    // Not given: the environment's value stays in force, as it would under an empty variable.
    expect([...loadConfig({ ...HTTP_REMOTE, FORGE_TOOLSETS: 'milestones' }, ['--forge-toolsets=']).toolGroups]).toEqual(['milestones']);
  });

  test.each(SETTING_NAMES.map((name) => [name]))('an empty flag for %s means what the empty variable means', (name) => {
    const outcome = (load: () => unknown) => {
      try {
        return load();
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
    };
    const flag = `--${name.toLowerCase().replaceAll('_', '-')}=`;
    const { [name as keyof typeof HTTP_REMOTE]: _given, ...base } = HTTP_REMOTE;
    const viaEnv = outcome(() => loadConfig({ ...base, [name]: '' }));
    expect(outcome(() => loadConfig(base, [flag]))).toEqual(viaEnv);
    expect(viaEnv).toEqual(outcome(() => loadConfig(base)));
  });

  test('every setting has a description', () => {
    const { ConfigSchema } = require('../src/config/schema');
    for (const name of SETTING_NAMES) expect(ConfigSchema.properties[name].description?.length).toBeGreaterThan(10);
  });
});
