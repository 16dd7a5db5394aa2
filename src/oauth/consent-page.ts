// The consent page (D24): names the client as it registered itself, says how it is known (the host
// of its Client ID Metadata Document, shown prominently, or a registration with this server, D28),
// where the access will be handed (redirect host and full URI), the forge and the scope asked for,
// with Approve and Deny. The
// form carries only the consent value; every shown text is escaped, and what the client wrote is
// shown without invisible or bidirectional characters (D36), whenever it was registered.
import { stripInvisible } from '../text/invisible';
import { escapeHtml, htmlDocument } from './http';
import { redirectHost } from './redirect-uris';
import type { OAuthSettings } from './settings';

const SCOPE_MEANING: Record<OAuthSettings['scope'], string> = {
  api: 'read and write access to everything your account can reach through the API',
  read_api: 'read access to everything your account can reach through the API',
};

interface ConsentView {
  clientName?: string;
  /** The host of the client's metadata document (D28); absent for a registered client. */
  documentHost?: string;
  /** The scope asked for (D29); absent: the server's default scope. */
  scope?: OAuthSettings['scope'];
  redirectUri: string;
  consentValue: string;
}

export function consentPage(s: OAuthSettings, view: ConsentView): string {
  const forge = escapeHtml(new URL(s.forgeBase).host);
  const clientName = stripInvisible(view.clientName ?? '').trim();
  const name = clientName ? `<strong>${escapeHtml(clientName)}</strong>` : 'An unnamed application';
  const host = `<strong>${escapeHtml(redirectHost(view.redirectUri))}</strong>`;
  const scope = view.scope ?? s.scope;
  const identity = view.documentHost
    ? `<p class="client">Application published at <strong class="client-host" style="font-size:1.2rem">${escapeHtml(view.documentHost)}</strong><br><span class="note">It identifies itself with a client metadata document on that host; its name and redirect URIs come from there.</span></p>`
    : '<p class="client">Application registered with this server<br><span class="note">It registered itself here (dynamic client registration); nobody has checked who runs it.</span></p>';
  const body = [
    `<h1>Allow access to ${forge}?</h1>`,
    identity,
    `<p>${name} wants to use ${forge} with your account through this server (${escapeHtml(new URL(s.serverUrl).host)}).</p>`,
    `<p>If you approve, ${forge} asks you to sign in (if you are not already) and the access is handed to ${host}.</p>`,
    `<p class="note">Redirect URI: <code>${escapeHtml(stripInvisible(view.redirectUri))}</code><br>`,
    `Access asked for: <code>${scope}</code> — ${SCOPE_MEANING[scope]}.</p>`,
    '<p class="note">Approve only if you have just started signing in from that application. The name above is chosen by the application itself.</p>',
    `<form method="post" action="${escapeHtml(`${s.serverUrl}/consent`)}">`,
    `<input type="hidden" name="consent" value="${escapeHtml(view.consentValue)}">`,
    '<div class="actions"><button class="approve" type="submit" name="decision" value="approve">Approve</button>',
    '<button type="submit" name="decision" value="deny">Deny</button></div>',
    '</form>',
  ].join('\n');
  return htmlDocument(`Allow access to ${new URL(s.forgeBase).host}?`, body);
}
