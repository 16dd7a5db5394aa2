// Whether the forge accepts a caller's credential (D7), so that a legacy session opens
// only for a credential the forge has accepted and made-up tokens hold no session slot. The forge
// is asked once with a cheap authenticated call the credential kind may make — GET /user for
// personal and OAuth tokens, GET /job for CI job tokens — and the answer is kept for a few minutes
// per credential. The cache key is a hash of kind, token and forge origin (never the token
// itself); the cache is bounded, and simultaneous checks of one credential ask the forge once.
// A forge that cannot say (unreachable, timing out, 5xx, 429) gives 'unknown', never cached.
import { createHash } from 'node:crypto';
import { credentialHeader, type Credential } from '../forge/credential';
import type { ForgeEndpoint } from '../forge/endpoint';

export type CredentialVerdict = 'accepted' | 'rejected' | 'unknown';

export const CREDENTIAL_CHECK_TTL_MS = 5 * 60_000;
export const CREDENTIAL_CHECK_MAX_ENTRIES = 10_000;

type FetchLike = (input: string, init: RequestInit & Record<string, unknown>) => Promise<Response>;

export interface CredentialCheckOptions {
  now?: () => number;
  ttlMs?: number;
  maxEntries?: number;
  fetchImpl?: FetchLike;
}

interface Remembered {
  verdict: 'accepted' | 'rejected';
  expiresAt: number;
}

/** `scheme://host[:port]` of an API URL: one forge, whatever path prefix it is reached under. */
function originOf(apiUrl: string): string {
  const end = apiUrl.indexOf('/', apiUrl.indexOf('//') + 2);
  return end === -1 ? apiUrl : apiUrl.slice(0, end);
}

export class CredentialChecks {
  // Insertion order is age (every entry lives ttlMs): the oldest answers are at the front.
  private readonly answers = new Map<string, Remembered>();
  private readonly pending = new Map<string, Promise<CredentialVerdict>>();
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly fetchImpl: FetchLike;

  constructor(options: CredentialCheckOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? CREDENTIAL_CHECK_TTL_MS;
    this.maxEntries = options.maxEntries ?? CREDENTIAL_CHECK_MAX_ENTRIES;
    this.fetchImpl = options.fetchImpl ?? (fetch as unknown as FetchLike);
  }

  /** Answers held (bounded by maxEntries). */
  get size(): number {
    return this.answers.size;
  }

  async check(credential: Credential, endpoint: ForgeEndpoint): Promise<CredentialVerdict> {
    const key = createHash('sha256').update(`${credential.kind}\n${credential.token}\n${originOf(endpoint.apiUrl)}`).digest('base64url');
    const known = this.answers.get(key);
    if (known) {
      if (known.expiresAt > this.now()) return known.verdict;
      this.answers.delete(key);
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.ask(credential, endpoint).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const verdict = await pending;
    if (verdict !== 'unknown') this.remember(key, verdict);
    return verdict;
  }

  private async ask(credential: Credential, endpoint: ForgeEndpoint): Promise<CredentialVerdict> {
    const [name, value] = credentialHeader(credential);
    const path = credential.kind === 'job' ? '/job' : '/user';
    const started = performance.now();
    try {
      // No redirects: the request carries the credential, and a redirect is no answer anyway.
      const response = await this.fetchImpl(`${endpoint.apiUrl}${path}`, {
        method: 'GET',
        headers: { [name]: value, Accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(endpoint.timeoutMs),
        ...endpoint.fetchOptions,
      });
      endpoint.observe?.(response.status, (performance.now() - started) / 1000);
      await response.body?.cancel().catch(() => {});
      if (response.ok) return 'accepted';
      return response.status === 401 || response.status === 403 ? 'rejected' : 'unknown';
    } catch {
      endpoint.observe?.('error', (performance.now() - started) / 1000);
      return 'unknown';
    }
  }

  private remember(key: string, verdict: 'accepted' | 'rejected'): void {
    this.answers.delete(key);
    const now = this.now();
    // Expired answers leave first; beyond the bound the oldest goes (it is only a cache).
    for (const [oldest, entry] of this.answers) {
      if (entry.expiresAt > now && this.answers.size < this.maxEntries) break;
      this.answers.delete(oldest);
    }
    this.answers.set(key, { verdict, expiresAt: now + this.ttlMs });
  }
}
