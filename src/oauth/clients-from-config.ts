// The client registry OAuth mode uses (D22, D28): registrations sealed into the client id in
// stateless mode or kept in memory otherwise, beside Client ID Metadata Documents cached in the
// store the composition chose (process memory, or the store replicas share: D37).
import type { Config } from '../config/load';
import type { Logger } from '../logging/logger';
import type { Sealer } from '../sealing/sealer';
import { MetadataDocuments, type FetchOutcome } from './cimd';
import { MAX_CACHED_DOCUMENTS, MemoryDocumentCache, StoredDocumentCache } from './cimd-cache';
import type { SharedStore } from '../store/store';
import { ClientDirectory, MemoryClients, SealedClients } from './clients';

interface ClientsOptions {
  /** Stateless mode: registrations are sealed into the client id with this sealer; absent: kept in memory. */
  sealed?: Sealer;
  /** Lifetime of a registration in seconds. */
  clientTtlSeconds: number;
  logger: Logger;
  now: () => number;
  onDocumentFetch?: (outcome: FetchOutcome) => void;
  /** Where documents are cached (at most MAX_CACHED_DOCUMENTS in memory); absent: this process's memory. */
  openStore?: (maxEntries: number) => SharedStore;
}

export function clientsFromConfig(config: Pick<Config, 'OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK' | 'OAUTH_CIMD_ENABLED'>, o: ClientsOptions): ClientDirectory {
  const registrations = o.sealed ? new SealedClients(o.sealed, o.now) : new MemoryClients(o.clientTtlSeconds, o.now);
  const documents = new MetadataDocuments({
    allowLoopback: config.OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK,
    cache: o.openStore ? new StoredDocumentCache(o.openStore(MAX_CACHED_DOCUMENTS)) : new MemoryDocumentCache(o.now),
    logger: o.logger,
    now: o.now,
    onFetch: o.onDocumentFetch,
  });
  return new ClientDirectory(registrations, config.OAUTH_CIMD_ENABLED ? documents : undefined, o.now);
}
