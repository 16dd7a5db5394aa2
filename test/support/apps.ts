// The one app fixture: every app a test file makes through it is closed after each test (or, with
// 'all', after the file), so no test writes its own list of apps and clean-up. Config is
// testConfig(forge URL, overrides); `sealed` derives the sealer from that config as the entry point
// does (stateless mode needs it), on the app's clock when the test gives one.
import { afterAll, afterEach } from 'bun:test';
import { createApp, type AppOptions, type ForgeApp } from '../../src/app';
import { sealerFromConfig } from '../../src/sealing/from-config';
import { testConfig } from './config';

export interface Apps {
  /** A new app against the forge, closed by the fixture. */
  (overrides?: Record<string, string>, options?: AppOptions): ForgeApp;
  /** A new app against another forge (a held or hostile one), closed by the fixture. */
  on(apiUrl: string, overrides?: Record<string, string>, options?: AppOptions): ForgeApp;
  /** The same with the sealer of its config (OAUTH_STATELESS_SECRET), as src/index.ts derives it. */
  sealed(overrides?: Record<string, string>, options?: AppOptions): Promise<ForgeApp>;
  /** A sealed app against another forge. */
  sealedOn(apiUrl: string, overrides?: Record<string, string>, options?: AppOptions): Promise<ForgeApp>;
  /** Closes every app made so far (the fixture does this by itself; for tests that must know it is done). */
  closeAll(): Promise<void>;
}

/** `forgeUrl` is read when an app is made (the forge usually starts in a beforeAll). */
export function useApps(forgeUrl: () => string, close: 'each' | 'all' = 'each'): Apps {
  const open: ForgeApp[] = [];
  const on = (apiUrl: string, overrides: Record<string, string> = {}, options: AppOptions = {}) => {
    const app = createApp(testConfig(apiUrl, overrides), options);
    open.push(app);
    return app;
  };
  const make = (overrides: Record<string, string> = {}, options: AppOptions = {}) => on(forgeUrl(), overrides, options);
  const sealedOn = async (apiUrl: string, overrides: Record<string, string> = {}, options: AppOptions = {}) => {
    const config = testConfig(apiUrl, overrides);
    const app = createApp(config, { sealer: await sealerFromConfig(config, options.now), ...options });
    open.push(app);
    return app;
  };
  const apps = Object.assign(make, {
    on,
    sealed: (overrides: Record<string, string> = {}, options: AppOptions = {}) => sealedOn(forgeUrl(), overrides, options),
    sealedOn,
    closeAll: async () => {
      await Promise.all(open.splice(0).map((a) => a.close()));
    },
  });
  (close === 'each' ? afterEach : afterAll)(apps.closeAll);
  return apps;
}
