// Reads a caller's forge credential from request headers (docs/spec.md "Headers on /mcp"):
// `Authorization: Bearer <token>`, `Private-Token: <token>` or `JOB-TOKEN: <token>`, each token at
// least 20 characters (docs/spec.md remote authorization rule 2). An `Authorization` of another scheme
// (an ingress's `Basic …`) is not ours: it is ignored when a Private-Token or JOB-TOKEN is present,
// and refused when it is the only credential header. A value this server sealed (a session id, a
// download or OAuth token) is never a forge token: it is refused, never sent to a forge (D23).
import type { Credential } from '../forge/credential';
import { SEALED_KINDS, WIRE_VERSION } from '../sealing/kinds';

const MIN_TOKEN_LENGTH = 20;

/** Why credential headers were refused: the 401's text says so (errors.ts). */
export type CredentialRefusal = 'too_short' | 'unsupported_scheme' | 'sealed_value';

type CredentialLookup = { status: 'none' } | { status: 'invalid'; reason: CredentialRefusal } | { status: 'ok'; credential: Credential };

const NONE: CredentialLookup = { status: 'none' };
const TOO_SHORT: CredentialLookup = { status: 'invalid', reason: 'too_short' };
const UNSUPPORTED_SCHEME: CredentialLookup = { status: 'invalid', reason: 'unsupported_scheme' };
const SEALED_VALUE: CredentialLookup = { status: 'invalid', reason: 'sealed_value' };

/** `v1.<kind>.` of any kind this server seals (src/sealing/kinds.ts); no forge token starts so. */
const SEALED = new RegExp(`^${WIRE_VERSION}\\.(?:${Object.keys(SEALED_KINDS).join('|')})\\.`);

/** Whether a credential value is one this server sealed, which no forge would take and none may see. */
export function isSealedValue(token: string): boolean {
  return SEALED.test(token);
}

function accept(kind: Credential['kind'], raw: string): CredentialLookup {
  const token = raw.trim();
  if (token.length < MIN_TOKEN_LENGTH) return TOO_SHORT;
  // A bearer is the caller resolver's to judge: OAuth mode takes its own access tokens there.
  if (kind !== 'bearer' && isSealedValue(token)) return SEALED_VALUE;
  return { status: 'ok', credential: { kind, token } };
}

export function credentialFromHeaders(headers: Headers): CredentialLookup {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const bearer = /^Bearer(?:\s+(.*))?$/i.exec(authorization.trim());
    if (bearer) return accept('bearer', bearer[1] ?? '');
  }
  const privateToken = headers.get('private-token');
  if (privateToken !== null) return accept('private', privateToken);
  const jobToken = headers.get('job-token');
  if (jobToken !== null) return accept('job', jobToken);
  return authorization === null ? NONE : UNSUPPORTED_SCHEME;
}

/** Every credential value the headers carry, usable or not: what a log line must never contain. */
export function credentialValues(headers: Headers): string[] {
  const values: string[] = [];
  for (const name of ['authorization', 'private-token', 'job-token']) {
    const value = headers.get(name)?.trim();
    if (value) values.push(name === 'authorization' ? value.replace(/^\S+\s+/, '') : value);
  }
  return values;
}
