// Client ID Metadata Documents (D28): a client id that is an https URL names a JSON document the
// client publishes about itself. Fetching it is this server making a request somewhere a stranger
// chose, so: the URL is checked (cimd-document.ts), every address of its host is checked and the
// request goes to a checked one (ssrf-guard.ts, cimd-transport.ts), nothing is followed, size and
// time are bounded, and the answer is kept per its cache headers (cimd-cache.ts). A document that
// could not be fetched or was refused is remembered too, for FAILURE_TTL_SECONDS in this process
// (at most MAX_CACHED_DOCUMENTS of them), so a client id that fails is not fetched again on every
// request that names it (issue 32). Concurrent lookups of one URL share one fetch. Logs name the
// document's host only, never the URL.
import { lookup } from 'node:dns/promises';
import type { Logger } from '../logging/logger';
import { MemoryStore } from '../store/memory-store';
import { freshnessSeconds, MAX_CACHED_DOCUMENTS, type CachedDocument, type DocumentCache } from './cimd-cache';
import { documentUrl, parseDocument, type Checked } from './cimd-document';
import { pinnedTransport, type FetchLimits, type Transport } from './cimd-transport';
import { checkHost, type ResolvedAddress, type Resolver } from './ssrf-guard';

export const CIMD_LIMITS: FetchLimits = { timeoutMs: 5_000, maxBytes: 64 * 1024 };

/** How long a failed or refused fetch is remembered: its reason is answered again without a fetch. */
export const FAILURE_TTL_SECONDS = 30;

/** ok: a valid document; refused: this server will not use it; failed: it could not be fetched. */
export type FetchOutcome = 'ok' | 'refused' | 'failed';

interface MetadataDocumentsOptions {
  /** OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK: loopback hosts and plain http to them (local testing only). */
  allowLoopback: boolean;
  cache: DocumentCache;
  logger: Logger;
  now?: () => number;
  resolve?: Resolver;
  transport?: Transport;
  limits?: FetchLimits;
  /** Failed fetches remembered at most (default MAX_CACHED_DOCUMENTS); past it the oldest is forgotten. */
  maxFailures?: number;
  /** Called once per fetch with its outcome (metrics). */
  onFetch?: (outcome: FetchOutcome) => void;
}

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }) as ResolvedAddress);

type Fetched = Checked<CachedDocument> & { outcome: FetchOutcome; code: string };

/** What `work` settles to, or undefined once `ms` have passed first (the work itself runs on, unheard). */
function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}

export class MetadataDocuments {
  private readonly inFlight = new Map<string, Promise<Fetched>>();
  /** Client id → the reason its last fetch failed, for FAILURE_TTL_SECONDS. */
  private readonly failures: MemoryStore;
  private readonly now: () => number;
  private readonly resolveHost: Resolver;
  private readonly transport: Transport;
  private readonly limits: FetchLimits;

  constructor(private readonly options: MetadataDocumentsOptions) {
    this.now = options.now ?? Date.now;
    this.resolveHost = options.resolve ?? systemResolver;
    this.transport = options.transport ?? pinnedTransport;
    this.limits = options.limits ?? CIMD_LIMITS;
    this.failures = new MemoryStore({ maxEntries: options.maxFailures ?? MAX_CACHED_DOCUMENTS, now: this.now });
  }

  /** The document of `clientId` (an http(s) URL), or why it cannot be used. */
  async resolve(clientId: string): Promise<Checked<CachedDocument>> {
    const url = documentUrl(clientId, this.options.allowLoopback);
    if (!url.ok) return url;
    const cached = await this.options.cache.get(clientId);
    if (cached) return { ok: true, value: cached };
    const failed = await this.failures.get(clientId);
    if (failed !== undefined) return { ok: false, reason: failed };
    let pending = this.inFlight.get(clientId);
    if (!pending) {
      pending = this.fetchDocument(clientId, url.value).finally(() => this.inFlight.delete(clientId));
      this.inFlight.set(clientId, pending);
    }
    const { outcome: _outcome, code: _code, ...result } = await pending;
    return result;
  }

  private async fetchDocument(clientId: string, url: URL): Promise<Fetched> {
    const result = await this.fetchAndCheck(clientId, url);
    const fields = { host: url.host, outcome: result.outcome, ...(result.ok ? {} : { reason: result.code }) };
    if (result.ok) this.options.logger.info('oauth_client_document', fields);
    else this.options.logger.warn('oauth_client_document', fields);
    this.options.onFetch?.(result.outcome);
    if (!result.ok) await this.failures.set(clientId, result.reason, FAILURE_TTL_SECONDS * 1000);
    return result;
  }

  private async fetchAndCheck(clientId: string, url: URL): Promise<Fetched> {
    const refused = (code: string, reason: string): Fetched => ({ ok: false, reason, outcome: 'refused', code });
    const failed = (code: string, reason: string): Fetched => ({ ok: false, reason, outcome: 'failed', code });
    const late = () => failed('timeout', `the client metadata document did not arrive within ${this.limits.timeoutMs / 1000} seconds`);
    // One deadline for the whole fetch (D28): resolving the name counts too, so a host whose DNS
    // answers slowly or never cannot hold the request past it; the transport gets what remains.
    const deadline = performance.now() + this.limits.timeoutMs;
    const host = await beforeDeadline(checkHost(url.hostname, this.resolveHost, this.options.allowLoopback), this.limits.timeoutMs);
    if (host === undefined) return late();
    if (!host.ok) return refused('address', `the client metadata document cannot be fetched: ${host.reason}`);
    const remainingMs = Math.floor(deadline - performance.now());
    if (remainingMs <= 0) return late();
    const response = await this.transport(url, host.address, { ...this.limits, timeoutMs: remainingMs });
    if (!response.ok) {
      if (response.problem === 'too_big') return refused('too_big', `the client metadata document is larger than ${this.limits.maxBytes} bytes`);
      if (response.problem === 'timeout') return late();
      return failed('network', 'the client metadata document could not be fetched (connection failed)');
    }
    if (response.status >= 300 && response.status < 400)
      return refused('redirect', `the client metadata document's URL answered with a redirect (HTTP ${response.status}); redirects are not followed`);
    if (response.status !== 200) return failed('status', `the client metadata document's URL answered HTTP ${response.status}`);
    const document = parseDocument(clientId, response.body);
    if (!document.ok) return refused('document', document.reason);
    await this.options.cache.set(clientId, document.value, freshnessSeconds(response.headers, this.now()));
    return { ...document, outcome: 'ok', code: 'ok' };
  }
}
