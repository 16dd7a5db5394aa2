// Small HTTP pieces shared by the OAuth endpoints: RFC 6749 error bodies (D22), plain
// HTML pages for the browser legs, redirects, bounded body reading, cookies and CORS for the
// endpoints browser-based clients call directly.
import { readBoundedText } from '../web/body';
import { jsonMembers } from './json-members';

/** Bodies of /register, /token and the consent form are small; anything larger is refused. */
const MAX_OAUTH_BODY_BYTES = 64 * 1024;

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...NO_STORE, ...headers } });
}

/** An RFC 6749 §5.2 error: `{error, error_description}`. */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error, error_description: description }, status, headers);
}

/**
 * Headers of every HTML page: no framing (clickjacking), no scripts, nothing cached, the URL never
 * sent to another origin. `same-origin` rather than `no-referrer`: under `no-referrer` browsers
 * send `Origin: null` with the consent form, and the form's Origin is what /consent checks.
 */
export const HTML_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  ...NO_STORE,
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
  'code{background:#f2f2f2;padding:0 .25rem;border-radius:3px;word-break:break-all}' +
  '.actions{display:flex;gap:1rem;margin-top:2rem}button{font-size:1rem;padding:.6rem 1.4rem;border-radius:6px;border:1px solid #888;cursor:pointer}' +
  'button.approve{background:#1f6feb;color:#fff;border-color:#1f6feb}.note{color:#555;font-size:.9rem}';

/** A whole HTML document; `body` must already be escaped. */
export function htmlDocument(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body>${body}</body></html>`;
}

export function htmlPage(status: number, title: string, message: string, extraHeaders: Headers | Record<string, string> = {}): Response {
  const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`;
  const headers = new Headers(HTML_HEADERS);
  new Headers(extraHeaders).forEach((value, name) => headers.append(name, value));
  return new Response(htmlDocument(title, body), { status, headers });
}

export function redirect(location: string, headers: Headers = new Headers()): Response {
  headers.set('Location', location);
  headers.set('Cache-Control', 'no-store');
  headers.set('Referrer-Policy', 'no-referrer');
  return new Response(null, { status: 302, headers });
}

/** The body as text, or undefined when it is larger than `limit` bytes. */
export function readBodyText(request: Request, limit = MAX_OAUTH_BODY_BYTES): Promise<string | undefined> {
  return readBoundedText(request, limit);
}

/**
 * `params`: each parameter's value (the last, where one was sent twice). `repeated`: every value of
 * each parameter sent more than once, for the endpoint to refuse (RFC 6749 §3.1, §3.2) or, for
 * `resource`, to check each (RFC 8707 allows several).
 */
type ParamsResult = { ok: true; params: Record<string, string>; repeated: ReadonlyMap<string, readonly string[]> } | { ok: false; response: Response };

/** The parameters of `entries`, and those that came more than once with all their values. */
export function collectParams(entries: Iterable<[string, string]>): { params: Record<string, string>; repeated: Map<string, string[]> } {
  const all = new Map<string, string[]>();
  for (const [name, value] of entries) {
    const values = all.get(name);
    if (values) values.push(value);
    else all.set(name, [value]);
  }
  const params: Record<string, string> = {};
  const repeated = new Map<string, string[]>();
  for (const [name, values] of all) {
    params[name] = values[values.length - 1];
    if (values.length > 1) repeated.set(name, values);
  }
  return { params, repeated };
}

/** The first of `names` that came more than once, if any. */
export function firstRepeated(repeated: ReadonlyMap<string, readonly string[]>, names: readonly string[]): string | undefined {
  return names.find((name) => repeated.has(name));
}

/** The error_description of a parameter sent more than once (RFC 6749 §3.1, §3.2). */
export const repeatedParameter = (name: string) => `${name} must not be included more than once`;

const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/** `name` is one of the endpoint's own parameter names, so no text of the request is echoed. */
const notAString = (name: string, value: unknown) => `${name} must be a string, not ${jsonType(value)}`;

/**
 * Parameters of a form-encoded or JSON body (D22: /token takes either). `reads`: the parameters the
 * endpoint reads. In a JSON body each of them must be a string, as every RFC 6749 parameter is: an
 * array, number, object, boolean or null there is refused as invalid_request naming it, since
 * dropping it would skip that parameter's checks (a `resource` sent as an array would name no
 * resource at all). Members the endpoint does not read are ignored, whatever their type (D22).
 */
export async function readParams(request: Request, reads: readonly string[]): Promise<ParamsResult> {
  const text = await readBodyText(request);
  if (text === undefined) return { ok: false, response: oauthError(413, 'invalid_request', `request body exceeds ${MAX_OAUTH_BODY_BYTES} bytes`) };
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('application/json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, response: oauthError(400, 'invalid_request', 'the body is not valid JSON') };
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return { ok: false, response: oauthError(400, 'invalid_request', 'the body must be a JSON object') };
    // Members read in order, so that one written twice is seen (JSON.parse keeps only the last).
    const entries: [string, string][] = [];
    for (const [name, v] of jsonMembers(text)) {
      if (typeof v === 'string') entries.push([name, v]);
      else if (reads.includes(name)) return { ok: false, response: oauthError(400, 'invalid_request', notAString(name, v)) };
    }
    return { ok: true, ...collectParams(entries) };
  }
  if (type === '' || type.includes('application/x-www-form-urlencoded')) {
    return { ok: true, ...collectParams(new URLSearchParams(text)) };
  }
  return { ok: false, response: oauthError(415, 'invalid_request', 'send application/x-www-form-urlencoded or application/json') };
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function cookieHeader(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * Discovery, registration and token requests may come from browser-based clients. Only an Origin
 * that passed D12's check gets this far (web/address-guard.ts), so `*` names no one else; these
 * answers set no cookie and need none.
 */
export function withPublicCors(response: Response): Response {
  response.headers.set('Access-Control-Allow-Origin', '*');
  response.headers.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Retry-After');
  return response;
}

export function publicPreflight(): Response {
  return withPublicCors(
    new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
        'Access-Control-Max-Age': '600',
      },
    }),
  );
}
