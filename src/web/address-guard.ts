// The DNS-rebinding defence (D12) in front of every path, /mcp and the rest alike: a Host this
// server may not be addressed by, or an Origin it does not serve, is refused before anything else
// is read. Each route answers the refusal in its own shape (/mcp: a JSON-RPC error; the others:
// JSON `{error}`); the judgement and its log line are made here, once.
import { credentialValues } from '../auth/credentials';
import { loggableHost } from '../auth/loggable-host';
import type { Logger } from '../logging/logger';
import { MESSAGES } from './errors';
import type { HostPolicy, OriginPolicy } from './origin';

/**
 * The 403 message for a request addressed from or to where it may not be; undefined: it may pass.
 * `origin` is the request's Origin header, which the caller reads once (it needs it for CORS too).
 */
export type AddressGuard = (request: Request, origin: string | null) => string | undefined;

export function createAddressGuard(hostAllowed: HostPolicy, originAllowed: OriginPolicy, logger: Logger): AddressGuard {
  return (request, origin) => {
    if (!hostAllowed(request)) {
      // The header is the client's to write: only a plain host name of it is logged (D5).
      logger.warn('host_refused', { host: loggableHost(`http://${request.headers.get('host') ?? ''}`, credentialValues(request.headers)) });
      return MESSAGES.forbiddenHost;
    }
    if (!originAllowed(origin)) {
      // The header is the client's to write: only a plain host name of it is logged (D5).
      logger.warn('origin_refused', { origin_host: origin === null ? null : loggableHost(origin, credentialValues(request.headers)) });
      return MESSAGES.forbiddenOrigin;
    }
    return undefined;
  };
}
