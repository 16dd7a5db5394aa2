// GET /metrics (Prometheus text) and GET /metrics.json (docs/spec.md's snapshot), unauthenticated and
// per instance (D11).
import { prometheusText } from '../metrics/prometheus';
import { snapshot, type Gauges, type Metrics, type MetricsConfig } from '../metrics/registry';

export function metricsResponses(metrics: Metrics, gauges: Gauges, config: MetricsConfig) {
  // A session past its timeout is expired whether or not the periodic sweep has reached it yet:
  // both views count it as expired, not active.
  const settled = () => (gauges.settle?.(), gauges);
  return {
    text: () => new Response(prometheusText(metrics, settled(), config), { headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' } }),
    json: () => Response.json(snapshot(metrics, settled(), config)),
  };
}
