// POST /token (RFC 6749 §3.2, D22/D23/D29), form-encoded or JSON.
// authorization_code: the proxy code from /callback is redeemed once per replica (docs/spec.md
// stateless rule 5), or once across replicas sharing a store (D37; 503 while the store cannot say),
// by the client it was issued to, with the verifier of the challenge it sent to /authorize;
// the answer is this server's own token pair around the forge's tokens (own-tokens.ts), never the
// forge's. refresh_token: only a `v1.rt.` this server issued to the same client, once (a hash-keyed
// replay cache per replica, or the shared store), whether or not the client's registration would
// still admit it to a new authorization (D23); the forge token inside is refreshed server-side
// and a new pair issued. The same token sent again by the same client with the same parameters,
// while its exchange is in flight or within the grace period after it, gets that exchange's answer
// (refresh-reuse.ts, D23). A `scope` may narrow the new access token, never widen it (RFC 6749 §6,
// else invalid_scope, and the refresh token is not spent).
// A `resource` parameter must name this server (D29, else invalid_target), every one of them when
// several are sent (RFC 8707 allows that); any other parameter this endpoint reads may come only once
// (RFC 6749 §3.2, else invalid_request naming it), and in a JSON body each must be a string (http.ts,
// else invalid_request naming it). Errors are `{error, error_description}`.
import type { ClientRegistry } from './clients';
import type { ForgeOAuthClient } from './forge-oauth';
import type { OAuthEvents } from '../metrics/oauth-events';
import type { CodeData } from './flow';
import { firstRepeated, jsonResponse, oauthError, readParams, repeatedParameter } from './http';
import type { Logger } from '../logging/logger';
import type { OwnTokens, RefreshCheck, TokenResponseBody } from './own-tokens';
import { REFRESH_PREFIX } from './own-tokens';
import { isVerifier, verifierMatches } from './pkce';
import { REFRESH_REUSE_GRACE_MS, sameRequest, type Answered, type RefreshRequest, type RefreshReuse } from './refresh-reuse';
import type { ReplayGuard } from './replay-guard';
import { isOurResource } from './resource';
import { refreshedScope, type Scope } from './scopes';
import type { OAuthSettings } from './settings';
import type { Vault } from './vault';

interface TokenDeps {
  settings: Pick<OAuthSettings, 'resource' | 'serverUrl' | 'forgeApiUrl'>;
  clients: ClientRegistry;
  vault: Vault;
  /** Single use of proxy codes. */
  guard: ReplayGuard;
  /** Single use of refresh tokens (D23). */
  refreshGuard: ReplayGuard;
  /** The answers a repeated refresh gets within its grace period (D23). */
  reuse: RefreshReuse<RefreshOutcome>;
  tokens: OwnTokens;
  forge: Pick<ForgeOAuthClient, 'refresh'>;
  logger: Logger;
  now: () => number;
  /** Told of each grant and refresh, ok or refused (metrics, D11). */
  events?: OAuthEvents;
}

/** The parameters /token reads, each of which may come only once (`resource` may come more often). */
const SINGLE_PARAMETERS = ['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'scope'] as const;
/** Every parameter /token reads: in a JSON body each must be a string (http.ts). */
const READ_PARAMETERS: readonly string[] = [...SINGLE_PARAMETERS, 'resource'];

const invalidRequest = (description: string) => oauthError(400, 'invalid_request', description);
const invalidGrant = (description: string) => oauthError(400, 'invalid_grant', description);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MALFORMED = Symbol('malformed Basic credentials');

/** Whether the client tried to authenticate with HTTP Basic (RFC 6749 §2.3.1). */
const usesBasic = (request: Request) => /^Basic(\s|$)/i.test(request.headers.get('authorization') ?? '');

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

const tokenResponse = (body: TokenResponseBody) => jsonResponse(body);

/**
 * What one exchange of a refresh token came to, kept so that its repeats get the same (D23): the
 * pair handed out, or the refusal as it was sent.
 */
export type RefreshOutcome = { ok: true; answered: Answered } | { ok: false; status: number; headers: [string, string][]; body: string };

/** A refresh token that opened and passed the checks of this request. */
type OpenedRefresh = Extract<RefreshCheck, { ok: true }>;
/** How a refresh is refused: invalid_grant, or invalid_client for a lapsed registration (D23). */
type Refuse = (description: string) => Response;

async function refusal(response: Response): Promise<RefreshOutcome> {
  return { ok: false, status: response.status, headers: [...response.headers], body: await response.text() };
}

/** A repeat of another replica's exchange waits for its answer this long between looks, doubling up to the last. */
const REPEAT_PAUSES_MS = [20, 40, 80, 160, 250];

const cacheFull = (what: string) =>
  oauthError(503, 'temporarily_unavailable', `Too many ${what} are being redeemed on this server; try again in a minute`, { 'Retry-After': '60' });
// D37: single use cannot be checked while the shared store is down, so nothing is redeemed (fail closed).
const storeDown = (what: string) =>
  oauthError(503, 'temporarily_unavailable', `The server cannot check that this ${what} is used only once right now; try again shortly`, {
    'Retry-After': '5',
  });

export function tokenHandler(deps: TokenDeps): (request: Request) => Promise<Response> {
  const { logger, settings } = deps;

  // RFC 6749 §5.2: invalid_client is a 400, except for a client that tried to authenticate in the
  // Authorization header: that one gets 401 with a challenge of the scheme it used, so it knows its
  // credentials, not its request, were refused. A client that named itself in the body used no HTTP
  // authentication scheme (every client here is public: the metadata advertises only `none`), and a
  // 401 would owe it a challenge (RFC 7235) for a scheme it has no use for.
  const basicChallenge = { 'WWW-Authenticate': `Basic realm="${settings.serverUrl}"` };
  const invalidClient = (request: Request, description: string) =>
    usesBasic(request) ? oauthError(401, 'invalid_client', description, basicChallenge) : oauthError(400, 'invalid_client', description);

  async function redeemCode(params: Record<string, string>, clientId: string): Promise<Response> {
    const { code, code_verifier: verifier, redirect_uri: redirectUri } = params;
    if (!code) return invalidRequest('code is required');
    if (!verifier) return invalidRequest('code_verifier is required (PKCE)');
    const opened = await deps.vault.open<CodeData>('code', code);
    // A sealed code opens while its age in whole seconds is within its lifetime, so up to a second
    // past expiresAt; there it has expired (as a stored one has), and is no replay (replay-guard.ts).
    if (!opened || opened.expiresAt <= deps.now()) return invalidGrant('the authorization code is invalid or expired');
    switch (await deps.guard.reserve(code, opened.expiresAt)) {
      case 'consumed':
        logger.warn('oauth_code_replayed', {});
        return invalidGrant('the authorization code was already used');
      case 'pending':
        return invalidGrant('the authorization code is being redeemed by another request');
      case 'full':
        logger.warn('oauth_replay_cache_full', { size: deps.guard.size });
        return cacheFull('authorization codes');
      case 'unavailable':
        logger.warn('oauth_single_use_unavailable', { grant: 'authorization_code' });
        return storeDown('authorization code');
    }
    const data = opened.data;
    // Client and PKCE checks: a failure releases the code so the rightful client can still redeem it.
    const problem =
      data.c !== clientId
        ? 'the authorization code was issued to another client'
        : (data.rp || redirectUri !== undefined) && redirectUri !== data.r
          ? 'redirect_uri does not match the authorization request'
          : !isVerifier(verifier) || !verifierMatches(verifier, data.cc)
            ? 'code_verifier does not match the code_challenge (PKCE)'
            : undefined;
    if (problem) {
      await deps.guard.release(code);
      return invalidGrant(problem);
    }
    await deps.guard.consume(code);
    deps.vault.discard('code', code);
    logger.info('oauth_token', { grant: 'authorization_code', scope: data.sc });
    const forgeExpiresAt = data.t.expires_in === undefined ? undefined : data.at + data.t.expires_in;
    return tokenResponse(await deps.tokens.issue({ apiUrl: settings.forgeApiUrl, scope: data.sc, clientId }, data.t, forgeExpiresAt));
  }

  /**
   * `registered`: the client's registration still admits it to new authorizations. When it does not
   * (lapsed, or gone with a restart), the refresh token's binding is the client check (D23), and a
   * refresh that fails is invalid_client rather than invalid_grant: invalid_grant tells a client to
   * sign in again with the same client_id, which /authorize would refuse, so it must register first.
   */
  async function refresh(
    request: Request,
    params: Record<string, string>,
    resources: readonly string[],
    clientId: string,
    registered: boolean,
  ): Promise<Response> {
    const refuse: Refuse = registered
      ? invalidGrant
      : (description: string) => invalidClient(request, `unknown or expired client_id: register again (${description})`);
    const value = params.refresh_token;
    if (!value) return invalidRequest('refresh_token is required');
    // Anything but our own refresh token (a forge token from before D23, an access token) is refused here.
    if (!value.startsWith(REFRESH_PREFIX)) return refuse('the refresh token was not issued by this server: sign in again');
    const opened = await deps.tokens.openRefresh(value);
    if (!opened.ok) {
      logger.warn('oauth_refresh_refused', { reason: opened.reason });
      const why = opened.reason === 'expired' ? 'has expired' : opened.reason === 'audience' ? 'was issued for another server' : 'is invalid';
      return refuse(`the refresh token ${why}: sign in again`);
    }
    if (opened.grant.clientId !== clientId) {
      logger.warn('oauth_refresh_refused', { reason: 'another client' });
      return refuse('the refresh token was issued to another client');
    }
    if (opened.grant.apiUrl !== settings.forgeApiUrl) return refuse('the refresh token is for another forge: sign in again');
    const scope = refreshedScope(params.scope, opened.grant.scope);
    if (scope === undefined)
      return oauthError(
        400,
        'invalid_scope',
        `scope may only name what was granted (${opened.grant.scope === 'api' ? 'api or read_api' : 'read_api'}); leave it out to keep it`,
      );
    // Every check above ran for this request itself, so a repeat is answered only for a token that
    // is still ours, still live and still this client's. Then single use, with its reuse interval:
    // a repeat of an exchange in flight here joins it (no await between the look and the run, so
    // two requests never both run it); anything else runs the exchange below.
    const asked: RefreshRequest = { clientId, scope: params.scope, resources };
    const key = deps.reuse.keyOf(value);
    const running = deps.reuse.inFlight(key);
    if (running) {
      if (!sameRequest(running.request, asked)) {
        logger.warn('oauth_refresh_replayed', { reason: 'another request at once' });
        return refuse('the refresh token is being used by another request');
      }
      const outcome = await running.outcome;
      if (outcome.ok) logger.info('oauth_refresh_repeated', { within: 'exchange' });
      return answer(outcome);
    }
    return answer(await deps.reuse.run(key, asked, () => exchange(value, opened, asked, key, scope, refuse)));
  }

  /** The response for an outcome: the same pair (its expires_in counting down since it was issued), or the same refusal. */
  function answer(outcome: RefreshOutcome): Response {
    if (!outcome.ok) return new Response(outcome.body, { status: outcome.status, headers: outcome.headers });
    const { body, issuedAt } = outcome.answered;
    const elapsed = Math.max(0, Math.floor((deps.now() - issuedAt) / 1000));
    return tokenResponse({ ...body, expires_in: Math.max(0, body.expires_in - elapsed) });
  }

  /**
   * A repeat of a refresh that handed out a pair: that pair, only for the same request (D23).
   * `within`: what the log says it repeated: an exchange still settling elsewhere, or its grace period.
   */
  function repeated(answered: Answered, asked: RefreshRequest, refuse: Refuse, within: 'exchange' | 'grace'): Promise<RefreshOutcome> | RefreshOutcome {
    if (!sameRequest(answered.request, asked)) {
      logger.warn('oauth_refresh_replayed', { reason: 'another request' });
      return refusal(refuse('the refresh token was already used'));
    }
    logger.info('oauth_refresh_repeated', { within });
    return { ok: true, answered };
  }

  /** Single use of the refresh token, then the forge refresh and a new pair. */
  async function exchange(value: string, opened: OpenedRefresh, asked: RefreshRequest, key: string, scope: Scope, refuse: Refuse): Promise<RefreshOutcome> {
    let waitedMs = 0;
    for (let look = 0; ; look++) {
      switch (await deps.refreshGuard.reserve(value, opened.expiresAt)) {
        case 'reserved':
          return refreshAtForge(value, opened, asked, key, scope, refuse);
        case 'consumed': {
          // The pair is remembered before the token is marked used, so a used token's answer, if it
          // is still within its grace period, is there to be found.
          const answered = await deps.reuse.recall(key);
          if (answered) return repeated(answered, asked, refuse, waitedMs > 0 ? 'exchange' : 'grace');
          logger.warn('oauth_refresh_replayed', {});
          return refusal(refuse('the refresh token was already used'));
        }
        case 'pending': {
          // Being exchanged elsewhere: on another replica sharing the store (this replica's own
          // exchanges were joined before), or by a reservation whose holder lost track of it. Another
          // replica's answer appears in the shared store; wait for it, within the grace period.
          const answered = await deps.reuse.recall(key);
          if (answered) return repeated(answered, asked, refuse, 'exchange');
          const pause = REPEAT_PAUSES_MS[Math.min(look, REPEAT_PAUSES_MS.length - 1)];
          if (!deps.reuse.shared || waitedMs + pause > REFRESH_REUSE_GRACE_MS) return refusal(refuse('the refresh token is being used by another request'));
          await Bun.sleep(pause);
          waitedMs += pause;
          continue;
        }
        case 'full':
          logger.warn('oauth_replay_cache_full', { size: deps.refreshGuard.size, of: 'refresh' });
          return refusal(cacheFull('refresh tokens'));
        case 'unavailable':
          logger.warn('oauth_single_use_unavailable', { grant: 'refresh_token' });
          return refusal(storeDown('refresh token'));
      }
    }
  }

  async function refreshAtForge(
    value: string,
    opened: OpenedRefresh,
    asked: RefreshRequest,
    key: string,
    scope: Scope,
    refuse: Refuse,
  ): Promise<RefreshOutcome> {
    const issuedAt = Math.floor(deps.now() / 1000);
    const result = await deps.forge.refresh(opened.forgeRefreshToken);
    if (result.ok) {
      logger.info('oauth_token', { grant: 'refresh_token', scope });
      // A forge that does not rotate its refresh token keeps the one it had.
      const forgeTokens = { ...result.tokens, refresh_token: result.tokens.refresh_token ?? opened.forgeRefreshToken };
      const forgeExpiresAt = forgeTokens.expires_in === undefined ? undefined : issuedAt + forgeTokens.expires_in;
      const answered: Answered = { request: asked, body: await deps.tokens.issue(opened.grant, forgeTokens, forgeExpiresAt, scope), issuedAt: deps.now() };
      // Remembered before the token is marked used: a repeat that finds it used finds the answer too.
      await deps.reuse.remember(key, answered, opened.expiresAt);
      await deps.refreshGuard.consume(value);
      return { ok: true, answered };
    }
    logger.warn('oauth_forge_token_failed', { grant: 'refresh_token', status: result.status, error: result.error });
    if (result.error === 'invalid_grant') {
      await deps.refreshGuard.consume(value); // the forge's refresh token is spent: so is ours
      return refusal(refuse(`the forge refused the refresh (${result.description}): sign in again`));
    }
    // The forge could not say: the client may try the same refresh token again.
    await deps.refreshGuard.release(value);
    if (result.status === 0 || result.status >= 500) return refusal(oauthError(502, 'temporarily_unavailable', 'the forge is not available; try again'));
    return refusal(oauthError(502, 'server_error', `the forge refused the refresh (${result.error}: ${result.description})`));
  }

  async function grantResponse(
    request: Request,
    params: Record<string, string>,
    resources: readonly string[],
    grant: 'authorization_code' | 'refresh_token',
  ): Promise<Response> {
    const clientId = clientIdOf(request, params);
    if (clientId === MALFORMED)
      return invalidClient(request, 'the Authorization header is not valid HTTP Basic: base64 of client_id:secret, each percent-encoded');
    const unknownClient = () => invalidClient(request, 'unknown or expired client_id: register again');
    if (!clientId) return unknownClient();
    // D23: the registration's lifetime (OAUTH_STATELESS_CLIENT_TTL_SECONDS) admits a client to new
    // authorizations, and a code is one. A refresh token outlives it: it was issued to this client
    // and is sealed with its id (RFC 6749 §6; every client here is public), so on that grant the
    // binding is the client check, provided the id is not one the registry knows it never issued.
    const resolved = await deps.clients.resolve(clientId);
    // A kind of id this server does not take at all (a URL with metadata documents off) says so (D28).
    if (!resolved.ok && resolved.invalidClient && resolved.reason) return invalidClient(request, resolved.reason);
    const registered = resolved.ok;
    if (!registered && (grant === 'authorization_code' || !(await deps.clients.admitsRefresh(clientId)))) return unknownClient();
    if (!resources.every((resource) => isOurResource(resource, settings))) return oauthError(400, 'invalid_target', `resource must be ${settings.resource}`);
    return grant === 'authorization_code' ? redeemCode(params, clientId) : refresh(request, params, resources, clientId, registered);
  }

  return async (request) => {
    const body = await readParams(request, READ_PARAMETERS);
    if (!body.ok) return body.response;
    const { params, repeated } = body;
    const twice = firstRepeated(repeated, SINGLE_PARAMETERS);
    if (twice) return invalidRequest(repeatedParameter(twice));
    const resources = repeated.get('resource') ?? (params.resource === undefined ? [] : [params.resource]);
    const grant = params.grant_type;
    if (!grant) return invalidRequest('grant_type is required');
    if (grant !== 'authorization_code' && grant !== 'refresh_token')
      return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    // Metrics (D11), by grant type once it is known: a token pair is `ok`; every other answer from
    // here on (unknown client, wrong resource, bad code or verifier, replay, spent refresh token,
    // a full replay cache, a forge that cannot refresh) is `refused`. A body that cannot be read,
    // repeats a parameter or names no supported grant type counts under neither.
    const response = await grantResponse(request, params, resources, grant);
    deps.events?.({ kind: 'token', grant, outcome: response.status === 200 ? 'ok' : 'refused' });
    return response;
  };
}
