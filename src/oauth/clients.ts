// Dynamically registered clients (RFC 7591). Stateless mode hands out a signed `v1.cid.` client id
// that itself holds the redirect URIs and name, so any replica can read it (docs/spec.md stateless table);
// otherwise registrations live in this process, counted per client address (owned-entries.ts) so
// that one address registering without end only ever pushes out its own registrations. Both forget
// a client after the client lifetime, for new authorizations: a refresh token outlives it and
// is checked by its own binding to the client id (D23, `admitsRefresh`). ClientDirectory puts them
// beside Client ID Metadata Documents (D28): a client id that is an http(s) URL is looked up as a
// document (cimd.ts).
import { MAX_SEALED_LENGTH } from '../sealing/kinds';
import type { Sealer } from '../sealing/sealer';
import type { MetadataDocuments } from './cimd';
import { isMetadataDocumentId } from './cimd-document';
import { OwnedEntries } from './owned-entries';
import { randomToken } from './pkce';

export interface RegisteredClient {
  readonly clientId: string;
  readonly redirectUris: readonly string[];
  readonly name?: string;
  /** Unix seconds. */
  readonly issuedAt: number;
}

export interface ClientRegistry {
  /**
   * Registers a client for `owner` (the client address it registered from). Throws
   * RegistrationTooLarge when the registration cannot be held (a stateless id would not open).
   */
  register(redirectUris: string[], name: string | undefined, owner: string): Promise<RegisteredClient>;
  /**
   * The client, or undefined when the id is unknown, forged or too old. This is what admits a client
   * to a new authorization (/authorize, the consent, the authorization_code grant).
   */
  lookup(clientId: string): Promise<RegisteredClient | undefined>;
  /**
   * Whether a refresh token bound to `clientId` may still be used once `lookup` no longer finds the
   * client (D23): the registration's lifetime governs new authorizations, while a refresh is checked
   * against the refresh token's own sealed binding to the client id. False for an id this registry
   * can tell it never issued (a forged or foreign signed id).
   */
  admitsRefresh(clientId: string): Promise<boolean>;
  /** The client, or why not: `reason` says why a metadata document was refused (absent: unknown id). */
  resolve(clientId: string): Promise<ClientResolution>;
}

/**
 * `invalidClient`: the id is of a kind this server does not take at all (a metadata-document URL
 * with OAUTH_CIMD_ENABLED=false), answered `invalid_client` rather than as an unknown client.
 */
type ClientResolution = { ok: true; client: RegisteredClient } | { ok: false; reason?: string; invalidClient?: true };

/** Why a URL client_id is refused when metadata documents are off (D28). */
const METADATA_DOCUMENTS_OFF =
  'this server does not use Client ID Metadata Documents (OAUTH_CIMD_ENABLED=false), so a URL client_id is not accepted: register the client at the registration_endpoint of the authorization server metadata, or use a pre-registered client id';

async function resolveByLookup(registry: ClientRegistry, clientId: string): Promise<ClientResolution> {
  const client = await registry.lookup(clientId);
  return client ? { ok: true, client } : { ok: false };
}

export class RegistrationTooLarge extends Error {
  constructor() {
    super('the registration does not fit in a client id: register fewer or shorter redirect URIs, or a shorter name');
  }
}

interface CidPayload {
  /** redirect URIs */
  r: string[];
  /** client name */
  n?: string;
  /**
   * A random nonce, so that two identical registrations in the same second get client ids of their
   * own. Ids issued before it existed have none and still open.
   */
  x?: string;
}

export class SealedClients implements ClientRegistry {
  constructor(
    private readonly sealer: Sealer,
    private readonly now: () => number = Date.now,
  ) {}

  async register(redirectUris: string[], name: string | undefined): Promise<RegisteredClient> {
    const payload: CidPayload = { r: redirectUris, ...(name === undefined ? {} : { n: name }), x: randomToken(12) };
    const clientId = await this.sealer.seal('cid', payload);
    // The sealer refuses to open anything longer: such an id would be dead on arrival.
    if (clientId.length > MAX_SEALED_LENGTH) throw new RegistrationTooLarge();
    return { clientId, redirectUris, name, issuedAt: Math.floor(this.now() / 1000) };
  }

  lookup(clientId: string): Promise<RegisteredClient | undefined> {
    return this.read(clientId, false);
  }

  /** A signed id whose signature still verifies, however old: its age is not held against a refresh (D23). */
  async admitsRefresh(clientId: string): Promise<boolean> {
    return (await this.read(clientId, true)) !== undefined;
  }

  private async read(clientId: string, anyAge: boolean): Promise<RegisteredClient | undefined> {
    const opened = await this.sealer.open<CidPayload>('cid', clientId, { anyAge });
    if (!opened.ok) return undefined;
    const { r, n, iat } = opened.payload;
    if (!Array.isArray(r) || r.length === 0 || !r.every((u) => typeof u === 'string')) return undefined;
    return { clientId, redirectUris: r, name: typeof n === 'string' ? n : undefined, issuedAt: iat };
  }

  resolve(clientId: string): Promise<ClientResolution> {
    return resolveByLookup(this, clientId);
  }
}

/** Most registrations kept by one process; beyond it the address holding the most loses its oldest. */
const MAX_MEMORY_CLIENTS = 10_000;
/** Most live registrations of one client address; beyond it that address's own oldest goes (it registers again). */
const MAX_CLIENTS_PER_ADDRESS = 1_000;

export class MemoryClients implements ClientRegistry {
  private readonly clients: OwnedEntries<RegisteredClient>;

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
    max = MAX_MEMORY_CLIENTS,
    maxPerAddress = MAX_CLIENTS_PER_ADDRESS,
  ) {
    this.clients = new OwnedEntries(max, maxPerAddress);
  }

  async register(redirectUris: string[], name: string | undefined, owner: string): Promise<RegisteredClient> {
    this.clients.dropOldestWhile((client) => this.expired(client));
    const client: RegisteredClient = { clientId: randomToken(24), redirectUris, name, issuedAt: Math.floor(this.now() / 1000) };
    this.clients.set(client.clientId, owner, client);
    return client;
  }

  async lookup(clientId: string): Promise<RegisteredClient | undefined> {
    const client = this.clients.get(clientId);
    return client && !this.expired(client) ? client : undefined;
  }

  /**
   * Always: a registration in memory ends with its lifetime, is pushed out by its address's quota or
   * lost in a restart, while the refresh tokens issued to it live on (sealed, and with
   * OAUTH_STATELESS_SECRET across restarts, D23). An id this process no longer holds cannot be told
   * from one it never issued, so the refresh token's binding to the id is the whole check.
   */
  async admitsRefresh(): Promise<boolean> {
    return true;
  }

  resolve(clientId: string): Promise<ClientResolution> {
    return resolveByLookup(this, clientId);
  }

  private expired(client: RegisteredClient): boolean {
    return Math.floor(this.now() / 1000) - client.issuedAt > this.ttlSeconds;
  }
}

/** Registrations (DCR) and metadata documents (D28) behind one registry. */
export class ClientDirectory implements ClientRegistry {
  constructor(
    private readonly registrations: ClientRegistry,
    /** Absent (OAUTH_CIMD_ENABLED=false): a URL client_id is refused, and nothing is fetched (D28). */
    private readonly documents: MetadataDocuments | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  register(redirectUris: string[], name: string | undefined, owner: string): Promise<RegisteredClient> {
    return this.registrations.register(redirectUris, name, owner);
  }

  async lookup(clientId: string): Promise<RegisteredClient | undefined> {
    const resolved = await this.resolve(clientId);
    return resolved.ok ? resolved.client : undefined;
  }

  /**
   * A metadata-document client refreshes only while its document can be used (D28): it has no
   * registration whose lifetime could run out, and `lookup` has just tried the document.
   */
  async admitsRefresh(clientId: string): Promise<boolean> {
    return !isMetadataDocumentId(clientId) && this.registrations.admitsRefresh(clientId);
  }

  async resolve(clientId: string): Promise<ClientResolution> {
    if (!isMetadataDocumentId(clientId)) return this.registrations.resolve(clientId);
    if (!this.documents) return { ok: false, reason: METADATA_DOCUMENTS_OFF, invalidClient: true };
    const document = await this.documents.resolve(clientId);
    if (!document.ok) return { ok: false, reason: document.reason };
    const { redirectUris, clientName } = document.value;
    return { ok: true, client: { clientId, redirectUris, name: clientName, issuedAt: Math.floor(this.now() / 1000) } };
  }
}
