// The fake forge's OAuth provider, answering like GitLab's Doorkeeper (gitlab-api.md §2):
// /oauth/authorize approves at once and redirects with a code (as GitLab does for an application
// the signed-in user already authorized), /oauth/token exchanges codes (PKCE S256 checked, codes
// single-use) and rotates refresh tokens, /oauth/token/info describes a token. Issued access tokens
// are entered in the forge model, so /api/v4 accepts them as bearer tokens until revoked.
import { createHash, randomBytes } from 'node:crypto';
import { failureResponse, type ForgeHooks, type RecordedRequest } from './fake-forge/control';
import type { ForgeModel } from './fake-forge/model';

export interface FakeOAuthApp {
  uid: string;
  /** Set for a confidential application: then /oauth/token requires it. */
  secret?: string;
  /** GitLab takes several, one per line; the request must name one of them exactly. */
  redirectUris: string[];
  scopes: string[];
}

interface CodeGrant {
  app: FakeOAuthApp;
  userId: number;
  redirectUri: string;
  scope: string;
  challenge?: string;
  method?: string;
  expiresAt: number;
  used: boolean;
}

interface AccessGrant {
  app: FakeOAuthApp;
  userId: number;
  scope: string;
  createdAt: number;
  refreshToken: string;
  expired: boolean;
}

/** Doorkeeper's texts. */
const INVALID_GRANT =
  'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.';
const INVALID_CLIENT = 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.';

export const ACCESS_TOKEN_LIFETIME = 7200;

const random = () => randomBytes(32).toString('hex');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export class FakeOAuth {
  readonly apps = new Map<string, FakeOAuthApp>();
  /** The user signed in at the forge; authorize approves as this user. */
  userId = 1;
  /** When set, the next authorize answers error=access_denied (the user refused at the forge). */
  denyNext = false;
  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, string>();

  constructor(
    private readonly model: ForgeModel,
    private readonly now: () => number = Date.now,
  ) {}

  registerApp(app: FakeOAuthApp): FakeOAuthApp {
    this.apps.set(app.uid, app);
    return app;
  }

  /** Forgets applications, codes and tokens (the forge's reset reloads the model itself). */
  reset(): void {
    this.apps.clear();
    this.codes.clear();
    this.access.clear();
    this.refresh.clear();
    this.userId = 1;
    this.denyNext = false;
  }

  /** Revokes an access token and its refresh token: the API, token/info and refresh refuse them. */
  revoke(accessToken: string): void {
    const grant = this.access.get(accessToken);
    if (grant) this.refresh.delete(grant.refreshToken);
    this.access.delete(accessToken);
    this.model.tokens.delete(accessToken);
  }

  /** Lets an access token expire: the API and token/info refuse it; its refresh token still works. */
  expire(accessToken: string): void {
    const grant = this.access.get(accessToken);
    if (grant) grant.expired = true;
    this.model.tokens.delete(accessToken);
  }

  /** Access tokens currently valid. */
  get accessTokens(): string[] {
    return [...this.access].filter(([, grant]) => !grant.expired).map(([token]) => token);
  }

  async handle(request: Request, hooks: ForgeHooks = {}): Promise<Response> {
    const url = new URL(request.url);
    const params = await this.params(request, url);
    const recorded: RecordedRequest = {
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(request.headers),
      body: request.method === 'GET' ? undefined : params,
    };
    hooks.onRequest?.(recorded);
    const failure = hooks.takeFailure?.(recorded);
    if (failure) return failureResponse(failure);
    if (request.method === 'GET' && url.pathname === '/oauth/authorize') return this.authorize(params);
    if (request.method === 'POST' && url.pathname === '/oauth/token') return this.token(request, params);
    if (request.method === 'GET' && url.pathname === '/oauth/token/info') return this.info(request, url);
    return json({ error: '404 Not Found' }, 404);
  }

  private async params(request: Request, url: URL): Promise<Record<string, string>> {
    if (request.method === 'GET') return Object.fromEntries(url.searchParams);
    const text = await request.text();
    if ((request.headers.get('content-type') ?? '').includes('json')) {
      try {
        return JSON.parse(text) as Record<string, string>;
      } catch {
        return {};
      }
    }
    return Object.fromEntries(new URLSearchParams(text));
  }

  private authorize(p: Record<string, string>): Response {
    const app = this.apps.get(p.client_id ?? '');
    // Doorkeeper shows an error page, never a redirect, when client or redirect URI are wrong.
    if (!app) return new Response(`<p>${INVALID_CLIENT}</p>`, { status: 401, headers: { 'content-type': 'text/html' } });
    if (!app.redirectUris.includes(p.redirect_uri))
      return new Response('<p>The redirect uri included is not valid.</p>', { status: 400, headers: { 'content-type': 'text/html' } });
    const back = (params: Record<string, string>) => {
      const target = new URL(p.redirect_uri);
      for (const [k, v] of Object.entries({ ...params, ...(p.state ? { state: p.state } : {}) })) target.searchParams.set(k, v);
      return new Response(null, { status: 302, headers: { location: target.href } });
    };
    if (p.response_type !== 'code')
      return back({ error: 'unsupported_response_type', error_description: 'The authorization server does not support this response type.' });
    const scope = p.scope || app.scopes.join(' ');
    if (!scope.split(' ').every((s) => app.scopes.includes(s)))
      return back({ error: 'invalid_scope', error_description: 'The requested scope is invalid, unknown, or malformed.' });
    if (p.code_challenge_method && !['S256', 'plain'].includes(p.code_challenge_method))
      return back({ error: 'invalid_request', error_description: 'The code_challenge_method is not supported.' });
    if (!app.secret && !p.code_challenge)
      return back({ error: 'invalid_request', error_description: 'The request is missing a required parameter: code_challenge.' });
    if (this.denyNext) {
      this.denyNext = false;
      return back({ error: 'access_denied', error_description: 'The resource owner or authorization server denied the request.' });
    }
    const code = random();
    this.codes.set(code, {
      app,
      userId: this.userId,
      redirectUri: p.redirect_uri,
      scope,
      challenge: p.code_challenge,
      method: p.code_challenge_method || 'plain',
      expiresAt: this.now() + 600_000,
      used: false,
    });
    return back({ code });
  }

  private token(request: Request, p: Record<string, string>): Response {
    const basic = /^Basic\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString().split(':') : [];
    const app = this.apps.get(p.client_id ?? basicId ?? '');
    const secret = p.client_secret ?? basicSecret;
    if (!app || (app.secret !== undefined && secret !== app.secret)) return json({ error: 'invalid_client', error_description: INVALID_CLIENT }, 401);
    const invalidGrant = () => json({ error: 'invalid_grant', error_description: INVALID_GRANT }, 400);
    if (p.grant_type === 'authorization_code') {
      const grant = this.codes.get(p.code ?? '');
      if (!grant || grant.used || grant.expiresAt < this.now() || grant.app !== app || grant.redirectUri !== p.redirect_uri) return invalidGrant();
      if (grant.challenge) {
        const verifier = p.code_verifier ?? '';
        if ((grant.method === 'S256' ? s256(verifier) : verifier) !== grant.challenge) return invalidGrant();
      }
      grant.used = true;
      return this.issue(app, grant.userId, grant.scope);
    }
    if (p.grant_type === 'refresh_token') {
      const previous = this.refresh.get(p.refresh_token ?? '');
      const old = previous ? this.access.get(previous) : undefined;
      if (!previous || !old || old.app !== app) return invalidGrant();
      // Rotation: the old pair stops working.
      this.revoke(previous);
      return this.issue(app, old.userId, old.scope);
    }
    return json({ error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' }, 400);
  }

  private issue(app: FakeOAuthApp, userId: number, scope: string): Response {
    const accessToken = random();
    const refreshToken = random();
    const createdAt = Math.floor(this.now() / 1000);
    this.access.set(accessToken, { app, userId, scope, createdAt, refreshToken, expired: false });
    this.refresh.set(refreshToken, accessToken);
    this.model.tokens.set(accessToken, { userId, kind: 'personal', type: 'oauth', scopes: scope.split(' ') });
    return json({
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_LIFETIME,
      refresh_token: refreshToken,
      scope,
      created_at: createdAt,
    });
  }

  private info(request: Request, url: URL): Response {
    const token = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? url.searchParams.get('access_token') ?? '';
    const grant = this.access.get(token);
    if (!grant || grant.expired)
      return json({ error: 'invalid_token', error_description: 'The access token is invalid' }, 401, {
        'www-authenticate': 'Bearer realm="Doorkeeper", error="invalid_token"',
      });
    const expiresIn = grant.createdAt + ACCESS_TOKEN_LIFETIME - Math.floor(this.now() / 1000);
    return json({
      resource_owner_id: grant.userId,
      scope: grant.scope.split(' '),
      expires_in: expiresIn,
      application: { uid: grant.app.uid },
      created_at: grant.createdAt,
    });
  }
}
