// Whether the forge accepts a caller's credential (D7), so that a legacy session opens
// only for a credential the forge has accepted and made-up tokens hold no session slot. The forge
// is asked once with a cheap authenticated call the credential kind may make — GET /user for
// personal and OAuth tokens, GET /job for CI job tokens — and the answer is kept for a few minutes
// per credential. The cache key is a hash of kind, token and forge origin (never the token
// itself); the cache is bounded, and simultaneous checks of one credential ask the forge once.
// A forge that cannot say (unreachable, timing out, 5xx, 429) gives 'unknown', never cached.
// The answers live in a store (store/store.ts): this process's memory, or the store replicas
// share (D37), where one replica's answer serves them all. A store that cannot answer is only a
// cache miss. What is kept is a small JSON record, so more can be remembered per credential.
// The username an accepted check found names the caller in audit lines (D35): it is remembered in
// this process too, so an audit line costs a hash and a map lookup, not a store read per call.
import { readTextWithin } from '../forge/body';
import { credentialHeader, type Credential } from '../forge/credential';
import type { ForgeEndpoint } from '../forge/endpoint';
import { MemoryStore } from '../store/memory-store';
import { storeKey, type SharedStore } from '../store/store';
import { originOf } from '../forge/url-parts';

export type CredentialVerdict = 'accepted' | 'rejected' | 'unknown';

export const CREDENTIAL_CHECK_TTL_MS = 5 * 60_000;
export const CREDENTIAL_CHECK_MAX_ENTRIES = 10_000;
/** How long a check that could not answer ('unknown') keeps an audit line from asking again. */
export const UNKNOWN_USERNAME_TTL_MS = 30_000;

type FetchLike = (input: string, init: RequestInit & Record<string, unknown>) => Promise<Response>;

export interface CredentialCheckOptions {
  now?: () => number;
  ttlMs?: number;
  maxEntries?: number;
  fetchImpl?: FetchLike;
  /** Where answers are kept; by default this process's memory, bounded by maxEntries. */
  store?: SharedStore;
}

/** What is kept per credential (JSON in the store; a shared store's record is checked, not trusted). */
interface Remembered {
  verdict: 'accepted' | 'rejected';
  /** The forge username the credential acts as (accepted only; D35's audit line); checked like the verdict. */
  username?: string;
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

/** The store key: a hash of kind, token and forge origin, never the token itself. */
function keyOf(credential: Credential, endpoint: ForgeEndpoint): string {
  return storeKey('cred', credential.kind, credential.token, originOf(endpoint.apiUrl));
}

/** A username remembered in this process for audit lines, until `until`. */
interface KnownName {
  username: string | undefined;
  until: number;
}

export class CredentialChecks {
  private readonly answers: SharedStore;
  private readonly pending = new Map<string, Promise<Answer>>();
  /** key → the username audit lines name (D35); insertion-ordered, so the oldest go first at the bound. */
  private readonly names = new Map<string, KnownName>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly fetchImpl: FetchLike;

  constructor(options: CredentialCheckOptions = {}) {
    this.ttlMs = options.ttlMs ?? CREDENTIAL_CHECK_TTL_MS;
    this.maxEntries = options.maxEntries ?? CREDENTIAL_CHECK_MAX_ENTRIES;
    this.now = options.now ?? Date.now;
    this.fetchImpl = options.fetchImpl ?? (fetch as unknown as FetchLike);
    // Every answer lives ttlMs; in memory the oldest go first once maxEntries are held.
    this.answers = options.store ?? new MemoryStore({ maxEntries: this.maxEntries, now: this.now });
  }

  /** Answers held in this process's memory (bounded by maxEntries; 0 with a shared store). */
  get size(): number {
    return this.answers instanceof MemoryStore ? this.answers.size : 0;
  }

  async check(credential: Credential, endpoint: ForgeEndpoint): Promise<CredentialVerdict> {
    return (await this.answer(keyOf(credential, endpoint), credential, endpoint)).verdict;
  }

  /**
   * The forge username a credential acts as, for its audit line (D35): resolved once per credential
   * with the check above (its cached answer, else the check made now, shared by simultaneous
   * callers) and then remembered here for the check's lifetime, so later calls get it without a
   * promise. Undefined when the forge rejected the credential or could not say; never throws.
   */
  username(credential: Credential, endpoint: ForgeEndpoint): string | undefined | Promise<string | undefined> {
    const key = keyOf(credential, endpoint);
    const known = this.names.get(key);
    if (known && known.until > this.now()) return known.username;
    return this.answer(key, credential, endpoint).then(
      (answer) => this.rememberName(key, answer),
      () => undefined,
    );
  }

  private rememberName(key: string, answer: Answer): string | undefined {
    const username = answer.verdict === 'accepted' ? answer.username : undefined;
    this.names.delete(key);
    if (this.names.size >= this.maxEntries) this.names.delete(this.names.keys().next().value as string);
    this.names.set(key, { username, until: this.now() + (answer.verdict === 'unknown' ? UNKNOWN_USERNAME_TTL_MS : this.ttlMs) });
    return username;
  }

  /** The remembered answer for a credential, else the forge's (asked once however many wait for it). */
  private async answer(key: string, credential: Credential, endpoint: ForgeEndpoint): Promise<Answer> {
    const known = await this.recall(key);
    if (known) return known;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.ask(credential, endpoint).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const answer = await pending;
    if (answer.verdict !== 'unknown') await this.remember(key, { verdict: answer.verdict, ...(answer.username !== undefined ? { username: answer.username } : {}) });
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

  /** The remembered answer, if any; a record of another shape or a store that cannot answer is a miss. */
  private async recall(key: string): Promise<Remembered | undefined> {
    try {
      const text = await this.answers.get(key);
      if (text === undefined) return undefined;
      const record = JSON.parse(text) as Partial<Remembered>;
      if (record.verdict !== 'accepted' && record.verdict !== 'rejected') return undefined;
      const username = typeof record.username === 'string' && record.username.length <= 255 ? record.username : undefined;
      return { verdict: record.verdict, ...(username !== undefined ? { username } : {}) };
    } catch {
      return undefined;
    }
  }

  private async remember(key: string, record: Remembered): Promise<void> {
    await this.answers.set(key, JSON.stringify(record), this.ttlMs).catch(() => {});
  }
}
