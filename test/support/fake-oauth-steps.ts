// The steps of a sign-in as raw HTTP, for tests that look at one endpoint at a time: register a
// client, build its authorize URL, run the browser part, redeem the proxy code.
import { expect } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { TinyBrowser, type ConsentChoice, type Landing } from './fake-oauth-client';

export const REDIRECT = 'http://127.0.0.1:33418/callback';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

export async function registerClient(base: string, redirectUris: string[] = [REDIRECT], name = 'Test Client'): Promise<string> {
  const response = await postJson(`${base}/register`, { client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${base}/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', code_challenge_method: 'S256', redirect_uri: REDIRECT, ...params })) {
    if (v !== undefined) url.searchParams.set(k, v);
  }
  return url.href;
}

export interface SignedIn {
  clientId: string;
  pkce: Pkce;
  landing: Landing;
  browser: TinyBrowser;
}

/** Registers a client and runs the browser part of a sign-in; the landing holds the proxy code. */
export async function signIn(base: string, options: { decision?: ConsentChoice; state?: string; clientId?: string; scope?: string } = {}): Promise<SignedIn> {
  const clientId = options.clientId ?? (await registerClient(base));
  const p = pkce();
  const browser = new TinyBrowser();
  const landing = await browser.signIn(
    authorizeUrl(base, { client_id: clientId, code_challenge: p.challenge, state: options.state ?? 'client-state-1', scope: options.scope }),
    REDIRECT,
    options.decision,
  );
  return { clientId, pkce: p, landing, browser };
}

export function redeem(base: string, params: Record<string, string>, asJson = false): Promise<Response> {
  return asJson
    ? postJson(`${base}/token`, params)
    : fetch(`${base}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
}

export const codeGrant = (s: SignedIn, overrides: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code: s.landing.code!,
  client_id: s.clientId,
  redirect_uri: REDIRECT,
  code_verifier: s.pkce.verifier,
  ...overrides,
});

export interface OwnTokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** A token answer that carries its refresh token (every pair this server hands out does, D23). */
export type TokenBody = OwnTokens & { refresh_token: string };

/** Signs in and redeems the code: this server's own token pair (D23). */
export async function ownTokens(base: string, options: { scope?: string } = {}): Promise<OwnTokens & { clientId: string }> {
  const s = await signIn(base, options);
  const response = await redeem(base, codeGrant(s));
  if (response.status !== 200) throw new Error(`redeem failed: ${response.status} ${await response.text()}`);
  return { ...((await response.json()) as OwnTokens), clientId: s.clientId };
}

export const refreshGrant = (clientId: string, refreshToken: string, overrides: Record<string, string> = {}) => ({
  grant_type: 'refresh_token',
  client_id: clientId,
  refresh_token: refreshToken,
  ...overrides,
});

/** An OAuth error answer (RFC 6749 body): its status, its error code and, when given, part of its description. */
export async function expectError(response: Response, status: number, error: string, description?: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string; error_description: string };
  expect(body.error).toBe(error);
  if (description !== undefined) expect(body.error_description).toContain(description);
  return body;
}
