// Dynamically registered clients (RFC 7591). Stateless mode hands out a signed `v1.cid.` client id
// that itself holds the redirect URIs and name, so any replica can read it (SPEC stateless table);
// otherwise registrations live in this process. Both forget a client after the client lifetime.
import type { Sealer } from '../sealing/sealer';
import { randomToken } from './pkce';

export interface RegisteredClient {
  readonly clientId: string;
  readonly redirectUris: readonly string[];
  readonly name?: string;
  /** Unix seconds. */
  readonly issuedAt: number;
}

export interface ClientRegistry {
  register(redirectUris: string[], name: string | undefined): Promise<RegisteredClient>;
  /** The client, or undefined when the id is unknown, forged or too old. */
  lookup(clientId: string): Promise<RegisteredClient | undefined>;
}

interface CidPayload {
  /** redirect URIs */
  r: string[];
  /** client name */
  n?: string;
}

export class SealedClients implements ClientRegistry {
  constructor(
    private readonly sealer: Sealer,
    private readonly now: () => number = Date.now,
  ) {}

  async register(redirectUris: string[], name: string | undefined): Promise<RegisteredClient> {
    const payload: CidPayload = name === undefined ? { r: redirectUris } : { r: redirectUris, n: name };
    const clientId = await this.sealer.seal('cid', payload as unknown as Record<string, unknown>);
    return { clientId, redirectUris, name, issuedAt: Math.floor(this.now() / 1000) };
  }

  async lookup(clientId: string): Promise<RegisteredClient | undefined> {
    const opened = await this.sealer.open<CidPayload>('cid', clientId);
    if (!opened.ok) return undefined;
    const { r, n, iat } = opened.payload;
    if (!Array.isArray(r) || r.length === 0 || !r.every((u) => typeof u === 'string')) return undefined;
    return { clientId, redirectUris: r, name: typeof n === 'string' ? n : undefined, issuedAt: iat };
  }
}

/** Most registrations kept by one process; the oldest is dropped beyond it (it registers again). */
export const MAX_MEMORY_CLIENTS = 10_000;

export class MemoryClients implements ClientRegistry {
  // Insertion order is registration order, so the oldest entries come first.
  private readonly clients = new Map<string, RegisteredClient>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
    private readonly max = MAX_MEMORY_CLIENTS,
  ) {}

  async register(redirectUris: string[], name: string | undefined): Promise<RegisteredClient> {
    this.sweep();
    if (this.clients.size >= this.max) this.clients.delete(this.clients.keys().next().value as string);
    const client: RegisteredClient = { clientId: randomToken(24), redirectUris, name, issuedAt: Math.floor(this.now() / 1000) };
    this.clients.set(client.clientId, client);
    return client;
  }

  async lookup(clientId: string): Promise<RegisteredClient | undefined> {
    const client = this.clients.get(clientId);
    return client && !this.expired(client) ? client : undefined;
  }

  private expired(client: RegisteredClient): boolean {
    return Math.floor(this.now() / 1000) - client.issuedAt > this.ttlSeconds;
  }

  private sweep(): void {
    for (const [id, client] of this.clients) {
      if (!this.expired(client)) break;
      this.clients.delete(id);
    }
  }
}
