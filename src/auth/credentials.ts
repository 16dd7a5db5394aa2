// Reads a caller's forge credential from request headers (docs/spec.md "Headers on /mcp"):
// `Authorization: Bearer <token>`, `Private-Token: <token>` or `JOB-TOKEN: <token>`, each token at
// least 20 characters (docs/spec.md remote authorization rule 2). An `Authorization` of another scheme
// (an ingress's `Basic …`) is not ours: it is ignored when a Private-Token or JOB-TOKEN is present,
// and refused when it is the only credential header.
import type { Credential } from '../forge/credential';

export const MIN_TOKEN_LENGTH = 20;

/** Why credential headers were refused: the 401's text says so (errors.ts). */
export type CredentialRefusal = 'too_short' | 'unsupported_scheme';

export type CredentialLookup =
  | { status: 'none' }
  | { status: 'invalid'; reason: CredentialRefusal }
  | { status: 'ok'; credential: Credential };

const NONE: CredentialLookup = { status: 'none' };
const TOO_SHORT: CredentialLookup = { status: 'invalid', reason: 'too_short' };
const UNSUPPORTED_SCHEME: CredentialLookup = { status: 'invalid', reason: 'unsupported_scheme' };

function accept(kind: Credential['kind'], raw: string): CredentialLookup {
  const token = raw.trim();
  return token.length >= MIN_TOKEN_LENGTH ? { status: 'ok', credential: { kind, token } } : TOO_SHORT;
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
