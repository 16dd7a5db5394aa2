// Decides who a request acts as. With remote authorization each request may bring its own
// credential (a bad one is refused, none at all is left to the session rules); otherwise every
// request acts with the deployment's static token (DECISIONS D3).
import type { Caller } from '../mcp/caller';
import { credentialFromHeaders } from './credentials';

export type CallerLookup = { status: 'none' } | { status: 'invalid' } | { status: 'ok'; caller: Caller };

export interface CallerResolver {
  /** Whether callers must bring their own credentials. */
  readonly remote: boolean;
  resolve(headers: Headers): CallerLookup;
}

export function remoteCallers(defaultApiUrl: string): CallerResolver {
  return {
    remote: true,
    resolve(headers) {
      const found = credentialFromHeaders(headers);
      if (found.status !== 'ok') return found;
      return { status: 'ok', caller: { credential: found.credential, apiUrl: defaultApiUrl } };
    },
  };
}

export function staticCaller(caller: Caller): CallerResolver {
  const lookup: CallerLookup = { status: 'ok', caller };
  return { remote: false, resolve: () => lookup };
}
