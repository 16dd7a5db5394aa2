// The per-address limit of the OAuth endpoints (D10): /register, /authorize, /consent,
// /callback and /token each allow MAX_REQUESTS_PER_MINUTE requests per client IP in a fixed
// one-minute window, counted before anything is read or stored. Stateless mode runs no in-app
// limiter (docs/spec.md stateless rule 7): the ingress limits there — unless replicas share a
// store (D37), where the windows are counted across all of them.
import { FixedWindowLimiter } from '../web/rate-limit';
import type { SharedStore } from '../store/store';
import type { Logger } from '../logging/logger';
import { htmlPage, oauthError } from './http';

export const LIMITED_ENDPOINTS = ['register', 'authorize', 'consent', 'callback', 'token'] as const;
export type LimitedEndpoint = (typeof LIMITED_ENDPOINTS)[number];

export interface IpLimitOptions {
  perMinute: number;
  now: () => number;
  ipOf(request: Request): string;
  logger: Logger;
  /** Called for each refused request (metrics). */
  onRateLimited?: () => void;
  /** The store replicas share for the windows (D37); absent: this process's memory (100k addresses per endpoint). */
  openStore?: (maxEntries: number) => SharedStore;
}

export type Handler = (request: Request) => Promise<Response>;

/** The browser legs answer with a page, the others with an RFC 6749 error body (D22). */
function refusal(endpoint: LimitedEndpoint, retryAfter: number): Response {
  const headers = { 'Retry-After': String(retryAfter) };
  if (endpoint === 'consent' || endpoint === 'callback') {
    return htmlPage(429, 'Rate limit exceeded', `Too many requests from your address. Wait ${retryAfter} seconds, then start signing in again from your application.`, headers);
  }
  return oauthError(429, 'temporarily_unavailable', 'Rate limit exceeded', headers);
}

/** Wraps each endpoint's handler with its own per-address window; `undefined` options: no limit. */
export function ipLimited(options: IpLimitOptions | undefined): (endpoint: LimitedEndpoint, handler: Handler) => Handler {
  if (!options) return (_, handler) => handler;
  return (endpoint, handler) => {
    const limiter = new FixedWindowLimiter(options.perMinute, options.now, undefined, undefined, options.openStore ? { store: options.openStore(100_000), scope: `oauth-${endpoint}` } : undefined);
    return async (request) => {
      const limit = await limiter.hit(options.ipOf(request));
      if (limit.allowed) return handler(request);
      options.onRateLimited?.();
      if (limit.firstRefusal) options.logger.warn('rate_limited', { scope: endpoint, retry_after: limit.retryAfter });
      return refusal(endpoint, limit.retryAfter);
    };
  };
}
