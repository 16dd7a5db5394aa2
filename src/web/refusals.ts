// The three refusals every surface shares, written once: "rate limited" (429, D10), "at capacity"
// (503, D7) and "no credential" (401: none, or one refused, D6/D23). Each counts its metric and
// logs its line here, and decides the status, the text and the headers (Retry-After,
// WWW-Authenticate); a surface only writes them in its own shape: a JSON-RPC error on /mcp
// (jsonRpc below), a problem body on /downloads, an RFC 6749 error or an HTML page on the OAuth
// endpoints (each beside its route).
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/registry';
import { MESSAGES, RPC_CODES, rpcError, type RpcId } from './errors';
import type { RateDecision } from './rate-limit';

export interface Refusal {
  readonly status: 401 | 429 | 503;
  readonly reason: 'rate_limited' | 'capacity' | 'no_credential';
  readonly message: string;
  readonly headers: Record<string, string>;
  /** Seconds until the window that refused reopens (429 only). */
  readonly retryAfter?: number;
}

/** Writes a refusal in one surface's shape. */
type Surface = (refusal: Refusal) => Response;

/** /mcp: a JSON-RPC error, carrying the request's id on the modern lane (D27), else null. */
export function jsonRpc(id: RpcId = null): Surface {
  return (refusal) => rpcError(refusal.status, refusal.message, RPC_CODES.generic, refusal.headers, id);
}

const JSON_RPC: Surface = jsonRpc();

/** Log fields of a refusal: never a token or a sealed value (D5). */
type Fields = Record<string, unknown>;

export interface Refusals {
  /** 429 with Retry-After; the line `rate_limited` only for a window's first refusal (D10). */
  rateLimited(limit: RateDecision, fields: Fields, surface?: Surface): Response;
  /** 503 "Server capacity reached": the forge pool (`pool_full`) or the sessions (`session_rejected`) are full (D7). */
  atCapacity(event: 'pool_full' | 'session_rejected', fields: Fields, surface?: Surface): Response;
  /** 401 with the challenge: `auth_failed`, its fields naming the lane (or route) and the reason. */
  noCredential(message: string, challenge: string, fields: Fields, surface?: Surface): Response;
}

export function createRefusals(metrics: Pick<Metrics, 'rejectedByRateLimit' | 'rejectedByCapacity' | 'authFailures'>, logger: Logger): Refusals {
  return {
    rateLimited(limit, fields, surface = JSON_RPC) {
      metrics.rejectedByRateLimit++;
      if (limit.firstRefusal) logger.warn('rate_limited', { ...fields, retry_after: limit.retryAfter });
      return surface({
        status: 429,
        reason: 'rate_limited',
        message: MESSAGES.rateLimited,
        headers: { 'Retry-After': String(limit.retryAfter) },
        retryAfter: limit.retryAfter,
      });
    },
    atCapacity(event, fields, surface = JSON_RPC) {
      metrics.rejectedByCapacity++;
      logger.warn(event, fields);
      return surface({ status: 503, reason: 'capacity', message: MESSAGES.capacity, headers: {} });
    },
    noCredential(message, challenge, fields, surface = JSON_RPC) {
      metrics.authFailures++;
      logger.warn('auth_failed', fields);
      return surface({ status: 401, reason: 'no_credential', message, headers: { 'WWW-Authenticate': challenge } });
    },
  };
}
