// What travels through an authorization in progress, and the step every path ends with: sending
// the browser to the forge with this server's own PKCE pair and a state that carries the client's
// request. Field names are short because in stateless mode they are sealed into URLs.
import type { Logger } from '../logging/logger';
import type { ClientRegistry } from './clients';
import type { OAuthEvents } from '../metrics/oauth-events';
import type { ForgeOAuthClient, ForgeTokens } from './forge-oauth';
import { oauthError, redirect } from './http';
import { newPkcePair } from './pkce';
import type { Scope } from './scopes';
import type { OAuthSettings } from './settings';
import type { Vault } from './vault';

/** The client's authorization request, once checked against its registration. */
export interface ClientRequest {
  /** client_id */
  c: string;
  /** redirect_uri (registered, exact) */
  r: string;
  /** whether redirect_uri was sent, so /token must repeat it (RFC 6749 §4.1.3) */
  rp: boolean;
  /** the client's state, returned to it unchanged */
  s?: string;
  /** the client's S256 code_challenge */
  cc: string;
  /** the scope granted (D29): asked of the forge, carried into the tokens */
  sc: Scope;
}

/** Ties an authorization to the browser that approved it: cookie key and the nonce it holds. */
export interface BrowserBinding {
  k: string;
  n: string;
}

export type ConsentData = ClientRequest & BrowserBinding;

export type StateData = ClientRequest &
  Partial<BrowserBinding> & {
    /** this server's PKCE verifier toward the forge */
    v: string;
  };

export interface CodeData extends ClientRequest {
  /** the forge's tokens */
  t: ForgeTokens;
  /** when the forge issued them (Unix seconds), to count expires_in down */
  at: number;
}

export interface FlowDeps {
  settings: OAuthSettings;
  clients: ClientRegistry;
  vault: Vault;
  forge: ForgeOAuthClient;
  logger: Logger;
  now: () => number;
  /** The client address a request counts against: what it leaves in the vault is held in its name. */
  ipOf(request: Request): string;
  /** Told of authorization outcomes (metrics, D11). */
  events?: OAuthEvents;
}

/** docs/spec.md's text for an unknown client or a redirect URI it did not register (D22). */
const UNREGISTERED = 'Unregistered redirect_uri';
/** D22's 400; `reason`, when known (an unusable metadata document, D28), follows docs/spec.md's text. */
export const unregistered = (reason?: string) => oauthError(400, 'invalid_request', reason ? `${UNREGISTERED}: ${reason}` : UNREGISTERED);

/**
 * Redirects the browser to the forge's /oauth/authorize; the state remembers the client's request.
 * `owner` is the address of the browser being sent.
 */
export async function sendToForge(deps: FlowDeps, request: ClientRequest, owner: string, binding?: BrowserBinding, headers?: Headers): Promise<Response> {
  const { verifier, challenge } = newPkcePair();
  const state = await deps.vault.put<StateData>('state', { ...request, ...binding, v: verifier }, owner);
  return redirect(deps.forge.authorizeUrl(state, challenge, request.sc), headers);
}
