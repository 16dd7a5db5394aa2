// Reads a caller's forge credential from request headers (SPEC "Headers on /mcp"):
// `Authorization: Bearer <token>`, `Private-Token: <token>` or `JOB-TOKEN: <token>`, each token at
// least 20 characters (SPEC remote authorization rule 2).
import type { Credential } from '../forge/credential';

export const MIN_TOKEN_LENGTH = 20;

export type CredentialLookup =
  | { status: 'none' }
  | { status: 'invalid' }
  | { status: 'ok'; credential: Credential };

const NONE: CredentialLookup = { status: 'none' };
const INVALID: CredentialLookup = { status: 'invalid' };

function accept(kind: Credential['kind'], raw: string): CredentialLookup {
  const token = raw.trim();
  return token.length >= MIN_TOKEN_LENGTH ? { status: 'ok', credential: { kind, token } } : INVALID;
}

export function credentialFromHeaders(headers: Headers): CredentialLookup {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    return match ? accept('bearer', match[1]) : INVALID;
  }
  const privateToken = headers.get('private-token');
  if (privateToken !== null) return accept('private', privateToken);
  const jobToken = headers.get('job-token');
  if (jobToken !== null) return accept('job', jobToken);
  return NONE;
}
