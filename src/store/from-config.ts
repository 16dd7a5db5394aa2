// Which store this deployment keeps its shared state in (D37): Redis or Valkey when REDIS_URL is
// set, shared by every use under its own key prefix; otherwise process memory, one bounded store
// per use. The only place that knows which; the users get a SharedStore (store.ts).
//
// While the store fails, one warning a minute says so and what it means (sign-ins answer 503, rate
// limits are not applied); one line says when it answers again. Metrics count every call.
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/registry';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';
import { redisUrlForLog } from './redis-url';
import type { SharedStore } from './store';

export interface Readiness {
  ready: boolean;
  /** Why not (a short code), when not ready. */
  reason?: string;
}

export interface Stores {
  /** For /readyz and the start-up log. */
  readonly kind: 'memory' | 'redis';
  /** Whether replicas share this state: rate limits then apply in stateless mode too (D37). */
  readonly shared: boolean;
  /** A store for one use; in memory it holds at most `maxEntries` entries. */
  open(maxEntries: number): SharedStore;
  readiness(): Promise<Readiness>;
  close(): void;
}

interface StoreSettings {
  REDIS_URL?: string;
  REDIS_TIMEOUT_MS: number;
}

interface StoreDeps {
  logger: Logger;
  metrics: Metrics;
  now?: () => number;
  /** PEM text of FORGE_CA_CERT_PATH, trusted for rediss:// too. */
  caCert?: string;
  /** Background PING interval (tests turn it off). */
  probeEveryMs?: number;
}

const OUTAGE_LOG_EVERY_MS = 60_000;
const EFFECT = 'single-use checks fail closed (code and refresh-token redemption answer 503); rate limits are not applied';

export function storesFromConfig(config: StoreSettings, deps: StoreDeps): Stores {
  const now = deps.now ?? Date.now;
  if (!config.REDIS_URL) {
    return {
      kind: 'memory',
      shared: false,
      open: (maxEntries) => new MemoryStore({ maxEntries, now }),
      readiness: async () => ({ ready: true }),
      close: () => {},
    };
  }
  const { logger, metrics } = deps;
  metrics.store.configured = true;
  let down = false;
  let lastWarning = Number.NEGATIVE_INFINITY;
  const redis = new RedisStore({
    url: config.REDIS_URL,
    timeoutMs: config.REDIS_TIMEOUT_MS,
    caCert: deps.caCert,
    probeEveryMs: deps.probeEveryMs,
    events: {
      operation: (name, seconds, ok) => metrics.store.operation(name, seconds, ok),
      state: (up, reason) => {
        metrics.store.up = up ? 1 : 0;
        if (up) {
          if (down) logger.info('store_available', { store: 'redis' });
          down = false;
          return;
        }
        const t = Date.now();
        if (!down || t - lastWarning >= OUTAGE_LOG_EVERY_MS) {
          lastWarning = t;
          logger.warn('store_unavailable', { store: 'redis', reason, effect: EFFECT });
        }
        down = true;
      },
    },
  });
  logger.info('store_configured', { store: 'redis', url: redisUrlForLog(config.REDIS_URL) });
  return {
    kind: 'redis',
    shared: true,
    open: () => redis,
    readiness: async () => {
      try {
        await redis.ping();
        return { ready: true };
      } catch (error) {
        return { ready: false, reason: (error as { reason?: string }).reason ?? 'error' };
      }
    },
    close: () => redis.close(),
  };
}
