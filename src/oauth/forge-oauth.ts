// This server as an OAuth client of the forge (GitLab's Doorkeeper endpoints, gitlab-api.md §2):
// the authorize URL the user is sent to (with the scope granted, D29), the code exchange with this
// server's own PKCE verifier, and refresh (server-side, D23). Requests go out with
// the deployment's proxy and TLS settings and never follow redirects (they carry secrets).
import type { FetchLike } from '../forge/client';
import type { ForgeEndpoint } from '../forge/endpoint';
import { stripInvisible } from '../text/invisible';
import type { Scope } from './scopes';
import type { OAuthSettings } from './settings';
import { errorCode } from './token-shape';
import { readTextWithin } from '../forge/body';

/** A token answer is a few hundred bytes: anything past this is not read (D30's rule for forge bodies). */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
/** How much of the forge's error_description is passed on. */
const MAX_DESCRIPTION = 300;

export interface ForgeTokens {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

type TokenResult =
  | { ok: true; tokens: ForgeTokens }
  /** `status` 0: the forge could not be reached or did not answer in time. */
  | { ok: false; status: number; error: string; description: string };

export class ForgeOAuthClient {
  constructor(
    private readonly s: OAuthSettings,
    /** The pool client of the forge (proxy, TLS, metrics). */
    private readonly endpoint: () => ForgeEndpoint,
    private readonly fetchImpl: FetchLike = fetch as unknown as FetchLike,
  ) {}

  authorizeUrl(state: string, challenge: string, scope: Scope): string {
    const url = new URL(`${this.s.forgeBase}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: this.s.clientId,
      redirect_uri: this.s.callbackUrl,
      response_type: 'code',
      scope,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.href;
  }

  exchangeCode(code: string, verifier: string): Promise<TokenResult> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: this.s.callbackUrl, code_verifier: verifier });
  }

  refresh(refreshToken: string): Promise<TokenResult> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken, redirect_uri: this.s.callbackUrl });
  }

  private async token(params: Record<string, string>): Promise<TokenResult> {
    const body = new URLSearchParams({ ...params, client_id: this.s.clientId });
    if (this.s.clientSecret) body.set('client_secret', this.s.clientSecret);
    const response = await this.send(`${this.s.forgeBase}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: body.toString(),
    });
    if (!response) return { ok: false, status: 0, error: 'unreachable', description: 'the forge could not be reached' };
    const text = await readCapped(response, MAX_TOKEN_RESPONSE_BYTES);
    if (text === undefined)
      return { ok: false, status: 0, error: 'unreadable', description: `the forge's answer was cut off or over ${MAX_TOKEN_RESPONSE_BYTES} bytes` };
    const json = parseObject(text);
    if (response.ok && json && typeof json.access_token === 'string' && json.access_token !== '') {
      return { ok: true, tokens: pickTokens(json) };
    }
    const error = typeof json?.error === 'string' ? errorCode(json.error) : `http_${response.status}`;
    const description =
      typeof json?.error_description === 'string' ? stripInvisible(json.error_description).slice(0, MAX_DESCRIPTION) : `the forge answered ${response.status}`;
    return { ok: false, status: response.status, error, description };
  }

  private async send(url: string, init: RequestInit): Promise<Response | undefined> {
    const endpoint = this.endpoint();
    const started = performance.now();
    try {
      const response = await this.fetchImpl(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(endpoint.timeoutMs), ...endpoint.fetchOptions });
      endpoint.observe?.(response.status, (performance.now() - started) / 1000);
      return response;
    } catch {
      endpoint.observe?.('error', (performance.now() - started) / 1000);
      return undefined;
    }
  }
}

/** The body as text, or undefined when it runs past `limit` bytes or breaks off; never more than `limit` is held. */
async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  try {
    return await readTextWithin(response, limit);
  } catch {
    return undefined;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Only the fields a client needs, whatever else the forge sent. */
function pickTokens(json: Record<string, unknown>): ForgeTokens {
  const tokens: ForgeTokens = { access_token: json.access_token as string, token_type: 'Bearer' };
  if (typeof json.expires_in === 'number') tokens.expires_in = json.expires_in;
  if (typeof json.refresh_token === 'string') tokens.refresh_token = json.refresh_token;
  if (typeof json.scope === 'string') tokens.scope = json.scope;
  return tokens;
}
