// GET /readyz, for load balancers (D37): 200 when this replica can serve everything — no shared
// store configured, or the store answers a PING within REDIS_TIMEOUT_MS — and 503 when the
// configured store cannot be reached. /healthz stays liveness only: a replica whose store is down
// still serves tool calls (rate limits fail open), so it must not be restarted for that.
import type { Readiness } from '../store/from-config';

export function readinessResponse(kind: 'memory' | 'redis', check: () => Promise<Readiness>): () => Promise<Response> {
  return async () => {
    const state = await check();
    const body = state.ready ? { status: 'ready', store: kind } : { status: 'unavailable', store: kind, reason: state.reason };
    return Response.json(body, { status: state.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
  };
}
