// Decides who a request acts as. With remote authorization each request may bring its own
// credential (a bad one is refused, none at all is left to the session rules); otherwise every
// request acts with the deployment's static token (D3).
import type { Caller } from './caller';
import { credentialFromHeaders, credentialValues, isSealedValue, type CredentialRefusal } from './credentials';
import type { ForgeUrlRefusal, ForgeUrlVerdict } from './forge-url';
import { loggableHost } from './loggable-host';

/** The forge a request names in X-Forge-API-URL, when the deployment lets callers choose one. */
type ForgeUrlLookup = { status: 'none' } | { status: 'invalid'; host: string; reason: ForgeUrlRefusal } | { status: 'ok'; apiUrl: string };

const NO_URL: ForgeUrlLookup = { status: 'none' };
const SEALED_BEARER: CallerLookup = { status: 'invalid', reason: 'sealed_value' };

export function forgeUrlFromHeaders(headers: Headers, judge: ((raw: string) => ForgeUrlVerdict) | undefined): ForgeUrlLookup {
  if (!judge) return NO_URL; // dynamic API URL off: the header is ignored
  const raw = headers.get('x-forge-api-url');
  if (raw === null || raw.trim() === '') return NO_URL;
  const verdict = judge(raw);
  if ('apiUrl' in verdict) return { status: 'ok', apiUrl: verdict.apiUrl };
  // Only the host is logged, and only when it is plainly a host name (the rest may hold anything);
  // the reason is a fixed text (auth/forge-url.ts).
  return { status: 'invalid', host: loggableHost(raw, credentialValues(headers)), reason: verdict.refused };
}

/**
 * `reason`, when the resolver knows it, picks the 401's text (web/errors.ts); `invalid_token`: a
 * bearer OAuth mode refused (expired, not its own, another audience), answered with
 * `error="invalid_token"` in the challenge (D23).
 */
export type CallerLookup = { status: 'none' } | { status: 'invalid'; reason?: CredentialRefusal | 'invalid_token' } | { status: 'ok'; caller: Caller };

export interface CallerResolver {
  /** Whether callers must bring their own credentials. */
  readonly remote: boolean;
  /** Value of WWW-Authenticate on a 401 (OAuth mode adds resource_metadata and scope, D29). */
  readonly challenge: string;
  /** OAuth mode: WWW-Authenticate of the 403 for a write tool called with a read_api token (D29). */
  readonly stepUpChallenge?: string;
  /** Synchronous for header credentials; OAuth bearer tokens are opened locally (D23). */
  resolve(headers: Headers): CallerLookup | Promise<CallerLookup>;
}

export function remoteCallers(defaultApiUrl: string): CallerResolver {
  return {
    remote: true,
    challenge: 'Bearer',
    resolve(headers) {
      const found = credentialFromHeaders(headers);
      if (found.status !== 'ok') return found;
      // Without OAuth mode no bearer is this server's own: a sealed one is refused, not sent on (D23).
      if (isSealedValue(found.credential.token)) return SEALED_BEARER;
      return { status: 'ok', caller: { credential: found.credential, apiUrl: defaultApiUrl } };
    },
  };
}

export function staticCaller(caller: Caller): CallerResolver {
  const lookup: CallerLookup = { status: 'ok', caller };
  return { remote: false, challenge: 'Bearer', resolve: () => lookup };
}
