// The browser binding of an authorization (D24; the MCP specification's confused-deputy
// rules): the consent page sets a cookie holding a random nonce, and both the consent form and the
// forge's return to /callback count only in the browser holding it. Someone who starts a sign-in
// with their own client and passes the resulting consent form or forge link to a victim gets
// nothing: the victim's browser lacks the cookie. Each authorization has its own cookie (key in the
// name), so sign-ins running side by side do not disturb each other. Everything needed to check it
// travels in the sealed values, so any replica can.
import { timingSafeEqual } from 'node:crypto';
import type { BrowserBinding } from './flow';
import { cookieHeader, readCookie } from './http';
import { randomToken } from './pkce';
import type { OAuthSettings } from './settings';

export function newBinding(): BrowserBinding {
  return { k: randomToken(9), n: randomToken(32) };
}

function cookieName(s: OAuthSettings, key: string): string {
  // `__Host-` pins the cookie to this host, over https, for the whole path (not available on http).
  return `${s.secureCookies ? '__Host-' : ''}forge-mcp-auth-${key}`;
}

export function bindingCookie(s: OAuthSettings, binding: BrowserBinding): string {
  return cookieHeader(cookieName(s, binding.k), binding.n, s.ttlSeconds.pending, s.secureCookies);
}

export function clearBindingCookie(s: OAuthSettings, binding: BrowserBinding): string {
  return cookieHeader(cookieName(s, binding.k), '', 0, s.secureCookies);
}

export function browserHolds(request: Request, s: OAuthSettings, binding: BrowserBinding): boolean {
  const held = readCookie(request, cookieName(s, binding.k));
  if (held === undefined) return false;
  const a = Buffer.from(held);
  const b = Buffer.from(binding.n);
  return a.length === b.length && timingSafeEqual(a, b);
}
