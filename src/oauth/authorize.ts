// GET /authorize: checks the client's request against its registration, then shows the consent
// page (D24) or, with MCP_OAUTH_CONSENT=false, goes straight to the forge. Until the
// redirect URI is known to be registered nothing redirects anywhere: an unknown client or an
// unregistered redirect URI is a 400 (D22, in every mode), and so is a Client ID Metadata Document
// that cannot be used, an unknown client as well (client-check.ts); errors after that go back to the client's redirect
// URI as RFC 6749 §4.1.2.1 says. The `scope` asked for decides the scope granted, and `resource`,
// when sent (once or more, RFC 8707), must name this server (D29). Any other parameter read here may
// come only once (RFC 6749 §3.1): a repeated client_id or redirect_uri leaves the redirect URI in
// doubt, so that is a 400 here; any other goes back to the client as invalid_request.
import { checkClient } from './client-check';
import { consentResponse } from './consent';
import { sendToForge, type ClientRequest, type FlowDeps } from './flow';
import { collectParams, firstRepeated, oauthError, redirect, repeatedParameter } from './http';
import { isChallenge } from './pkce';
import { withParams } from './redirect-uris';
import { isOurResource } from './resource';
import { grantedScope } from './scopes';
import { requestQuery } from '../web/request-url';

const MAX_STATE_LENGTH = 1024;

/** Which client and where to: repeated, these leave the redirect URI in doubt. */
const CLIENT_PARAMETERS = ['client_id', 'redirect_uri'] as const;
/** The other parameters read here that may come only once (`resource` may come more often). */
const REQUEST_PARAMETERS = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

export function authorizeHandler(deps: FlowDeps): (request: Request) => Promise<Response> {
  const { settings } = deps;
  return async (request) => {
    const query = requestQuery(request.url);
    const { repeated } = collectParams(query);
    const doubtful = firstRepeated(repeated, CLIENT_PARAMETERS);
    if (doubtful) return oauthError(400, 'invalid_request', repeatedParameter(doubtful));
    const given = query.get('redirect_uri');
    const checked = await checkClient(deps.clients, query.get('client_id'), given);
    if (!checked.ok) return checked.response;
    const { client, redirectUri } = checked;

    const state = query.get('state') ?? undefined;
    const fail = (error: string, description: string) =>
      redirect(withParams(redirectUri, { error, error_description: description, state, iss: settings.serverUrl }));
    const twice = firstRepeated(repeated, REQUEST_PARAMETERS);
    if (twice) return fail('invalid_request', repeatedParameter(twice));
    if (query.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (query.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'PKCE is required: code_challenge_method must be S256');
    const challenge = query.get('code_challenge');
    if (challenge === null) return fail('invalid_request', 'PKCE is required: code_challenge is missing');
    if (!isChallenge(challenge)) return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters)');
    if (state !== undefined && state.length > MAX_STATE_LENGTH) return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters`);
    if (!query.getAll('resource').every((resource) => isOurResource(resource, settings)))
      return fail('invalid_target', `resource must be ${settings.resource}`);

    const clientRequest: ClientRequest = {
      c: client.clientId,
      r: redirectUri,
      rp: given !== null,
      cc: challenge,
      sc: grantedScope(query.get('scope'), settings.scope),
      ...(state === undefined ? {} : { s: state }),
    };
    deps.logger.info('oauth_authorize', { consent: settings.consent, scope: clientRequest.sc });
    const owner = deps.ipOf(request);
    if (settings.consent) return consentResponse(deps, clientRequest, client.name, owner);
    // MCP_OAUTH_CONSENT=false: the deployment approves in the user's place (D24), so the request
    // sent straight on to the forge counts as an approved authorization (metrics, D11); the
    // counter then means "authorization requests passed on to the forge" in both modes.
    deps.events?.({ kind: 'authorization', outcome: 'approved' });
    return sendToForge(deps, clientRequest, owner);
  };
}
