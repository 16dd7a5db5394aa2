// Two apps alike but for the plain tools/call path (http/fast-tool-call.ts): `fast` with it on,
// counting the calls it takes, `sdk` with it off, each with its log captured. The plain-call tests
// send both the same request and hold the answers equal.
import type { ForgeApp } from '../../src/app';
import type { Sealer } from '../../src/sealing/sealer';
import type { Apps } from './apps';
import { capturingLogger } from './log-capture';

export interface FastPathPair {
  fast: ForgeApp;
  sdk: ForgeApp;
  /** Calls the fast path answered so far. */
  taken: () => number;
  logs: { fast: () => Record<string, unknown>[]; sdk: () => Record<string, unknown>[] };
}

/** Both apps are made through the file's app fixture, which closes them. */
export function fastPathPair(apps: Apps, settings: Record<string, string>, sealer?: Sealer): FastPathPair {
  let taken = 0;
  const fastLog = capturingLogger();
  const sdkLog = capturingLogger();
  const fast = apps(settings, { logger: fastLog.logger, sealer, onFastToolCall: () => taken++ });
  const sdk = apps(settings, { logger: sdkLog.logger, sealer, fastToolCall: false });
  return { fast, sdk, taken: () => taken, logs: { fast: fastLog.entries, sdk: sdkLog.entries } };
}
