// Who calls /mcp in OAuth mode (D23): a bearer token is this server's own `v1.at.` access token,
// checked locally (seal, kind, expiry, audience; own-tokens.ts) with no forge call per request; the
// caller then acts with the forge token sealed inside, pinned to its forge and carrying its scope
// (D29). A bearer that is not ours is taken as a forge token only with REMOTE_AUTHORIZATION=true
// (then the legacy session door checks it with the forge, D7); otherwise it is refused with
// `error="invalid_token"`, which also sends clients holding the forge tokens of the old behaviour
// back to sign in. A Private-Token or JOB-TOKEN is a live credential, as in remote authorization.
// Without any credential the request is refused, except in stateless mode, where a sealed
// Mcp-Session-Id may stand in (stateless rule 3).
import { credentialFromHeaders } from '../auth/credentials';
import type { CallerLookup, CallerResolver } from '../auth/caller-resolver';
import type { Logger } from '../logging/logger';
import type { OAuthEvents } from '../metrics/oauth-events';
import { ACCESS_PREFIX, type OwnTokens, type TokenRefusal } from './own-tokens';

type BearerRefusal = TokenRefusal | 'not_access_token' | 'not_ours';

interface BearerCheckOptions {
  tokens: Pick<OwnTokens, 'openAccess'>;
  apiUrl: string;
  /** WWW-Authenticate of a 401 without a credential (resource_metadata and scope, D29). */
  challenge: string;
  /** WWW-Authenticate of a 403 for a write tool called with a read_api token (D29). */
  stepUpChallenge: string;
  /** Stateless mode: a request without credentials goes on to the sealed session id. */
  sessionMayAuthenticate: boolean;
  /** REMOTE_AUTHORIZATION: a bearer that is not ours is a forge token (D23). */
  acceptsForgeBearers: boolean;
  logger: Logger;
  events?: OAuthEvents;
}

const NONE: CallerLookup = { status: 'none' };
const INVALID: CallerLookup = { status: 'invalid' };
const INVALID_TOKEN: CallerLookup = { status: 'invalid', reason: 'invalid_token' };

export function oauthCallers(options: BearerCheckOptions): CallerResolver {
  const { logger } = options;
  // The reason is a fixed word, the metrics label of D11 (never any part of the token):
  // malformed, invalid (not sealed with this deployment's key), expired, audience (another
  // resource), not_access_token (another sealed value) or not_ours (not issued by this server).
  const refuse = (reason: BearerRefusal): CallerLookup => {
    logger.debug('bearer_refused', { reason });
    options.events?.({ kind: 'bearer_refused', reason });
    return INVALID_TOKEN;
  };
  return {
    remote: true,
    challenge: options.challenge,
    stepUpChallenge: options.stepUpChallenge,
    async resolve(headers) {
      const found = credentialFromHeaders(headers);
      if (found.status === 'none') return options.sessionMayAuthenticate ? NONE : INVALID;
      if (found.status === 'invalid') return found; // keeps the reason (a token too short) for the 401's text
      const { credential } = found;
      if (credential.kind !== 'bearer') return { status: 'ok', caller: { credential, apiUrl: options.apiUrl } };
      if (credential.token.startsWith(ACCESS_PREFIX)) {
        const opened = await options.tokens.openAccess(credential.token);
        if (!opened.ok) return refuse(opened.reason);
        const { grant } = opened;
        return {
          status: 'ok',
          caller: {
            credential: { kind: 'bearer', token: opened.forgeToken },
            apiUrl: grant.apiUrl,
            grant: { scope: grant.scope, expiresAt: opened.expiresAt },
          },
        };
      }
      // Another sealed value (a refresh token, a session id) is never a forge token.
      if (credential.token.startsWith('v1.')) return refuse('not_access_token');
      if (!options.acceptsForgeBearers) return refuse('not_ours');
      return { status: 'ok', caller: { credential, apiUrl: options.apiUrl } };
    },
  };
}
