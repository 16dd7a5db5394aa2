// The scopes this server grants (D29): the forge scopes it requests on the caller's behalf.
// `api` reads and writes, `read_api` only reads. A client that names neither gets the server's
// default (`api`, or `read_api` in read-only mode); a read-only server never grants `api`.
// Names the server does not know are passed over (clients may ask for every scope they saw listed).
// A refresh is held to what was granted (RFC 6749 §6): it may ask for less, never for more.

export type Scope = 'api' | 'read_api';

/** What both metadata documents list as `scopes_supported` (D29). */
export const SCOPES_SUPPORTED: readonly Scope[] = ['read_api', 'api'];

/** The scope granted for a `scope` parameter (space-separated, RFC 6749 §3.3), or absent. */
export function grantedScope(requested: string | null | undefined, serverDefault: Scope): Scope {
  const names = (requested ?? '').split(' ');
  if (serverDefault === 'api' && names.includes('api')) return 'api';
  if (names.includes('read_api')) return 'read_api';
  return serverDefault;
}

/**
 * The scope of the access token a refresh grant asks for (RFC 6749 §6): absent or empty, the scope
 * granted; otherwise only names the grant covers (`api` covers `read_api`), and the token gets what is
 * asked. Undefined when a name asks for more than was granted, or for a scope this server does not
 * grant at all: `invalid_scope`.
 */
export function refreshedScope(requested: string | undefined, granted: Scope): Scope | undefined {
  const names = (requested ?? '').split(' ').filter((name) => name !== '');
  if (names.length === 0) return granted;
  const covered: readonly string[] = granted === 'api' ? ['api', 'read_api'] : ['read_api'];
  if (!names.every((name) => covered.includes(name))) return undefined;
  return names.includes('api') ? 'api' : 'read_api';
}

export function isScope(value: unknown): value is Scope {
  return value === 'api' || value === 'read_api';
}
