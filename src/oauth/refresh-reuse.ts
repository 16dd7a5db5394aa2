// The reuse interval of refresh-token rotation (D23). A refresh token is single-use, but one client
// often sends it twice at once: an MCP client whose access token ran out gets 401 on its POST /mcp
// and on its notification stream (GET /mcp) together, and refreshes once for each. Refusing the
// second as a replay makes the client drop its tokens and send its user back to the browser, every
// time the access token runs out. So the same refresh token, sent again by the same client with the
// same request, gets the answer of its first exchange:
// - while that exchange is in flight on this replica, the repeat waits for it (success or failure);
// - for REFRESH_REUSE_GRACE_MS after it succeeded, the repeat gets the same token pair again.
// Anything else stays single use (the replay guard, replay-guard.ts): another client id, scope or
// resource, or a repeat after the grace period, is refused as a used token.
//
// What is remembered is keyed by the token's hash (storeKey), sealed (kind `ra`), and lives only for
// the grace period, never past the refresh token's own expiry. In memory it is one bounded store per
// replica. With the shared store of D37 every replica sees it, so a repeat that lands on another
// replica is answered too (token.ts waits there for an exchange still in flight); sealed with the
// deployment's key, it puts no token into the store in clear. A full memory store drops its oldest
// answer, as a cache does (memory-store.ts `set`), rather than refusing refreshes as the replay guard
// must: losing an answer only turns a repeat back into the single-use refusal, never into a second
// redemption.
import type { Sealer } from '../sealing/sealer';
import { MemoryStore } from '../store/memory-store';
import { storeKey, type SharedStore } from '../store/store';
import type { TokenResponseBody } from './own-tokens';

/**
 * How long after a successful refresh a repeat of it gets the same pair. Long enough for a client's
 * concurrent requests (and a retry after a lost answer) to present the same token, short enough that
 * a refresh token taken from a client later than that is refused as it always was.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;
/** Answers remembered per replica (a sealed pair each, ~2 KB): a thousand refreshes a second, held for the grace period. */
export const MAX_REMEMBERED_REFRESHES = 10_000;
/** Exchanges in flight per replica that repeats may join (each settles within one /token request). */
const MAX_RUNNING = 10_000;

/** What a repeat must match to get the first answer: the client, and the parameters that shape the answer. */
export interface RefreshRequest {
  clientId: string;
  /** `scope` as sent (absent: undefined). */
  scope: string | undefined;
  /** Every `resource` as sent, in order. */
  resources: readonly string[];
}

/** A refresh that handed out a pair: the request it answered, the pair, and when (epoch ms). */
export interface Answered {
  request: RefreshRequest;
  body: TokenResponseBody;
  issuedAt: number;
}

interface Running<T> {
  request: RefreshRequest;
  outcome: Promise<T>;
}

/** The sealed record (kind `ra`). */
interface AnswerPayload {
  /** The key it was stored under: an answer copied to another token's key does not open there. */
  k: string;
  c: string;
  s: string | null;
  r: string[];
  b: TokenResponseBody;
  t: number;
  /** The end of its grace period, epoch ms. */
  u: number;
}

export function sameRequest(a: RefreshRequest, b: RefreshRequest): boolean {
  return a.clientId === b.clientId && a.scope === b.scope && a.resources.length === b.resources.length && a.resources.every((r, i) => r === b.resources[i]);
}

interface RefreshReuseOptions {
  /** The answers' store: the shared store of D37, or (default) a bounded one in this process. */
  store?: SharedStore;
  /** Whether other replicas read `store` too (REDIS_URL). */
  shared?: boolean;
  maxAnswers?: number;
}

export class RefreshReuse<T> {
  private readonly running = new Map<string, Running<T>>();
  private readonly store: SharedStore;
  /** Whether a repeat may find its answer on another replica (then it waits for one in flight there). */
  readonly shared: boolean;

  constructor(
    /** The sealer of this server's own tokens (D23): the answers are sealed with it. */
    private readonly sealer: Promise<Sealer>,
    private readonly now: () => number = Date.now,
    options: RefreshReuseOptions = {},
  ) {
    this.store = options.store ?? new MemoryStore({ maxEntries: options.maxAnswers ?? MAX_REMEMBERED_REFRESHES, now });
    this.shared = options.shared ?? false;
  }

  /** The key of a refresh token: its hash, never the token. */
  keyOf(refreshToken: string): string {
    return storeKey('refresh-answer', refreshToken);
  }

  /** The exchange of this token in flight on this replica, if any: a repeat joins it. */
  inFlight(key: string): Running<T> | undefined {
    return this.running.get(key);
  }

  /**
   * Runs the exchange of a token, so that repeats arriving meanwhile join it. The caller has just
   * seen inFlight(key) return nothing, with no await since: two requests never both run it.
   */
  run(key: string, request: RefreshRequest, exchange: () => Promise<T>): Promise<T> {
    const outcome = exchange();
    const entry = { request, outcome };
    if (this.running.size >= MAX_RUNNING) this.running.delete(this.running.keys().next().value!);
    this.running.set(key, entry);
    const done = () => {
      if (this.running.get(key) === entry) this.running.delete(key);
    };
    outcome.then(done, done);
    return outcome;
  }

  /**
   * Remembers a pair handed out for the token of `key` until the grace period ends, or the token
   * would have expired (`tokenExpiresAt`, epoch ms) if sooner. A store that fails is passed over:
   * a repeat then gets the single-use refusal.
   */
  async remember(key: string, answered: Answered, tokenExpiresAt: number): Promise<void> {
    const until = Math.min(answered.issuedAt + REFRESH_REUSE_GRACE_MS, tokenExpiresAt);
    const ttlMs = until - this.now();
    if (ttlMs <= 0) return;
    const { request, body, issuedAt } = answered;
    const payload: AnswerPayload = { k: key, c: request.clientId, s: request.scope ?? null, r: [...request.resources], b: body, t: issuedAt, u: until };
    try {
      const sealed = await (await this.sealer).seal('ra', payload);
      await this.store.set(key, sealed, ttlMs);
    } catch {
      // Not remembered: the single-use refusal stands for a repeat.
    }
  }

  /** The answer remembered for the token of `key`, while its grace period lasts. */
  async recall(key: string): Promise<Answered | undefined> {
    let sealed: string | undefined;
    try {
      sealed = await this.store.get(key);
    } catch {
      return undefined; // the store cannot say: the replay guard decides (and fails closed)
    }
    if (sealed === undefined) return undefined;
    const opened = await (await this.sealer).open<AnswerPayload>('ra', sealed);
    if (!opened.ok) return undefined;
    const p = opened.payload;
    if (p.k !== key || !(this.now() < p.u)) return undefined;
    return { request: { clientId: p.c, scope: p.s ?? undefined, resources: p.r }, body: p.b, issuedAt: p.t };
  }
}
