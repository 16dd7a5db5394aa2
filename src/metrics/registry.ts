// Per-instance counters for operators (docs/spec.md "Metrics snapshot", D11). One object,
// incremented where the event happens; the JSON snapshot and the Prometheus text are views of it.
import { OAuthMetrics } from './oauth';
import { StoreMetrics } from './store';

/** Upper bounds (seconds) of the upstream duration histogram. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;
/** The status classes of HTTP answers, as labels (index: the status's first digit). */
const STATUS_CLASSES: readonly string[] = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export interface Histogram {
  buckets: number[]; // cumulative counts per DURATION_BUCKETS entry
  count: number;
  sum: number;
}

export class Metrics {
  readonly startedAt = Date.now();
  totalSessions = 0;
  expiredSessions = 0;
  authFailures = 0;
  requestsProcessed = 0;
  rejectedByRateLimit = 0;
  rejectedByCapacity = 0;
  poolEvictions = 0;
  /** Requests to /mcp per protocol lane (D27); those refused before their lane was known count only in requestsProcessed. */
  readonly requestsByLane = { modern: 0, legacy: 0 };
  /** "tool\u0000outcome" → count */
  readonly toolCalls = new Map<string, number>();
  /** tool → outcome → its key in toolCalls (the tools of the catalog and their few outcomes). */
  private readonly toolCallKeys = new Map<string, Map<string, string>>();
  /** status class ("2xx", "4xx", "5xx", "error") → histogram */
  readonly upstream = new Map<string, Histogram>();
  /** GraphQL operation name → "status class" → count (D45): the names are the tools' fixed documents, a bounded set. */
  readonly graphqlOperations = new Map<string, Map<string, number>>();
  /** OAuth mode's counters (all zero in the other modes). */
  readonly oauth = new OAuthMetrics();
  /** The shared store's calls and failures (D37; `configured: false` without REDIS_URL). */
  readonly store = new StoreMetrics();

  laneRequest(lane: 'modern' | 'legacy'): void {
    this.requestsByLane[lane]++;
  }

  toolCall(tool: string, outcome: string): void {
    // One key string per tool and outcome, made once: not a new string to hash on every call.
    let keys = this.toolCallKeys.get(tool);
    if (!keys) this.toolCallKeys.set(tool, (keys = new Map()));
    let key = keys.get(outcome);
    if (key === undefined) keys.set(outcome, (key = `${tool}\u0000${outcome}`));
    this.toolCalls.set(key, (this.toolCalls.get(key) ?? 0) + 1);
  }

  upstreamRequest(status: number | 'error', seconds: number, operation?: string): void {
    const statusClass = status === 'error' ? 'error' : (STATUS_CLASSES[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`);
    if (operation !== undefined) {
      let byStatus = this.graphqlOperations.get(operation);
      if (!byStatus) this.graphqlOperations.set(operation, (byStatus = new Map()));
      byStatus.set(statusClass, (byStatus.get(statusClass) ?? 0) + 1);
    }
    let h = this.upstream.get(statusClass);
    if (!h) {
      h = { buckets: DURATION_BUCKETS.map(() => 0), count: 0, sum: 0 };
      this.upstream.set(statusClass, h);
    }
    h.count++;
    h.sum += seconds;
    for (let i = 0; i < DURATION_BUCKETS.length; i++) if (seconds <= DURATION_BUCKETS[i]) h.buckets[i]++;
  }
}

/** Live values the registry does not own (sessions, pool), read when a snapshot is taken. */
export interface Gauges {
  /** Called before the values are read: ends sessions already expired, which never count (D7). */
  settle?(): void;
  activeSessions(): number;
  authenticatedSessions(): number;
  poolSize(): number;
}

export interface MetricsConfig {
  maxSessions: number;
  maxRequestsPerMinute: number;
  sessionTimeoutSeconds: number;
  remoteAuthEnabled: boolean;
}

/** The JSON snapshot: exactly docs/spec.md's fields, plus tool and upstream detail. */
export function snapshot(m: Metrics, gauges: Gauges, config: MetricsConfig) {
  const memory = process.memoryUsage();
  return {
    activeSessions: gauges.activeSessions(),
    totalSessions: m.totalSessions,
    expiredSessions: m.expiredSessions,
    authFailures: m.authFailures,
    requestsProcessed: m.requestsProcessed,
    requestsByLane: { ...m.requestsByLane },
    rejectedByRateLimit: m.rejectedByRateLimit,
    rejectedByCapacity: m.rejectedByCapacity,
    authenticatedSessions: gauges.authenticatedSessions(),
    uptime: Math.floor((Date.now() - m.startedAt) / 1000),
    memoryUsage: { rss: memory.rss, heapTotal: memory.heapTotal, heapUsed: memory.heapUsed, external: memory.external },
    config,
    poolSize: gauges.poolSize(),
    poolEvictions: m.poolEvictions,
    toolCalls: Object.fromEntries([...m.toolCalls].map(([key, n]) => [key.replace('\u0000', ':'), n])),
    graphqlOperations: Object.fromEntries([...m.graphqlOperations].map(([operation, byStatus]) => [operation, Object.fromEntries(byStatus)])),
    oauth: m.oauth.snapshot(),
    store: m.store.snapshot(),
  };
}
