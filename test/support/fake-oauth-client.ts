// The client side of an OAuth sign-in for tests: a tiny browser (follows redirects by hand, keeps
// cookies, sends Origin on form posts, fills in the consent form) and an OAuthClientProvider for
// the SDK's own auth flow that records where the SDK sends the user and completes that in the
// tiny browser.
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';

export type ConsentChoice = 'approve' | 'deny';

/** Where a sign-in ended: the parameters the client's redirect URI received. */
export interface Landing {
  url: URL;
  code?: string;
  state?: string;
  error?: string;
  iss?: string;
}

/** A consent form as served: its action and hidden value. */
export interface ConsentForm {
  action: string;
  consent: string;
  origin: string;
}

export function parseConsentForm(html: string, pageUrl: string): ConsentForm | undefined {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const consent = /name="consent" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !consent) return undefined;
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
  return { action: unescape(action), consent: unescape(consent), origin: new URL(pageUrl).origin };
}

export class TinyBrowser {
  /** Cookies by host (cookies ignore ports); only Path=/ cookies are ever set here. */
  readonly cookies = new Map<string, Map<string, string>>();
  /** Every URL requested, in order. */
  readonly visited: string[] = [];

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    this.visited.push(url);
    const headers = new Headers(init.headers);
    const jar = this.cookies.get(target.hostname);
    if (jar?.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.store(target.hostname, line);
    return response;
  }

  private store(host: string, line: string): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    this.cookies.set(host, jar);
    if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) jar.delete(name);
    else jar.set(name, value);
  }

  /** Posts a consent decision the way a browser submits the form. */
  submitConsent(form: ConsentForm, decision: ConsentChoice): Promise<Response> {
    return this.request(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: form.origin },
      body: new URLSearchParams({ consent: form.consent, decision }).toString(),
    });
  }

  /**
   * Follows a sign-in from `start` until the browser is sent to `redirectUri`, answering the
   * consent page with `decision`. Throws on any page that is neither a redirect nor the consent form.
   */
  async signIn(start: string, redirectUri: string, decision: ConsentChoice = 'approve'): Promise<Landing> {
    let url = start;
    let response = await this.request(url);
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, url).href;
        if (next.startsWith(redirectUri)) return landing(next);
        url = next;
        response = await this.request(url);
        continue;
      }
      const html = response.status === 200 ? await response.text() : '';
      const form = parseConsentForm(html, url);
      if (!form) throw new Error(`sign-in stopped at ${url}: ${response.status} ${html || (await response.text())}`);
      response = await this.submitConsent(form, decision);
      url = form.action;
    }
    throw new Error('too many redirects');
  }
}

export function landing(href: string): Landing {
  const url = new URL(href);
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  return { url, code: get('code'), state: get('state'), error: get('error'), iss: get('iss') };
}

/** An OAuthClientProvider keeping everything in memory, whose "user" signs in through a TinyBrowser. */
export class TestOAuthProvider implements OAuthClientProvider {
  readonly browser = new TinyBrowser();
  authorizationUrl?: URL;
  private info?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;

  constructor(
    readonly redirectUrl: string = 'http://127.0.0.1:33418/callback',
    private readonly name = 'Test Client',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  // Kept beside the verifier, so the SDK can check the code comes back from the authorization
  // server it was sent to.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  // What the SDK discards before it starts over: after invalid_client the client registration and
  // tokens, after invalid_grant the tokens (as real clients do).
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  /** Completes the sign-in the SDK started, in the tiny browser; resolves to where it landed. */
  completeSignIn(decision: ConsentChoice = 'approve'): Promise<Landing> {
    if (!this.authorizationUrl) throw new Error('the SDK has not started a sign-in');
    return this.browser.signIn(this.authorizationUrl.href, this.redirectUrl, decision);
  }
}
