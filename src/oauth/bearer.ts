// Who calls /mcp in OAuth mode (docs/spec.md "OAuth mode", D23): a bearer token is the forge's
// own access token, so it is checked against the forge (GET /api/v4/user) and the answer kept for a
// minute per replica, keyed by a hash of the token; a Private-Token or JOB-TOKEN is taken as a live
// credential, as in remote authorization. Without any credential the request is refused, except in
// stateless mode, where a sealed Mcp-Session-Id may stand in (stateless rule 3).
import { createHash } from 'node:crypto';
import { credentialFromHeaders } from '../auth/credentials';
import type { CallerLookup, CallerResolver } from '../auth/caller-resolver';
import type { Logger } from '../logging/logger';
import type { ForgeOAuthClient, TokenCheck } from './forge-oauth';

export const BEARER_CACHE_TTL_MS = 60_000;
export const BEARER_CACHE_MAX = 10_000;

export interface BearerCheckOptions {
  forge: Pick<ForgeOAuthClient, 'checkToken'>;
  apiUrl: string;
  challenge: string;
  /** Stateless mode: a request without credentials goes on to the sealed session id. */
  sessionMayAuthenticate: boolean;
  logger: Logger;
  now?: () => number;
  ttlMs?: number;
  maxEntries?: number;
}

const NONE: CallerLookup = { status: 'none' };
const INVALID: CallerLookup = { status: 'invalid' };

export function oauthCallers(options: BearerCheckOptions): CallerResolver {
  const cache = new TokenCheckCache(options.forge, options.now ?? Date.now, options.ttlMs ?? BEARER_CACHE_TTL_MS, options.maxEntries ?? BEARER_CACHE_MAX);
  return {
    remote: true,
    challenge: options.challenge,
    async resolve(headers) {
      const found = credentialFromHeaders(headers);
      if (found.status === 'none') return options.sessionMayAuthenticate ? NONE : INVALID;
      if (found.status === 'invalid') return found; // keeps the reason (a token too short) for the 401's text
      const lookup: CallerLookup = { status: 'ok', caller: { credential: found.credential, apiUrl: options.apiUrl } };
      if (found.credential.kind !== 'bearer') return lookup;
      const check = await cache.check(found.credential.token);
      if (check === 'invalid') return INVALID;
      // The forge could not say (down, timing out): the token is let through uncached and the
      // forge judges it again on the tool call itself, rather than sending the client back to sign-in.
      if (check === 'unknown') options.logger.warn('bearer_check_unavailable', {});
      return lookup;
    },
  };
}

interface Cached {
  valid: boolean;
  expiresAt: number;
}

class TokenCheckCache {
  private readonly entries = new Map<string, Cached>();
  /** Checks in flight, so simultaneous requests with a new token ask the forge once. */
  private readonly pending = new Map<string, Promise<TokenCheck>>();

  constructor(
    private readonly forge: Pick<ForgeOAuthClient, 'checkToken'>,
    private readonly now: () => number,
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  async check(token: string): Promise<TokenCheck> {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.valid ? 'valid' : 'invalid';
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.forge.checkToken(token).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const result = await pending;
    if (result !== 'unknown') this.remember(key, result === 'valid');
    return result;
  }

  private remember(key: string, valid: boolean): void {
    this.entries.delete(key);
    // Insertion order is age: beyond the bound the oldest answer goes (it is only a cache).
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { valid, expiresAt: this.now() + this.ttlMs });
  }
}
