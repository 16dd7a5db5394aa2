// Where fetched Client ID Metadata Documents are kept (D28): in a store (store/store.ts), this
// process's memory or the one replicas share (D37), so one replica's fetch serves them all. The
// memory one is bounded: past its size the oldest entry goes. How long a document may be kept comes
// from its HTTP cache headers, never more than 24 hours. A store that cannot answer is a miss.
import { MemoryStore } from '../store/memory-store';
import { storeKey, type SharedStore } from '../store/store';

/** What is kept of a document: only what /authorize and the consent page use. */
export interface CachedDocument {
  redirectUris: string[];
  clientName?: string;
}

export interface DocumentCache {
  get(url: string): Promise<CachedDocument | undefined>;
  set(url: string, document: CachedDocument, ttlSeconds: number): Promise<void>;
}

const MAX_DOCUMENT_TTL_SECONDS = 24 * 60 * 60;
/** A document without any freshness information is kept this long (a heuristic lifetime). */
const DEFAULT_DOCUMENT_TTL_SECONDS = 5 * 60;
export const MAX_CACHED_DOCUMENTS = 1_000;

/**
 * Seconds a response may be kept: 0 for `no-store` or `no-cache`, else `max-age` (which wins over
 * `Expires`), capped at 24 h; the default lifetime when the response says nothing.
 */
export function freshnessSeconds(headers: Headers, now: number): number {
  const control = (headers.get('cache-control') ?? '').toLowerCase();
  const directives = new Map(
    control
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const eq = part.indexOf('=');
        return eq < 0
          ? [part, '']
          : [
              part.slice(0, eq).trim(),
              part
                .slice(eq + 1)
                .trim()
                .replace(/^"|"$/g, ''),
            ];
      }),
  );
  if (directives.has('no-store') || directives.has('no-cache')) return 0;
  let seconds: number | undefined;
  const maxAge = directives.get('max-age');
  if (maxAge !== undefined) seconds = /^\d+$/.test(maxAge) ? Number(maxAge) : 0;
  else if (headers.has('expires')) {
    const expires = Date.parse(headers.get('expires')!);
    const date = Date.parse(headers.get('date') ?? '');
    // Expires relative to the server's own Date when it sent one (clock skew), else to our clock.
    seconds = Number.isNaN(expires) ? 0 : Math.floor((expires - (Number.isNaN(date) ? now : date)) / 1000);
  }
  if (seconds === undefined) seconds = DEFAULT_DOCUMENT_TTL_SECONDS;
  return Math.max(0, Math.min(seconds, MAX_DOCUMENT_TTL_SECONDS));
}

/** A kept document as read back: a shared store's value is checked, not trusted. */
function parseCached(text: string): CachedDocument | undefined {
  try {
    const value = JSON.parse(text) as Partial<CachedDocument>;
    if (!Array.isArray(value.redirectUris) || !value.redirectUris.every((u) => typeof u === 'string')) return undefined;
    if (value.clientName !== undefined && typeof value.clientName !== 'string') return undefined;
    return { redirectUris: value.redirectUris, ...(value.clientName !== undefined ? { clientName: value.clientName } : {}) };
  } catch {
    return undefined;
  }
}

export class StoredDocumentCache implements DocumentCache {
  constructor(protected readonly store: SharedStore) {}

  async get(url: string): Promise<CachedDocument | undefined> {
    const text = await this.store.get(storeKey('cimd', url)).catch(() => undefined);
    return text === undefined ? undefined : parseCached(text);
  }

  async set(url: string, document: CachedDocument, ttlSeconds: number): Promise<void> {
    const ttlMs = Math.min(ttlSeconds, MAX_DOCUMENT_TTL_SECONDS) * 1000;
    await this.store.set(storeKey('cimd', url), JSON.stringify(document), ttlMs).catch(() => {});
  }
}

/** The cache in this process's memory, at most `max` documents. */
export class MemoryDocumentCache extends StoredDocumentCache {
  constructor(now: () => number = Date.now, max = MAX_CACHED_DOCUMENTS) {
    super(new MemoryStore({ maxEntries: max, now }));
  }

  get size(): number {
    return (this.store as MemoryStore).size;
  }
}
