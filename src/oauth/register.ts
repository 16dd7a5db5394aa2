// POST /register: dynamic client registration (RFC 7591, D22). Only redirect URIs and a
// display name are kept; every client is public (PKCE instead of a secret), so requested
// authentication methods and grant types are answered with what this server supports.
import type { Logger } from '../logging/logger';
import type { OAuthEvents } from '../metrics/oauth-events';
import { cleanClientName } from './client-name';
import { RegistrationTooLarge, type ClientRegistry, type RegisteredClient } from './clients';
import { jsonResponse, oauthError, readBodyText } from './http';
import { MAX_REDIRECT_URIS, redirectHost, redirectUriProblem } from './redirect-uris';

interface RegisterDeps {
  clients: ClientRegistry;
  /** The client address a registration is held for (its per-address quota). */
  ipOf(request: Request): string;
  logger: Logger;
  /** Told of each registration (metrics, D11). */
  events?: OAuthEvents;
}

const invalidMetadata = (description: string) => oauthError(400, 'invalid_client_metadata', description);

export function registerHandler(deps: RegisterDeps): (request: Request) => Promise<Response> {
  return async (request) => {
    const text = await readBodyText(request);
    if (text === undefined) return invalidMetadata('the registration request is too large');
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch {
      return invalidMetadata('the body must be a JSON object (RFC 7591)');
    }
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return invalidMetadata('the body must be a JSON object (RFC 7591)');
    const { redirect_uris: uris, client_name: rawName } = metadata as Record<string, unknown>;

    if (!Array.isArray(uris) || uris.length === 0) return oauthError(400, 'invalid_redirect_uri', 'redirect_uris: at least one redirect URI is required');
    if (uris.length > MAX_REDIRECT_URIS) return oauthError(400, 'invalid_redirect_uri', `redirect_uris: at most ${MAX_REDIRECT_URIS} are accepted`);
    for (const [i, uri] of uris.entries()) {
      const problem = redirectUriProblem(uri);
      if (problem) return oauthError(400, 'invalid_redirect_uri', `redirect_uris[${i}]: ${problem}`);
    }
    const name = cleanClientName(rawName);
    if (!name.ok) return invalidMetadata(name.problem);

    let client: RegisteredClient;
    try {
      client = await deps.clients.register([...new Set(uris as string[])], name.name, deps.ipOf(request));
    } catch (error) {
      if (error instanceof RegistrationTooLarge) return invalidMetadata(error.message);
      throw error;
    }
    deps.logger.info('client_registered', { redirect_hosts: client.redirectUris.map(redirectHost) });
    deps.events?.({ kind: 'registration' });
    return jsonResponse(
      {
        client_id: client.clientId,
        client_id_issued_at: client.issuedAt,
        ...(client.name === undefined ? {} : { client_name: client.name }),
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      201,
    );
  };
}
