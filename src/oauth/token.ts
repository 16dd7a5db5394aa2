// POST /token (RFC 6749 §3.2, D22/D23), form-encoded or JSON.
// authorization_code: the proxy code from /callback is redeemed once per replica (docs/spec.md stateless
// rule 5) by the client it was issued to, with the verifier of the challenge it sent to /authorize;
// the answer is the forge's own tokens. refresh_token: forwarded to the forge with this server's
// application credentials, but only when it is shaped like a forge token (token-shape.ts); junk is
// refused here. Errors are `{error, error_description}`.
import type { ClientRegistry } from './clients';
import type { ForgeOAuthClient, ForgeTokens } from './forge-oauth';
import type { CodeData } from './flow';
import { jsonResponse, oauthError, readParams } from './http';
import type { Logger } from '../logging/logger';
import { isVerifier, verifierMatches } from './pkce';
import type { ReplayGuard } from './replay-guard';
import { isWellFormedToken } from './token-shape';
import type { Vault } from './vault';

export interface TokenDeps {
  clients: ClientRegistry;
  vault: Vault;
  guard: ReplayGuard;
  forge: Pick<ForgeOAuthClient, 'refresh'>;
  logger: Logger;
  now: () => number;
}

const invalidRequest = (description: string) => oauthError(400, 'invalid_request', description);
const invalidGrant = (description: string) => oauthError(400, 'invalid_grant', description);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MALFORMED = Symbol('malformed Basic credentials');

/**
 * client_id from the body, or from HTTP Basic for clients that send it there (base64 of
 * `percent-encoded id:secret`); MALFORMED when the Basic value cannot be decoded.
 */
function clientIdOf(request: Request, params: Record<string, string>): string | undefined | typeof MALFORMED {
  if (params.client_id) return params.client_id;
  const basic = /^Basic\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim();
  if (!basic) return undefined;
  if (!BASE64.test(basic)) return MALFORMED;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    return decodeURIComponent(colon >= 0 ? decoded.slice(0, colon) : decoded) || undefined;
  } catch {
    return MALFORMED;
  }
}

function tokenResponse(tokens: ForgeTokens, expiresIn = tokens.expires_in): Response {
  return jsonResponse({ ...tokens, token_type: 'Bearer', ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) });
}

export function tokenHandler(deps: TokenDeps): (request: Request) => Promise<Response> {
  const { logger } = deps;

  async function redeemCode(params: Record<string, string>, clientId: string): Promise<Response> {
    const { code, code_verifier: verifier, redirect_uri: redirectUri } = params;
    if (!code) return invalidRequest('code is required');
    if (!verifier) return invalidRequest('code_verifier is required (PKCE)');
    const opened = await deps.vault.open<CodeData>('code', code);
    if (!opened) return invalidGrant('the authorization code is invalid or expired');
    switch (deps.guard.reserve(code, opened.expiresAt)) {
      case 'consumed':
        logger.warn('oauth_code_replayed', {});
        return invalidGrant('the authorization code was already used');
      case 'pending':
        return invalidGrant('the authorization code is being redeemed by another request');
      case 'full':
        logger.warn('oauth_replay_cache_full', { size: deps.guard.size });
        return oauthError(503, 'temporarily_unavailable', 'Too many authorization codes are being redeemed on this server; try again in a minute', { 'Retry-After': '60' });
    }
    const data = opened.data;
    // Client and PKCE checks: a failure releases the code so the rightful client can still redeem it.
    const problem =
      data.c !== clientId ? 'the authorization code was issued to another client'
      : (data.rp || redirectUri !== undefined) && redirectUri !== data.r ? 'redirect_uri does not match the authorization request'
      : !isVerifier(verifier) || !verifierMatches(verifier, data.cc) ? 'code_verifier does not match the code_challenge (PKCE)'
      : undefined;
    if (problem) {
      deps.guard.release(code);
      return invalidGrant(problem);
    }
    deps.guard.consume(code);
    deps.vault.discard('code', code);
    logger.info('oauth_token', { grant: 'authorization_code' });
    const elapsed = Math.max(0, Math.floor(deps.now() / 1000) - data.at);
    return tokenResponse(data.t, data.t.expires_in === undefined ? undefined : Math.max(0, data.t.expires_in - elapsed));
  }

  async function refresh(params: Record<string, string>): Promise<Response> {
    if (!params.refresh_token) return invalidRequest('refresh_token is required');
    if (!isWellFormedToken(params.refresh_token)) return invalidGrant('the refresh token is malformed');
    const result = await deps.forge.refresh(params.refresh_token);
    if (result.ok) {
      logger.info('oauth_token', { grant: 'refresh_token' });
      return tokenResponse(result.tokens);
    }
    logger.warn('oauth_forge_token_failed', { grant: 'refresh_token', status: result.status, error: result.error });
    if (result.error === 'invalid_grant') return invalidGrant(result.description);
    if (result.status === 0 || result.status >= 500) return oauthError(502, 'temporarily_unavailable', 'the forge is not available; try again');
    return oauthError(502, 'server_error', `the forge refused the refresh (${result.error}: ${result.description})`);
  }

  return async (request) => {
    const body = await readParams(request);
    if (!body.ok) return body.response;
    const params = body.params;
    const grant = params.grant_type;
    if (!grant) return invalidRequest('grant_type is required');
    if (grant !== 'authorization_code' && grant !== 'refresh_token') return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    const clientId = clientIdOf(request, params);
    if (clientId === MALFORMED) return oauthError(400, 'invalid_client', 'the Authorization header is not valid HTTP Basic: base64 of client_id:secret, each percent-encoded');
    if (!clientId || !(await deps.clients.lookup(clientId))) return oauthError(401, 'invalid_client', 'unknown or expired client_id: register again');
    return grant === 'authorization_code' ? redeemCode(params, clientId) : refresh(params);
  };
}
