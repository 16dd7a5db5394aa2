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
//
// What counts as an answer (D7 as amended by issue 34): 401 is a rejected credential; 403 (GitLab's
// `insufficient_scope` or `insufficient_granular_scope` to a token that may not read the user, or any
// 403 to the check's request) is an accepted one with no username; a 200 counts only with a JSON
// user record (a forge URL that points at a web page answers 200 with HTML, which accepts nothing).
// Beside the check, what the token may do is asked once (token-profile.ts) and kept with the answer.
import { readTextWithin } from '../forge/body';
import type { Credential } from '../forge/credential';
import type { FetchLike } from '../forge/client';
import { credentialedGet } from './credentialed-get';
import type { ForgeEndpoint } from '../forge/endpoint';
import { MemoryStore } from '../store/memory-store';
import { storeKey, type SharedStore } from '../store/store';
import { originOf } from '../forge/url-parts';
import type { TraceSpan } from '../tracing/span';
import { checkedProfile, kindOfRefusal, profileFrom, readProfile, type ProfileSources, type TokenProfile } from './token-profile';

type CredentialVerdict = 'accepted' | 'rejected' | 'unknown';

const CREDENTIAL_CHECK_TTL_MS = 5 * 60_000;
export const CREDENTIAL_CHECK_MAX_ENTRIES = 10_000;
/** How long a check that could not answer ('unknown') keeps an audit line from asking again. */
const UNKNOWN_USERNAME_TTL_MS = 30_000;

interface CredentialCheckOptions {
  now?: () => number;
  ttlMs?: number;
  maxEntries?: number;
  fetchImpl?: FetchLike;
  /** Where answers are kept; by default this process's memory, bounded by maxEntries. */
  store?: SharedStore;
  /**
   * Also ask what the token may do (GET /personal_access_tokens/self, OAuth's /oauth/token/info;
   * token-profile.ts) beside the check, once per credential. Off: the check's one request only.
   */
  introspect?: boolean;
}

/** What is kept per credential (JSON in the store; a shared store's record is checked, not trusted). */
/** Who a personal or OAuth token acts as, from GET /user's answer (whoami answers from it, issue 36). */
interface Identity {
  id: number;
  username: string;
  name: string;
  state: string;
  bot: boolean;
}

interface Remembered {
  verdict: 'accepted' | 'rejected';
  /** Who the token acts as: accepted personal and OAuth tokens only; checked like the verdict. */
  identity?: Identity;
  /** The forge username the credential acts as (accepted only; D35's audit line); checked like the verdict. */
  username?: string;
  /** When the forge was asked (epoch ms): the answer ends ttlMs later, on every replica that reads it. */
  at?: number;
  /** What the token may do, as far as the forge said (token-profile.ts); checked like the rest. */
  token?: TokenProfile;
  /** A rejection because the forge's 200 was no JSON user record (a web page): for the log's reason. */
  notForge?: true;
}

interface Answer {
  verdict: CredentialVerdict;
  username?: string;
  token?: TokenProfile;
  notForge?: true;
  identity?: Identity;
}

/** A /user (or /job) answer is a few hundred bytes; anything past this is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The username an answer gives an audit line: an accepted credential's, else none. */
const nameIn = (answer: Answer) => (answer.verdict === 'accepted' ? answer.username : undefined);

/**
 * GET /user's answer as a JSON user record (GET /job's: the job, its user inside): a JSON object,
 * or undefined for anything else (a web page, an empty or cut body, a list). `username` is the
 * record's name when it is a usable one (a string of 1 to 255 characters), else undefined.
 */
function userRecordIn(text: string, kind: Credential['kind']): { username?: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const record = json as { username?: unknown; user?: { username?: unknown } | null };
  const name = kind === 'job' ? record.user?.username : record.username;
  return typeof name === 'string' && name.length > 0 && name.length <= 255 ? { username: name } : {};
}

// The store key of the credential a caller holds, kept beside it: a legacy session's caller is the
// same object on every request, so its key is hashed once, not on every call.
const keys = new WeakMap<Credential, { apiUrl: string; key: string }>();

/** Who the token acts as, in GET /user's answer, when it has the shape of one (bounded strings, an integer id). */
function identityOf(value: unknown): Identity | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const short = (x: unknown, max = 255) => typeof x === 'string' && x.length <= max;
  if (!Number.isSafeInteger(v.id) || !short(v.username) || !short(v.name) || !short(v.state, 32)) return undefined;
  return { id: v.id as number, username: v.username as string, name: v.name as string, state: v.state as string, bot: v.bot === true };
}

function identityIn(text: string, kind: Credential['kind']): Identity | undefined {
  if (kind === 'job') return undefined;
  try {
    return identityOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The store key: a hash of kind, token and forge origin, never the token itself. */
/**
 * The key of a credential at a forge (a hash of kind, token and forge origin, never the token):
 * what per-credential memory is keyed by, here and elsewhere (completion answers, D44).
 */
export function keyOf(credential: Credential, endpoint: ForgeEndpoint): string {
  const kept = keys.get(credential);
  if (kept && kept.apiUrl === endpoint.apiUrl) return kept.key;
  const key = storeKey('cred', credential.kind, credential.token, originOf(endpoint.apiUrl));
  keys.set(credential, { apiUrl: endpoint.apiUrl, key });
  return key;
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
  private readonly introspect: boolean;

  constructor(options: CredentialCheckOptions = {}) {
    this.introspect = options.introspect ?? false;
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

  /** `trace`: the span of the request that asks (tracing on): the forge requests are its children (D46). */
  async check(credential: Credential, endpoint: ForgeEndpoint, trace?: TraceSpan): Promise<CredentialVerdict> {
    const key = keyOf(credential, endpoint);
    const known = this.known(key);
    if (known && known.verdict !== 'unknown') return known.verdict;
    return (await this.answer(key, credential, endpoint, trace)).verdict;
  }

  /**
   * Asks the forge now, past any remembered answer, and remembers what it says. For a credential
   * the forge has just refused a call with: a 401 may mean the token is no longer taken, or only
   * that this action is not the caller's (D23).
   */
  async recheck(credential: Credential, endpoint: ForgeEndpoint, trace?: TraceSpan): Promise<CredentialVerdict> {
    // Only whether the forge still takes the token: what it may do stays as the check found it.
    const key = keyOf(credential, endpoint);
    const asked = await this.askUser(credential, endpoint, trace);
    const before = this.known(key);
    const answer: Answer =
      asked.verdict === 'accepted'
        ? { verdict: 'accepted', ...(asked.username !== undefined ? { username: asked.username } : {}), ...(before?.token ? { token: before.token } : {}) }
        : asked;
    await this.settle(key, answer);
    return answer.verdict;
  }

  /**
   * The forge username a credential acts as, for its audit line (D35): resolved once per credential
   * with the check above (its cached answer, else the check made now, shared by simultaneous
   * callers) and then remembered here for the check's lifetime, so later calls get it without a
   * promise. Undefined when the forge rejected the credential or could not say; never throws.
   */
  username(credential: Credential, endpoint: ForgeEndpoint, trace?: TraceSpan): string | undefined | Promise<string | undefined> {
    const key = keyOf(credential, endpoint);
    const known = this.known(key);
    if (known) return nameIn(known);
    return this.answer(key, credential, endpoint, trace).then(
      (answer) => {
        // A forge that could not say is not asked again for a name on every call (the check asks anew).
        if (answer.verdict === 'unknown') this.keep(key, answer, this.now() + UNKNOWN_USERNAME_TTL_MS);
        return nameIn(answer);
      },
      () => undefined,
    );
  }

  /**
   * What the forge said the credential's token may do, if this process remembers an answer for it
   * (the check made at its door, D7): no promise and no forge request, so tools/list and each call
   * read it for free. Undefined: not known here (never checked, or the forge could not say).
   */
  profile(credential: Credential, endpoint: ForgeEndpoint): TokenProfile | undefined {
    const known = this.known(keyOf(credential, endpoint));
    return known?.verdict === 'accepted' ? known.token : undefined;
  }

  /** Whether the forge's answer was a rejection because its 200 was no JSON user record (for a log line). */
  notForge(credential: Credential, endpoint: ForgeEndpoint): boolean {
    return this.known(keyOf(credential, endpoint))?.notForge === true;
  }

  /**
   * Who an accepted credential acts as, as the check found it, while it is remembered in this
   * process: no forge call, no store read. Undefined otherwise (the caller asks the forge).
   */
  identity(credential: Credential, endpoint: ForgeEndpoint): Identity | undefined {
    const known = this.known(keyOf(credential, endpoint));
    return known?.verdict === 'accepted' ? known.identity : undefined;
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

  /**
   * The remembered answer for a credential, else the forge's (asked once however many wait for it;
   * its requests are traced below the span of the request that asked first).
   */
  private async answer(key: string, credential: Credential, endpoint: ForgeEndpoint, trace: TraceSpan | undefined): Promise<Answer> {
    const recalled = await this.recall(key);
    if (recalled) {
      this.keep(key, recalled.answer, recalled.until);
      return recalled.answer;
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.ask(credential, endpoint, trace).finally(() => this.pending.delete(key));
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
    await this.remember(key, {
      verdict: answer.verdict,
      ...(answer.username !== undefined ? { username: answer.username } : {}),
      ...(answer.token ? { token: answer.token } : {}),
      ...(answer.identity ? { identity: answer.identity } : {}),
      ...(answer.notForge ? { notForge: true as const } : {}),
      at,
    });
  }

  private async ask(credential: Credential, endpoint: ForgeEndpoint, trace: TraceSpan | undefined): Promise<Answer> {
    const answer = await this.askUser(credential, endpoint, trace);
    if (answer.verdict !== 'accepted') return answer;
    // Only a token the forge took is asked what it may do: a made-up one costs one request. Job
    // tokens have no self-description.
    const read: ProfileSources = this.introspect && credential.kind !== 'job' ? await readProfile(this.fetchImpl, credential, endpoint, trace) : {};
    const token = profileFrom(credential, answer.username, answer.refusal, read);
    return {
      verdict: 'accepted',
      ...(answer.username !== undefined ? { username: answer.username } : {}),
      ...(token ? { token } : {}),
      ...(answer.identity ? { identity: answer.identity } : {}),
    };
  }

  private async askUser(credential: Credential, endpoint: ForgeEndpoint, trace: TraceSpan | undefined): Promise<Answer & { refusal?: string }> {
    const path = credential.kind === 'job' ? '/job' : '/user';
    try {
      const response = await credentialedGet(this.fetchImpl, `${endpoint.apiUrl}${path}`, credential, endpoint, trace);
      if (response.ok) {
        const text = await readTextWithin(response, MAX_ANSWER_BYTES).catch(() => undefined);
        // A body past the bound is not read: no record to judge, so the forge could not say.
        if (text === undefined) return { verdict: 'unknown' };
        const record = userRecordIn(text, credential.kind);
        // Only a JSON user record accepts: a web page (a wrong forge URL) answers 200 too.
        if (record === undefined) return { verdict: 'rejected', notForge: true };
        const identity = identityIn(text, credential.kind);
        return { verdict: 'accepted', ...record, ...(identity ? { identity } : {}) };
      }
      if (response.status === 403) {
        // GitLab took the token but it may not read this (a narrower scope, a fine-grained grant
        // without "User: Read"): accepted, with no username; the refusal's code says which kind.
        const text = await readTextWithin(response, MAX_ANSWER_BYTES).catch(() => '');
        return { verdict: 'accepted', refusal: kindOfRefusal(text) };
      }
      await response.body?.cancel().catch(() => {});
      return { verdict: response.status === 401 ? 'rejected' : 'unknown' };
    } catch {
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
      const token = record.verdict === 'accepted' ? checkedProfile(record.token) : undefined;
      const identity = record.verdict === 'accepted' ? identityOf(record.identity) : undefined;
      const notForge = record.verdict === 'rejected' && record.notForge === true ? { notForge: true as const } : {};
      return {
        answer: {
          verdict: record.verdict,
          ...(username !== undefined ? { username } : {}),
          ...(token ? { token } : {}),
          ...(identity ? { identity } : {}),
          ...notForge,
        },
        until,
      };
    } catch {
      return undefined;
    }
  }

  private async remember(key: string, record: Remembered): Promise<void> {
    await this.answers.set(key, JSON.stringify(record), this.ttlMs).catch(() => {});
  }
}
