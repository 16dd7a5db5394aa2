// What a Client ID Metadata Document must be (D28): the URL of a client id written plainly, and a
// JSON object whose `client_id` is that URL exactly and whose `redirect_uris` pass the same rules
// as a registration's (redirect-uris.ts). Only the redirect URIs and the name are kept; every
// client is public (PKCE), as with registrations, so `logo_uri` and authentication methods are
// not used.
import type { CachedDocument } from './cimd-cache';
import { cleanClientName } from './client-name';
import { isLoopbackHost } from '../forge/url-parts';
import { MAX_REDIRECT_URIS, MAX_REDIRECT_URI_LENGTH, redirectUriProblem } from './redirect-uris';

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Whether a client id is meant as a metadata document: an http(s) URL rather than a registration's id. */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * The URL of a metadata-document client id, or why it cannot be fetched. `allowLoopback`
 * (OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK) also admits plain http to a loopback host on any port.
 */
export function documentUrl(clientId: string, allowLoopback: boolean): Checked<URL> {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return { ok: false, reason: 'the client_id is not a valid URL' };
  }
  if (clientId.length > MAX_REDIRECT_URI_LENGTH) return { ok: false, reason: `the client_id URL is longer than ${MAX_REDIRECT_URI_LENGTH} characters` };
  const loopbackAllowed = allowLoopback && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) return { ok: false, reason: 'the client_id URL must use https' };
  if (url.username || url.password) return { ok: false, reason: 'the client_id URL must not contain credentials' };
  if (clientId.includes('#')) return { ok: false, reason: 'the client_id URL must not contain a fragment' };
  // Written plainly: no dot segments, default port spelt out, odd host forms
  // (0x7f.1, 2130706433) or escapes that a parser would rewrite into something else.
  if (url.href !== clientId) return { ok: false, reason: `the client_id URL must be written in its plain form (${url.href})` };
  if (url.pathname === '/') return { ok: false, reason: 'the client_id URL must have a path' };
  if (url.port !== '' && !loopbackAllowed) return { ok: false, reason: 'the client_id URL must use the default https port' };
  return { ok: true, value: url };
}

/** The kept part of a fetched document, or why it is not a valid document for `clientId`. */
export function parseDocument(clientId: string, body: string): Checked<CachedDocument> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'the client metadata document is not JSON' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'the client metadata document is not a JSON object' };
  const document = value as Record<string, unknown>;
  if (document.client_id !== clientId) return { ok: false, reason: "the client metadata document's client_id is not the URL it was fetched from" };
  const uris = document.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return { ok: false, reason: 'the client metadata document has no redirect_uris' };
  if (uris.length > MAX_REDIRECT_URIS) return { ok: false, reason: `the client metadata document has more than ${MAX_REDIRECT_URIS} redirect_uris` };
  for (const [i, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return { ok: false, reason: `the client metadata document's redirect_uris[${i}] ${problem}` };
  }
  const name = cleanClientName(document.client_name);
  if (!name.ok) return { ok: false, reason: `the client metadata document's ${name.problem}` };
  return { ok: true, value: { redirectUris: [...new Set(uris as string[])], ...(name.name === undefined ? {} : { clientName: name.name }) } };
}
