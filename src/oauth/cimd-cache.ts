// Where fetched Client ID Metadata Documents are kept (D28), behind a small interface so that
// replicas can later share them in the store of D37. The memory one is bounded: past its size the
// oldest entry goes. How long a document may be kept comes from its HTTP cache headers, never more
// than 24 hours.

/** What is kept of a document: only what /authorize and the consent page use. */
export interface CachedDocument {
  redirectUris: string[];
  clientName?: string;
}

export interface DocumentCache {
  get(url: string): Promise<CachedDocument | undefined>;
  set(url: string, document: CachedDocument, ttlSeconds: number): Promise<void>;
}

export const MAX_DOCUMENT_TTL_SECONDS = 24 * 60 * 60;
/** A document without any freshness information is kept this long (a heuristic lifetime). */
export const DEFAULT_DOCUMENT_TTL_SECONDS = 5 * 60;
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
        return eq < 0 ? [part, ''] : [part.slice(0, eq).trim(), part.slice(eq + 1).trim().replace(/^"|"$/g, '')];
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

export class MemoryDocumentCache implements DocumentCache {
  private readonly entries = new Map<string, { document: CachedDocument; expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = MAX_CACHED_DOCUMENTS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async get(url: string): Promise<CachedDocument | undefined> {
    const entry = this.entries.get(url);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(url);
      return undefined;
    }
    return entry.document;
  }

  async set(url: string, document: CachedDocument, ttlSeconds: number): Promise<void> {
    this.entries.delete(url);
    if (ttlSeconds <= 0) return;
    while (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(url, { document, expiresAt: this.now() + Math.min(ttlSeconds, MAX_DOCUMENT_TTL_SECONDS) * 1000 });
  }
}
