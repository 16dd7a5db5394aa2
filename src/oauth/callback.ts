// GET /callback: the forge sends the browser back here. The state must open (docs/spec.md: 400 "Unknown or
// expired state parameter") and, when consent was given, this must be the browser that gave it. The
// forge's code is exchanged with this server's own verifier, and the browser goes on to the client's
// redirect URI with the client's state and a proxy code holding the forge's tokens (`v1.pc.` sealed
// in stateless mode, TTL 120 s by default), redeemable once at /token with the client's verifier.
// When the forge answers with an error instead (the user denied access there), the state already
// names the client's redirect URI, checked at /authorize, so the error goes back to it as RFC 6749
// §4.1.2.1 says, with the client's state and `iss` (authorization-server metadata advertises it).
// So does every later failure (no or a malformed code, the forge refusing the exchange: server_error;
// the forge unreachable, timing out or failing: temporarily_unavailable), never with the forge's text.
import { browserHolds, clearBindingCookie } from './binding';
import type { CodeData, FlowDeps, StateData } from './flow';
import { htmlPage, redirect } from './http';
import { withParams } from './redirect-uris';
import { errorCode, isWellFormedToken } from './token-shape';
import { requestQuery } from '../web/request-url';

const UNKNOWN_STATE = 'Unknown or expired state parameter';

/**
 * RFC 6749 §4.1.2.1's error codes of an authorization response: the forge's code is passed on to the
 * client only when it is one of these, anything else becomes `server_error`. The forge's
 * error_description is never passed on: whoever holds the browser can write it.
 */
const AUTHORIZATION_ERRORS: ReadonlySet<string> = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
]);

const unknownState = (detail = 'Start signing in again from your application.') => htmlPage(400, UNKNOWN_STATE, `${UNKNOWN_STATE}. ${detail}`);

export function callbackHandler(deps: FlowDeps): (request: Request) => Promise<Response> {
  const { settings, logger } = deps;
  return async (request) => {
    const query = requestQuery(request.url);
    const stateValue = query.get('state');
    const opened = stateValue ? await deps.vault.open<StateData>('state', stateValue) : undefined;
    if (!stateValue || !opened) {
      logger.warn('oauth_callback_refused', { reason: 'unknown state' });
      return unknownState();
    }
    const { v: verifier, k, n, ...clientRequest } = opened.data;
    const headers = new Headers();
    if (k !== undefined && n !== undefined) {
      if (!browserHolds(request, settings, { k, n })) {
        logger.warn('oauth_callback_refused', { reason: 'not the browser that gave consent' });
        return unknownState('This sign-in was not started in this browser: start it again from your application.');
      }
      headers.append('Set-Cookie', clearBindingCookie(settings, { k, n }));
    }
    deps.vault.discard('state', stateValue);
    // The state is valid: every answer from here on goes to the client's redirect URI, where the
    // client waits for it, with its state and `iss`; a page in the browser would leave it waiting.
    const back = (params: Record<string, string>) =>
      redirect(withParams(clientRequest.r, { ...params, state: clientRequest.s, iss: settings.serverUrl }), headers);
    /** A failure of the forge or of its redirect (RFC 6749 §4.1.2.1), in words of our own. */
    const fail = (error: 'server_error' | 'temporarily_unavailable', description: string) => back({ error, error_description: description });

    const forgeError = query.get('error');
    if (forgeError !== null) {
      const error = AUTHORIZATION_ERRORS.has(forgeError) ? forgeError : 'server_error';
      // Logged as a word (token-shape.ts): whoever holds the browser can write this parameter.
      logger.warn('oauth_callback_refused', { reason: 'forge error', error: errorCode(forgeError) });
      const description = error === forgeError ? `The forge did not authorize access: ${error}` : 'The forge did not authorize access';
      return back({ error, error_description: description });
    }
    // A redirect from the forge without a code is the forge's fault, not the client's: server_error.
    const code = query.get('code');
    if (!code) {
      logger.warn('oauth_callback_refused', { reason: 'no code' });
      return fail('server_error', 'The forge sent no authorization code');
    }
    // Only something shaped like a forge code goes to the forge with this server's application credentials.
    if (!isWellFormedToken(code)) {
      logger.warn('oauth_callback_refused', { reason: 'malformed code' });
      return fail('server_error', 'The forge sent a malformed authorization code');
    }

    const exchanged = await deps.forge.exchangeCode(code, verifier);
    if (!exchanged.ok) {
      // The forge's status and error code (a short word, token-shape.ts) say why; its description stays out of the redirect.
      const unavailable = exchanged.status === 0 || exchanged.status >= 500;
      logger.warn('oauth_forge_token_failed', {
        grant: 'authorization_code',
        status: exchanged.status,
        error: exchanged.error,
        reason: unavailable ? 'forge unavailable' : 'forge refused the code',
      });
      return unavailable
        ? fail('temporarily_unavailable', 'The forge could not be reached to complete the sign-in; try again')
        : fail('server_error', 'The forge refused the authorization code');
    }
    const proxyCode = await deps.vault.put<CodeData>('code', { ...clientRequest, t: exchanged.tokens, at: Math.floor(deps.now() / 1000) }, deps.ipOf(request));
    logger.info('oauth_callback', { outcome: 'ok' });
    return back({ code: proxyCode });
  };
}
