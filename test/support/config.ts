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
    ...overrides,
  });
}
