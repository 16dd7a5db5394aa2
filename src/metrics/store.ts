// The shared store's metrics (D37): calls by operation with their latency, failures by
// operation, and whether the store answered last. Zero and `configured: false` without REDIS_URL.
import type { Histogram } from './registry';

/** Upper bounds (seconds) of the store latency histogram: a store answers in well under a millisecond. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1] as const;

export class StoreMetrics {
  configured = false;
  /** 1 while the store answers, 0 once a call failed (until one succeeds). */
  up = 1;
  /** operation → failed calls (unreachable, timed out, refused) */
  readonly errors = new Map<string, number>();
  /** operation → latency of every call, answered or not */
  readonly latency = new Map<string, Histogram>();

  operation(name: string, seconds: number, ok: boolean): void {
    if (!ok) this.errors.set(name, (this.errors.get(name) ?? 0) + 1);
    let h = this.latency.get(name);
    if (!h) {
      h = { buckets: STORE_BUCKETS.map(() => 0), count: 0, sum: 0 };
      this.latency.set(name, h);
    }
    h.count++;
    h.sum += seconds;
    for (let i = 0; i < STORE_BUCKETS.length; i++) if (seconds <= STORE_BUCKETS[i]) h.buckets[i]++;
  }

  /** The `store` object of /metrics.json. */
  snapshot() {
    return {
      configured: this.configured,
      up: this.up,
      errors: Object.fromEntries(this.errors),
      operations: Object.fromEntries([...this.latency].map(([name, h]) => [name, { count: h.count, seconds: h.sum }])),
    };
  }
}

type MetricWriter = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string, lines: string[]) => void;

/** The `forge_mcp_store_…` series in Prometheus text. */
export function storePrometheus(s: StoreMetrics, metric: MetricWriter): void {
  metric('store_configured', 'gauge', '1 when REDIS_URL names a shared store (D37).', [`forge_mcp_store_configured ${s.configured ? 1 : 0}`]);
  metric('store_up', 'gauge', '1 while the shared store answers, 0 after a failed call until one succeeds.', [`forge_mcp_store_up ${s.up}`]);
  metric(
    'store_errors_total',
    'counter',
    'Shared store calls that failed (unreachable, timed out, refused), by operation.',
    [...s.errors].map(([op, n]) => `forge_mcp_store_errors_total{operation="${op}"} ${n}`),
  );
  const lines: string[] = [];
  for (const [op, h] of s.latency) {
    const labels = `operation="${op}"`;
    STORE_BUCKETS.forEach((le, i) => lines.push(`forge_mcp_store_operation_duration_seconds_bucket{${labels},le="${le}"} ${h.buckets[i]}`));
    lines.push(`forge_mcp_store_operation_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
    lines.push(`forge_mcp_store_operation_duration_seconds_sum{${labels}} ${h.sum}`);
    lines.push(`forge_mcp_store_operation_duration_seconds_count{${labels}} ${h.count}`);
  }
  metric('store_operation_duration_seconds', 'histogram', 'Duration of shared store calls by operation.', lines);
}
