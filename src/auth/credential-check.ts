// Whether the forge accepts a caller's credential (D7), so that a legacy session opens
// only for a credential the forge has accepted and made-up tokens hold no session slot. The forge
// is asked once with a cheap authenticated call the credential kind may make — GET /user for
// personal and OAuth tokens, GET /job for CI job tokens — and the answer is kept for a few minutes
// per credential. The cache key is a hash of kind, token and forge origin (never the token
// itself); the cache is bounded, and simultaneous checks of one credential ask the forge once.
// A forge that cannot say (unreachable, timing out, 5xx, 429) gives 'unknown', never cached.
import { createHash } from 'node:crypto';
import { readTextWithin } from '../forge/body';
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
  /** The forge username the credential acts as (accepted only; D35's audit line). */
  username?: string;
  expiresAt: number;
}

interface Answer {
  verdict: CredentialVerdict;
  username?: string;
}

/** A /user (or /job) answer is a few hundred bytes; anything past this is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The username in GET /user's answer, or in GET /job's `user`. */
function usernameIn(text: string, kind: Credential['kind']): string | undefined {
  try {
    const json = JSON.parse(text) as { username?: unknown; user?: { username?: unknown } };
    const name = kind === 'job' ? json.user?.username : json.username;
    return typeof name === 'string' && name.length <= 255 ? name : undefined;
  } catch {
    return undefined;
  }
}

/** `scheme://host[:port]` of an API URL: one forge, whatever path prefix it is reached under. */
function originOf(apiUrl: string): string {
  const end = apiUrl.indexOf('/', apiUrl.indexOf('//') + 2);
  return end === -1 ? apiUrl : apiUrl.slice(0, end);
}

/** The cache key: a hash of kind, token and forge origin, never the token itself. */
function keyOf(credential: Credential, endpoint: ForgeEndpoint): string {
  return createHash('sha256').update(`${credential.kind}\n${credential.token}\n${originOf(endpoint.apiUrl)}`).digest('base64url');
}

export class CredentialChecks {
  // Insertion order is age (every entry lives ttlMs): the oldest answers are at the front.
  private readonly answers = new Map<string, Remembered>();
  private readonly pending = new Map<string, Promise<Answer>>();
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
    return (await this.answer(credential, endpoint)).verdict;
  }

  /**
   * The forge username of a credential (D35) as the cached check found it, or undefined when no
   * check of it is cached: an audit line never costs a forge call (a legacy session's admission
   * made the check; the modern lane makes none, D27).
   */
  cachedUsername(credential: Credential, endpoint: ForgeEndpoint): string | undefined {
    const known = this.answers.get(keyOf(credential, endpoint));
    return known && known.expiresAt > this.now() ? known.username : undefined;
  }

  private async answer(credential: Credential, endpoint: ForgeEndpoint): Promise<Answer> {
    const key = keyOf(credential, endpoint);
    const known = this.answers.get(key);
    if (known) {
      if (known.expiresAt > this.now()) return known;
      this.answers.delete(key);
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.ask(credential, endpoint).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const answer = await pending;
    if (answer.verdict !== 'unknown') this.remember(key, answer.verdict, answer.username);
    return answer;
  }

  private async ask(credential: Credential, endpoint: ForgeEndpoint): Promise<Answer> {
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
      if (response.ok) {
        const text = await readTextWithin(response, MAX_ANSWER_BYTES).catch(() => '');
        return { verdict: 'accepted', username: usernameIn(text, credential.kind) };
      }
      await response.body?.cancel().catch(() => {});
      return { verdict: response.status === 401 || response.status === 403 ? 'rejected' : 'unknown' };
    } catch {
      endpoint.observe?.('error', (performance.now() - started) / 1000);
      return { verdict: 'unknown' };
    }
  }

  private remember(key: string, verdict: 'accepted' | 'rejected', username?: string): void {
    this.answers.delete(key);
    const now = this.now();
    // Expired answers leave first; beyond the bound the oldest goes (it is only a cache).
    for (const [oldest, entry] of this.answers) {
      if (entry.expiresAt > now && this.answers.size < this.maxEntries) break;
      this.answers.delete(oldest);
    }
    this.answers.set(key, { verdict, username, expiresAt: now + this.ttlMs });
  }
}
