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
// Every answer is remembered in this process too, until the store's record of it ends: a
// stateless session checks its credential on every request (docs/spec.md stateless rule 2), and
// an audit line names the username an accepted check found (D35). Either then costs a hash and a
// map lookup, not a store read (with REDIS_URL, a round trip) per call.
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
/** Who a personal or OAuth token acts as, from GET /user's answer (whoami answers from it, issue 36). */
export interface Profile {
  id: number;
  username: string;
  name: string;
  state: string;
  bot: boolean;
}

interface Remembered {
  verdict: 'accepted' | 'rejected';
  /** Accepted personal and OAuth tokens only; checked like the verdict. */
  profile?: Profile;
  /** The forge username the credential acts as (accepted only; D35's audit line); checked like the verdict. */
  username?: string;
  /** When the forge was asked (epoch ms): the answer ends ttlMs later, on every replica that reads it. */
  at?: number;
}

interface Answer {
  verdict: CredentialVerdict;
  username?: string;
  profile?: Profile;
}

/** A /user (or /job) answer is a few hundred bytes; anything past this is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The username an answer gives an audit line: an accepted credential's, else none. */
const nameIn = (answer: Answer) => (answer.verdict === 'accepted' ? answer.username : undefined);

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

/** The profile in GET /user's answer, when it has the shape of one (bounded strings, an integer id). */
function profileOf(value: unknown): Profile | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const short = (x: unknown, max = 255) => typeof x === 'string' && x.length <= max;
  if (!Number.isSafeInteger(v.id) || !short(v.username) || !short(v.name) || !short(v.state, 32)) return undefined;
  return { id: v.id as number, username: v.username as string, name: v.name as string, state: v.state as string, bot: v.bot === true };
}

function profileIn(text: string, kind: Credential['kind']): Profile | undefined {
  if (kind === 'job') return undefined;
  try {
    return profileOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The store key: a hash of kind, token and forge origin, never the token itself. */
function keyOf(credential: Credential, endpoint: ForgeEndpoint): string {
  return storeKey('cred', credential.kind, credential.token, originOf(endpoint.apiUrl));
}

/** An answer remembered in this process until `until`; 'unknown' only for audit lines' usernames. */
interface Known {
  answer: Answer;
  until: number;
}

export class CredentialChecks {
  private readonly answers: SharedStore;
  private readonly pending = new Map<string, Promise<Answer>>();
  // key → answer, in two generations of half of maxEntries each: when the newer is full it becomes
  // the older and the older is dropped. Deleting the oldest entry one by one instead leaves the
  // map's iteration order to skip over what was deleted, a few µs a write at the bound.
  private newer = new Map<string, Known>();
  private older = new Map<string, Known>();
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

  /** Answers held in this process's memory store (bounded by maxEntries; 0 with a shared store). */
  get size(): number {
    return this.answers instanceof MemoryStore ? this.answers.size : 0;
  }

  /** Answers remembered in this process beside the store (at most maxEntries). */
  get remembered(): number {
    return this.newer.size + this.older.size;
  }

  async check(credential: Credential, endpoint: ForgeEndpoint): Promise<CredentialVerdict> {
    const key = keyOf(credential, endpoint);
    const known = this.known(key);
    if (known && known.verdict !== 'unknown') return known.verdict;
    return (await this.answer(key, credential, endpoint)).verdict;
  }

  /**
   * Asks the forge now, past any remembered answer, and remembers what it says. For a credential
   * the forge has just refused a call with: a 401 may mean the token is no longer taken, or only
   * that this action is not the caller's (D23).
   */
  async recheck(credential: Credential, endpoint: ForgeEndpoint): Promise<CredentialVerdict> {
    const answer = await this.ask(credential, endpoint);
    await this.settle(keyOf(credential, endpoint), answer);
    return answer.verdict;
  }

  /**
   * The forge username a credential acts as, for its audit line (D35): resolved once per credential
   * with the check above (its cached answer, else the check made now, shared by simultaneous
   * callers) and then remembered here for the check's lifetime, so later calls get it without a
   * promise. Undefined when the forge rejected the credential or could not say; never throws.
   */
  username(credential: Credential, endpoint: ForgeEndpoint): string | undefined | Promise<string | undefined> {
    const key = keyOf(credential, endpoint);
    const known = this.known(key);
    if (known) return nameIn(known);
    return this.answer(key, credential, endpoint).then(
      (answer) => {
        // A forge that could not say is not asked again for a name on every call (the check asks anew).
        if (answer.verdict === 'unknown') this.keep(key, answer, this.now() + UNKNOWN_USERNAME_TTL_MS);
        return nameIn(answer);
      },
      () => undefined,
    );
  }

  /**
   * Who an accepted credential acts as, as the check found it, while it is remembered in this
   * process: no forge call, no store read. Undefined otherwise (the caller asks the forge).
   */
  profile(credential: Credential, endpoint: ForgeEndpoint): Profile | undefined {
    const known = this.known(keyOf(credential, endpoint));
    return known?.verdict === 'accepted' ? known.profile : undefined;
  }

  /** The answer remembered in this process, while it lasts. */
  private known(key: string): Answer | undefined {
    const known = this.newer.get(key) ?? this.older.get(key);
    return known && known.until > this.now() ? known.answer : undefined;
  }

  private keep(key: string, answer: Answer, until: number): void {
    if (this.newer.size >= Math.max(1, Math.floor(this.maxEntries / 2))) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, { answer, until });
  }

  /** The remembered answer for a credential, else the forge's (asked once however many wait for it). */
  private async answer(key: string, credential: Credential, endpoint: ForgeEndpoint): Promise<Answer> {
    const recalled = await this.recall(key);
    if (recalled) {
      this.keep(key, recalled.answer, recalled.until);
      return recalled.answer;
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.ask(credential, endpoint).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const answer = await pending;
    await this.settle(key, answer);
    return answer;
  }

  /** Keeps a definite answer here and in the store for ttlMs; 'unknown' is never kept. */
  private async settle(key: string, answer: Answer): Promise<void> {
    if (answer.verdict === 'unknown') return;
    const at = this.now();
    this.keep(key, answer, at + this.ttlMs);
    await this.remember(key, { verdict: answer.verdict, ...(answer.username !== undefined ? { username: answer.username } : {}), ...(answer.profile ? { profile: answer.profile } : {}), at });
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
        const profile = profileIn(text, credential.kind);
        return { verdict: 'accepted', username: usernameIn(text, credential.kind), ...(profile ? { profile } : {}) };
      }
      await response.body?.cancel().catch(() => {});
      return { verdict: response.status === 401 || response.status === 403 ? 'rejected' : 'unknown' };
    } catch {
      endpoint.observe?.('error', (performance.now() - started) / 1000);
      return { verdict: 'unknown' };
    }
  }

  /**
   * The remembered answer, if any, and until when it holds here: ttlMs after the forge was asked,
   * and never later than ttlMs from now (a record is checked, not trusted). A record of another
   * shape, one past its time or a store that cannot answer is a miss.
   */
  private async recall(key: string): Promise<{ answer: Answer; until: number } | undefined> {
    try {
      const text = await this.answers.get(key);
      if (text === undefined) return undefined;
      const record = JSON.parse(text) as Partial<Remembered>;
      if (record.verdict !== 'accepted' && record.verdict !== 'rejected') return undefined;
      const now = this.now();
      // A record without its time (written before it carried one) holds here as if asked now.
      const until = Math.min(now + this.ttlMs, Number.isFinite(record.at) ? (record.at as number) + this.ttlMs : Infinity);
      if (until <= now) return undefined;
      const username = typeof record.username === 'string' && record.username.length <= 255 ? record.username : undefined;
      const profile = record.verdict === 'accepted' ? profileOf(record.profile) : undefined;
      return { answer: { verdict: record.verdict, ...(username !== undefined ? { username } : {}), ...(profile ? { profile } : {}) }, until };
    } catch {
      return undefined;
    }
  }

  private async remember(key: string, record: Remembered): Promise<void> {
    await this.answers.set(key, JSON.stringify(record), this.ttlMs).catch(() => {});
  }
}
