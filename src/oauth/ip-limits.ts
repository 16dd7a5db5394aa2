// The per-address limit of the OAuth endpoints (D10): /register, /authorize, /consent,
// /callback and /token each allow MAX_REQUESTS_PER_MINUTE requests per client IP in a fixed
// one-minute window, counted before anything is read or stored. Stateless mode runs no in-app
// limiter (docs/spec.md stateless rule 7): the ingress limits there — unless replicas share a
// store (D37), where the windows are counted across all of them.
import { FixedWindowLimiter } from '../web/rate-limit';
import type { Refusal, Refusals } from '../web/refusals';
import type { SharedStore } from '../store/store';
import { htmlPage, oauthError } from './http';

const LIMITED_ENDPOINTS = ['register', 'authorize', 'consent', 'callback', 'token'] as const;
type LimitedEndpoint = (typeof LIMITED_ENDPOINTS)[number];

interface IpLimitOptions {
  perMinute: number;
  now: () => number;
  ipOf(request: Request): string;
  /** The 429 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
  /** The store replicas share for the windows (D37); absent: this process's memory (100k addresses per endpoint). */
  openStore?: (maxEntries: number) => SharedStore;
}

type Handler = (request: Request) => Promise<Response>;

/** The browser legs answer with a page, the others with an RFC 6749 error body (D22). */
function surfaceOf(endpoint: LimitedEndpoint): (refusal: Refusal) => Response {
  if (endpoint === 'consent' || endpoint === 'callback') {
    return ({ status, message, headers, retryAfter }) =>
      htmlPage(status, message, `Too many requests from your address. Wait ${retryAfter} seconds, then start signing in again from your application.`, headers);
  }
  return ({ status, message, headers }) => oauthError(status, 'temporarily_unavailable', message, headers);
}

/** Wraps each endpoint's handler with its own per-address window; `undefined` options: no limit. */
export function ipLimited(options: IpLimitOptions | undefined): (endpoint: LimitedEndpoint, handler: Handler) => Handler {
  if (!options) return (_, handler) => handler;
  return (endpoint, handler) => {
    const limiter = new FixedWindowLimiter(
      options.perMinute,
      options.now,
      undefined,
      undefined,
      options.openStore ? { store: options.openStore(100_000), scope: `oauth-${endpoint}` } : undefined,
    );
    const surface = surfaceOf(endpoint);
    return async (request) => {
      const limit = await limiter.hit(options.ipOf(request));
      if (limit.allowed) return handler(request);
      return options.refusals.rateLimited(limit, { scope: endpoint }, surface);
    };
  };
}
