// Prometheus text exposition (format 0.0.4) of the metrics: HELP and TYPE lines, `forge_mcp_`
// prefix, counters ending in `_total`.
import { oauthPrometheus } from './oauth';
import { storePrometheus } from './store';
import { DURATION_BUCKETS, type Gauges, type Metrics, type MetricsConfig } from './registry';

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

export function prometheusText(m: Metrics, gauges: Gauges, config: MetricsConfig): string {
  const out: string[] = [];
  const metric = (name: string, type: 'counter' | 'gauge' | 'histogram', help: string, lines: string[]) => {
    out.push(`# HELP forge_mcp_${name} ${help}`, `# TYPE forge_mcp_${name} ${type}`, ...lines);
  };
  const single = (name: string, type: 'counter' | 'gauge', help: string, value: number) => metric(name, type, help, [`forge_mcp_${name} ${value}`]);

  single('active_sessions', 'gauge', 'Sessions currently open.', gauges.activeSessions());
  single('authenticated_sessions', 'gauge', 'Open sessions acting with a caller-supplied credential.', gauges.authenticatedSessions());
  single('sessions_total', 'counter', 'Sessions opened since start.', m.totalSessions);
  single('sessions_expired_total', 'counter', 'Sessions ended by inactivity.', m.expiredSessions);
  single('auth_failures_total', 'counter', 'Requests refused for missing or invalid credentials.', m.authFailures);
  single('requests_total', 'counter', 'Requests to /mcp processed.', m.requestsProcessed);
  metric(
    'lane_requests_total',
    'counter',
    'Requests to /mcp by protocol lane (modern: 2026-07-28; legacy: the 2025 revisions).',
    (['legacy', 'modern'] as const).map((lane) => `forge_mcp_lane_requests_total{lane="${lane}"} ${m.requestsByLane[lane]}`),
  );
  single('rate_limited_total', 'counter', 'Requests refused with 429 by the rate limiter.', m.rejectedByRateLimit);
  single('capacity_rejections_total', 'counter', 'New sessions or forge URLs refused with 503 at capacity.', m.rejectedByCapacity);
  single('pool_clients', 'gauge', 'Upstream pool clients (one per forge API URL).', gauges.poolSize());
  single('pool_evictions_total', 'counter', 'Pool clients evicted (least recently used or idle).', m.poolEvictions);
  single('uptime_seconds', 'gauge', 'Seconds since the process started.', Math.floor((Date.now() - m.startedAt) / 1000));
  const memory = process.memoryUsage();
  metric(
    'memory_bytes',
    'gauge',
    'Process memory by kind.',
    (['rss', 'heapTotal', 'heapUsed', 'external'] as const).map((k) => `forge_mcp_memory_bytes{kind="${k}"} ${memory[k]}`),
  );
  single('config_max_sessions', 'gauge', 'MAX_SESSIONS setting.', config.maxSessions);
  single('config_max_requests_per_minute', 'gauge', 'MAX_REQUESTS_PER_MINUTE setting.', config.maxRequestsPerMinute);
  single('config_session_timeout_seconds', 'gauge', 'SESSION_TIMEOUT_SECONDS setting.', config.sessionTimeoutSeconds);
  single('config_remote_authorization', 'gauge', '1 when callers bring their own credentials.', config.remoteAuthEnabled ? 1 : 0);

  metric(
    'tool_calls_total',
    'counter',
    'Tool calls by tool and outcome (ok or an error kind).',
    [...m.toolCalls].map(([key, n]) => {
      const [tool, outcome] = key.split('\u0000');
      return `forge_mcp_tool_calls_total{tool="${escapeLabel(tool)}",outcome="${escapeLabel(outcome)}"} ${n}`;
    }),
  );
  metric(
    'graphql_requests_total',
    'counter',
    'Forge GraphQL requests by operation name and status class (D45).',
    [...m.graphqlOperations].flatMap(([operation, byStatus]) =>
      [...byStatus].map(([statusClass, n]) => `forge_mcp_graphql_requests_total{operation="${escapeLabel(operation)}",status_class="${statusClass}"} ${n}`),
    ),
  );
  oauthPrometheus(m.oauth, metric, escapeLabel);
  storePrometheus(m.store, metric);
  const histogramLines: string[] = [];
  for (const [statusClass, h] of m.upstream) {
    const labels = `status_class="${statusClass}"`;
    DURATION_BUCKETS.forEach((le, i) => histogramLines.push(`forge_mcp_upstream_request_duration_seconds_bucket{${labels},le="${le}"} ${h.buckets[i]}`));
    histogramLines.push(`forge_mcp_upstream_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
    histogramLines.push(`forge_mcp_upstream_request_duration_seconds_sum{${labels}} ${h.sum}`);
    histogramLines.push(`forge_mcp_upstream_request_duration_seconds_count{${labels}} ${h.count}`);
  }
  metric('upstream_request_duration_seconds', 'histogram', 'Duration of forge REST requests by status class.', histogramLines);
  return `${out.join('\n')}\n`;
}
