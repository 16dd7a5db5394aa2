// The short-lived values of an authorization in progress: the consent request shown to the user,
// the state sent to the forge, and the proxy code handed to the client. In stateless mode each is
// sealed into the value itself (`v1.ps.` for consent and state, `v1.pc.` for codes; AES-GCM, since
// they hold verifiers and tokens) so any replica can open it; otherwise a random id points into
// this process's memory. A value opens only as the purpose it was made for.
import type { Sealer } from '../sealing/sealer';
import type { SealedKind } from '../sealing/kinds';
import { randomToken } from './pkce';

export type Purpose = 'consent' | 'state' | 'code';

export interface Opened<T> {
  data: T;
  /** Epoch milliseconds after which the value no longer opens. */
  expiresAt: number;
}

export interface Vault {
  /** A value carrying `data`; throws VaultFull when this process holds too many. */
  put<T extends object>(purpose: Purpose, data: T): Promise<string>;
  open<T extends object>(purpose: Purpose, value: string): Promise<Opened<T> | undefined>;
  /** Forgets a value once used (sealed values simply run out). */
  discard(purpose: Purpose, value: string): void;
}

export class VaultFull extends Error {
  constructor() {
    super('too many authorizations in progress');
  }
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

/** Most values of one purpose held by one process; beyond it new authorizations are refused. */
export const MAX_MEMORY_VALUES = 10_000;

interface Held {
  data: object;
  expiresAt: number;
}

export class MemoryVault implements Vault {
  // One map per purpose: all entries of a map share a lifetime, so insertion order is expiry order.
  private readonly held: Record<Purpose, Map<string, Held>> = { consent: new Map(), state: new Map(), code: new Map() };

  constructor(
    private readonly ttlSeconds: PurposeTtls,
    private readonly now: () => number = Date.now,
    private readonly max = MAX_MEMORY_VALUES,
  ) {}

  async put<T extends object>(purpose: Purpose, data: T): Promise<string> {
    const map = this.held[purpose];
    const now = this.now();
    for (const [id, entry] of map) {
      if (entry.expiresAt > now) break;
      map.delete(id);
    }
    if (map.size >= this.max) throw new VaultFull();
    const id = randomToken();
    map.set(id, { data, expiresAt: now + this.ttlSeconds[purpose] * 1000 });
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
