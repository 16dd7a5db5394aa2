// What GitLab a forge origin runs: its edition (Community or Enterprise) and release, read from
// GET /metadata (GET /version on releases before 15.2), once per origin and kept for a while
// (docs/forge-editions.md). Only tools given a parameter that depends on it ask, so no other call
// ever waits for it. Asking never fails a tool call: a forge that will not say (a token without the
// scope, 403, an HTML page, a huge or slow answer) is "unknown", and the tool then lets GitLab decide,
// as it did before it knew.
import { ForgeClient } from './client';
import type { Credential } from './credential';
import type { ForgeEndpoint } from './endpoint';
import { ToolError } from './errors';
import type { TraceSpan } from '../tracing/span';

type Edition = 'ce' | 'ee';

export interface InstanceInfo {
  /** `ce`: the Community Edition, whose API ignores paid-tier parameters; `ee`: licence unknown; null: could not tell. */
  readonly edition: Edition | null;
  /** major.minor of the release; null when unknown. */
  readonly version: { readonly major: number; readonly minor: number } | null;
  /** The version text the forge gave (at most 40 characters), for messages. */
  readonly versionText: string | null;
}

export const UNKNOWN_INSTANCE: InstanceInfo = Object.freeze({ edition: null, version: null, versionText: null });

interface InstanceDirectoryOptions {
  /** How long a forge's answer is kept: editions change only with an upgrade. */
  ttlMs?: number;
  /** How long "could not tell" is kept, so a forge that refuses is not asked on every call. */
  failureTtlMs?: number;
  /** The most origins remembered; the oldest is forgotten first. */
  maxOrigins?: number;
  /** Upper bound of the probe's own timeout (the forge's request timeout applies when smaller). */
  timeoutMs?: number;
  now?: () => number;
}

/** A /metadata answer is a few hundred bytes; anything much larger is not one. */
const MAX_ANSWER_BYTES = 16 * 1024;
const VERSION_TEXT = /^(\d{1,4})\.(\d{1,4})(?:\.\d{1,4})?(?:-[A-Za-z0-9.]{1,20})?$/;

/** Reads a /metadata or /version body; anything else is unknown. */
export function instanceFrom(body: unknown): InstanceInfo {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return UNKNOWN_INSTANCE;
  const { version, enterprise } = body as { version?: unknown; enterprise?: unknown };
  if (typeof version !== 'string') return UNKNOWN_INSTANCE;
  const m = VERSION_TEXT.exec(version);
  if (!m) return UNKNOWN_INSTANCE;
  // /metadata says `enterprise` (15.6 and later); older answers mark EE builds with a `-ee` suffix.
  const edition: Edition | null = typeof enterprise === 'boolean' ? (enterprise ? 'ee' : 'ce') : version.endsWith('-ee') ? 'ee' : null;
  return { edition, version: { major: Number(m[1]), minor: Number(m[2]) }, versionText: version };
}

interface Entry {
  info?: InstanceInfo;
  expires: number;
  pending?: Promise<InstanceInfo>;
}

export class InstanceDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxOrigins: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(options: InstanceDirectoryOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.failureTtlMs = options.failureTtlMs ?? 60_000;
    this.maxOrigins = options.maxOrigins ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The instance behind `endpoint`, asked with the caller's credential (both endpoints need a
   * signed-in caller). Concurrent callers of one origin share one request, traced (D46) below
   * the span of the first. Never throws.
   */
  lookup(endpoint: ForgeEndpoint, credential: Credential, trace?: TraceSpan): Promise<InstanceInfo> {
    const key = endpoint.origin;
    const entry = this.entries.get(key);
    if (entry?.pending) return entry.pending;
    if (entry?.info && entry.expires > this.now()) return Promise.resolve(entry.info);
    const pending = this.ask(endpoint, credential, trace).then((info) => {
      const known = info !== UNKNOWN_INSTANCE;
      this.remember(key, { info, expires: this.now() + (known ? this.ttlMs : this.failureTtlMs) });
      return info;
    });
    this.remember(key, { pending, expires: Infinity });
    return pending;
  }

  /** Forget every origin (tests switch the fake forge's edition between cases). */
  clear(): void {
    this.entries.clear();
  }

  private remember(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxOrigins) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }

  private async ask(endpoint: ForgeEndpoint, credential: Credential, trace: TraceSpan | undefined): Promise<InstanceInfo> {
    // Its own small bounds: a probe never waits long nor reads much, whatever the tool's own budget.
    const probe: ForgeEndpoint = { ...endpoint, timeoutMs: Math.min(endpoint.timeoutMs, this.timeoutMs), maxResponseBytes: MAX_ANSWER_BYTES };
    const client = new ForgeClient(probe, credential, { toolTimeoutMs: probe.timeoutMs, trace });
    try {
      try {
        return instanceFrom(await client.json({ method: 'GET', path: '/metadata' }));
      } catch (error) {
        // /metadata arrived in GitLab 15.2; /version answers on every release.
        if (!(error instanceof ToolError) || error.kind !== 'not_found') throw error;
        return instanceFrom(await client.json({ method: 'GET', path: '/version' }));
      }
    } catch {
      return UNKNOWN_INSTANCE;
    }
  }
}
