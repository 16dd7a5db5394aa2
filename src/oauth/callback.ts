// GET /callback: the forge sends the browser back here. The state must open (docs/spec.md: 400 "Unknown or
// expired state parameter") and, when consent was given, this must be the browser that gave it. The
// forge's code is exchanged with this server's own verifier, and the browser goes on to the client's
// redirect URI with the client's state and a proxy code holding the forge's tokens (`v1.pc.` sealed
// in stateless mode, TTL 120 s by default), redeemable once at /token with the client's verifier.
import { stripInvisible } from '../text/invisible';
import { browserHolds, clearBindingCookie } from './binding';
import type { CodeData, FlowDeps, StateData } from './flow';
import { htmlPage, redirect } from './http';
import { withParams } from './redirect-uris';
import { errorCode, isWellFormedToken } from './token-shape';

export const UNKNOWN_STATE = 'Unknown or expired state parameter';
/** The forge's error_description arrives in the URL: only this much of it is shown. */
export const MAX_SHOWN_DESCRIPTION = 300;

const unknownState = (detail = 'Start signing in again from your application.') => htmlPage(400, UNKNOWN_STATE, `${UNKNOWN_STATE}. ${detail}`);

export function callbackHandler(deps: FlowDeps): (request: Request) => Promise<Response> {
  const { settings, logger } = deps;
  return async (request) => {
    const query = new URL(request.url).searchParams;
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

    const forgeError = query.get('error');
    if (forgeError !== null) {
      // Whoever holds the browser can write these parameters: the code is reduced to a word, the
      // description shown short and without invisible characters (D36).
      const error = errorCode(forgeError);
      const description = stripInvisible(query.get('error_description') ?? '').slice(0, MAX_SHOWN_DESCRIPTION);
      logger.warn('oauth_callback_refused', { reason: 'forge error', error });
      return htmlPage(400, 'The forge did not authorize access', `The forge answered "${error}"${description ? `: ${description}` : ''}. Start signing in again from your application.`, headers);
    }
    const code = query.get('code');
    if (!code) return htmlPage(400, 'No authorization code', 'The forge sent no authorization code. Start signing in again from your application.', headers);
    // Only something shaped like a forge code goes to the forge with this server's application credentials.
    if (!isWellFormedToken(code)) {
      logger.warn('oauth_callback_refused', { reason: 'malformed code' });
      return htmlPage(400, 'Malformed authorization code', 'The authorization code in this address is not one the forge issues. Start signing in again from your application.', headers);
    }

    const exchanged = await deps.forge.exchangeCode(code, verifier);
    if (!exchanged.ok) {
      logger.warn('oauth_forge_token_failed', { grant: 'authorization_code', status: exchanged.status, error: exchanged.error });
      return exchanged.status === 0 || exchanged.status >= 500
        ? htmlPage(502, 'The forge is not available', 'The forge could not complete the sign-in. Start signing in again from your application in a moment.', headers)
        : htmlPage(400, 'The forge refused the sign-in', `The forge refused the authorization code (${exchanged.error}: ${exchanged.description}). Start signing in again from your application.`, headers);
    }
    const proxyCode = await deps.vault.put<CodeData>('code', { ...clientRequest, t: exchanged.tokens, at: Math.floor(deps.now() / 1000) }, deps.ipOf(request));
    logger.info('oauth_callback', { outcome: 'ok' });
    return redirect(withParams(clientRequest.r, { code: proxyCode, state: clientRequest.s, iss: settings.serverUrl }), headers);
  };
}
