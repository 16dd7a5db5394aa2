// PKCE (RFC 7636), S256 only: this server checks its clients' verifiers and uses a pair of its own
// toward the forge.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 43–128 characters of the unreserved set (RFC 7636 §4.1); a challenge is always 43 for S256. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isVerifier = (value: unknown): value is string => typeof value === 'string' && VERIFIER.test(value);
export const isChallenge = (value: unknown): value is string => typeof value === 'string' && CHALLENGE.test(value);

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function newPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** Random URL-safe text: ids of stored values, cookie nonces. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Whether `verifier` hashes to `challenge` (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
