// The first check of GET /authorize (D22, D28): which client asks, and whether the redirect URI is
// one of its own. Until both are known nothing redirects anywhere: an unknown client or a redirect
// URI it did not register is docs/spec.md's "Unregistered redirect_uri" (D22: in every mode). A
// metadata-document client whose document cannot be used is an unknown client too, so it gets the
// same answer, with the reason after docs/spec.md's text for whoever publishes the document. With
// metadata documents off (OAUTH_CIMD_ENABLED=false) a URL client_id is `invalid_client`, saying so.
import type { ClientRegistry, RegisteredClient } from './clients';
import { unregistered } from './flow';
import { oauthError } from './http';
import { redirectUriMatches } from './redirect-uris';

type ClientCheck = { ok: true; client: RegisteredClient; redirectUri: string } | { ok: false; response: Response };

/** `given` is the request's redirect_uri; without one, a client with a single redirect URI uses it. */
export async function checkClient(clients: ClientRegistry, clientId: string | null, given: string | null): Promise<ClientCheck> {
  const resolved = clientId ? await clients.resolve(clientId) : { ok: false as const };
  if (!resolved.ok && 'invalidClient' in resolved && resolved.invalidClient)
    return { ok: false, response: oauthError(400, 'invalid_client', resolved.reason ?? 'unknown client') };
  if (!resolved.ok) return { ok: false, response: unregistered(resolved.reason) };
  const { client } = resolved;
  const redirectUri = given ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (redirectUri === undefined || !redirectUriMatches(client.redirectUris, redirectUri)) return { ok: false, response: unregistered() };
  return { ok: true, client, redirectUri };
}
