// The consent step (D24): GET /authorize answers with the page, POST /consent takes the
// decision. The page's value holds the checked client request and is bound to this browser by a
// cookie (binding.ts); a decision posted from another site is refused by its Origin, and without
// the cookie it cannot count anyway. Approve → on to the forge; Deny → access_denied to the client.
import { isMetadataDocumentId } from './cimd-document';
import { bindingCookie, browserHolds, clearBindingCookie, newBinding } from './binding';
import { consentPage } from './consent-page';
import { sendToForge, unregistered, type ClientRequest, type ConsentData, type FlowDeps } from './flow';
import { HTML_HEADERS, htmlPage, readParams, redirect } from './http';
import { withParams } from './redirect-uris';

/** The page for `request`; `owner` is the address of the browser it is shown to. */
export async function consentResponse(deps: FlowDeps, request: ClientRequest, clientName: string | undefined, owner: string): Promise<Response> {
  const binding = newBinding();
  const consentValue = await deps.vault.put<ConsentData>('consent', { ...request, ...binding }, owner);
  const headers = new Headers(HTML_HEADERS);
  headers.append('Set-Cookie', bindingCookie(deps.settings, binding));
  // A metadata-document client is known by its URL's host (D28); a registered one only by its id.
  const documentHost = isMetadataDocumentId(request.c) ? new URL(request.c).host : undefined;
  return new Response(consentPage(deps.settings, { clientName, documentHost, scope: request.sc, redirectUri: request.r, consentValue }), {
    status: 200,
    headers,
  });
}

const expiredConsent = () =>
  htmlPage(
    400,
    'This request has expired',
    'This consent request is no longer valid (it expired or was already answered). Start signing in again from your application.',
  );

export function consentDecisionHandler(deps: FlowDeps): (request: Request) => Promise<Response> {
  const { settings } = deps;
  const ownOrigin = new URL(settings.serverUrl).origin;
  return async (request) => {
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== ownOrigin) {
      deps.logger.warn('oauth_consent_refused', { reason: 'foreign origin' });
      return htmlPage(403, 'Refused', "The consent decision must be sent from this server's own page.");
    }
    const body = await readParams(request, ['consent', 'decision']);
    if (!body.ok) return htmlPage(400, 'Bad request', 'The consent form could not be read.');
    const { consent, decision } = body.params;
    const opened = consent ? await deps.vault.open<ConsentData>('consent', consent) : undefined;
    if (!opened) return expiredConsent();
    const { k, n, ...clientRequest } = opened.data;
    const binding = { k, n };
    if (!browserHolds(request, settings, binding)) {
      deps.logger.warn('oauth_consent_refused', { reason: 'not the browser the page was shown in' });
      return htmlPage(400, 'Refused', 'This consent form was not opened in this browser. Start signing in again from your application.');
    }
    if (decision !== 'approve' && decision !== 'deny') return htmlPage(400, 'Bad request', 'Choose Approve or Deny.');
    deps.vault.discard('consent', consent);
    if (!(await deps.clients.lookup(clientRequest.c))) return unregistered();
    deps.logger.info('oauth_consent', { decision });
    deps.events?.({ kind: 'authorization', outcome: decision === 'deny' ? 'denied' : 'approved' });
    const headers = new Headers();
    if (decision === 'deny') {
      headers.append('Set-Cookie', clearBindingCookie(settings, binding));
      return redirect(
        withParams(clientRequest.r, { error: 'access_denied', error_description: 'The user denied access', state: clientRequest.s, iss: settings.serverUrl }),
        headers,
      );
    }
    // The cookie lives on for the round trip through the forge, where /callback checks it.
    headers.append('Set-Cookie', bindingCookie(settings, binding));
    return sendToForge(deps, clientRequest, deps.ipOf(request), binding, headers);
  };
}
