// Settings for tests: HTTP with remote authorization against the given forge, quiet logs.
import { loadConfig, type Config } from '../../src/config/load';

export function testConfig(forgeApiUrl: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    STREAMABLE_HTTP: 'true',
    REMOTE_AUTHORIZATION: 'true',
    FORGE_API_URL: forgeApiUrl,
    LOG_LEVEL: 'error',
    // Tests make many requests from one address; the limiter has tests of its own.
    MAX_REQUESTS_PER_MINUTE: '1000000',
    // Most tests were written against the groups that were the default before the default set
    // (D40) and call their tools; they name them here, once. A test of the default set passes
    // FORGE_TOOLSETS: '' (an empty value is not given, so the default applies).
    FORGE_TOOLSETS: 'branches,issues',
    ...overrides,
  });
}
