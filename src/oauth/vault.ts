// The short-lived values of an authorization in progress: the consent request shown to the user,
// the state sent to the forge, and the proxy code handed to the client. In stateless mode each is
// sealed into the value itself (`v1.ps.` for consent and state, `v1.pc.` for codes; AES-GCM, since
// they hold verifiers and tokens) so any replica can open it; otherwise a random id points into
// this process's memory, counted per client address (owned-entries.ts) so that one address starting
// sign-ins without end only ever pushes out its own. A value opens only as the purpose it was made for.
import type { Sealer } from '../sealing/sealer';
import type { SealedKind } from '../sealing/kinds';
import { OwnedEntries } from './owned-entries';
import { randomToken } from './pkce';

type Purpose = 'consent' | 'state' | 'code';

interface Opened<T> {
  data: T;
  /** Epoch milliseconds after which the value no longer opens. */
  expiresAt: number;
}

export interface Vault {
  /** A value carrying `data`, on behalf of `owner` (the client address that caused it). */
  put<T extends object>(purpose: Purpose, data: T, owner: string): Promise<string>;
  open<T extends object>(purpose: Purpose, value: string): Promise<Opened<T> | undefined>;
  /** Forgets a value once used (sealed values simply run out). */
  discard(purpose: Purpose, value: string): void;
}

export type PurposeTtls = Record<Purpose, number>;

const SEALED_KIND: Record<Purpose, SealedKind> = { consent: 'ps', state: 'ps', code: 'pc' };

export class SealedVault implements Vault {
  constructor(
    private readonly sealer: Sealer,
    private readonly ttlSeconds: PurposeTtls,
  ) {}

  put<T extends object>(purpose: Purpose, data: T): Promise<string> {
    return this.sealer.seal(SEALED_KIND[purpose], { p: purpose, d: data });
  }

  async open<T extends object>(purpose: Purpose, value: string): Promise<Opened<T> | undefined> {
    const opened = await this.sealer.open<{ p: unknown; d: T }>(SEALED_KIND[purpose], value);
    if (!opened.ok || opened.payload.p !== purpose || typeof opened.payload.d !== 'object' || opened.payload.d === null) return undefined;
    return { data: opened.payload.d, expiresAt: (opened.payload.iat + this.ttlSeconds[purpose]) * 1000 };
  }

  discard(): void {}
}

/** Most values of one purpose held by one process; beyond it the address holding the most loses its oldest. */
const MAX_MEMORY_VALUES = 10_000;
/** Most values of one purpose held for one client address; beyond it that address's own oldest goes. */
const MAX_VALUES_PER_ADDRESS = 100;

interface Held {
  data: object;
  expiresAt: number;
}

export class MemoryVault implements Vault {
  // One store per purpose: all entries of a store share a lifetime, so insertion order is expiry order.
  private readonly held: Record<Purpose, OwnedEntries<Held>>;

  constructor(
    private readonly ttlSeconds: PurposeTtls,
    private readonly now: () => number = Date.now,
    max = MAX_MEMORY_VALUES,
    maxPerAddress = MAX_VALUES_PER_ADDRESS,
  ) {
    const store = () => new OwnedEntries<Held>(max, maxPerAddress);
    this.held = { consent: store(), state: store(), code: store() };
  }

  async put<T extends object>(purpose: Purpose, data: T, owner: string): Promise<string> {
    const store = this.held[purpose];
    const now = this.now();
    store.dropOldestWhile((entry) => entry.expiresAt <= now);
    const id = randomToken();
    store.set(id, owner, { data, expiresAt: now + this.ttlSeconds[purpose] * 1000 });
    return id;
  }

  async open<T extends object>(purpose: Purpose, value: string): Promise<Opened<T> | undefined> {
    const entry = this.held[purpose].get(value);
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    return { data: entry.data as T, expiresAt: entry.expiresAt };
  }

  discard(purpose: Purpose, value: string): void {
    this.held[purpose].delete(value);
  }
}
