// Completion answers remembered for a few seconds (D44): a client asks again on every keystroke,
// and the same prefix typed twice need not reach the forge twice. Entries are keyed by the
// credential's key (a hash, never the token: auth/credential-check.ts keyFor), so one caller's
// answers are never another's; the map is bounded and forgets the oldest entry first.
import type { Completion } from './completions';

const COMPLETION_TTL_MS = 5_000;
const COMPLETION_CACHE_ENTRIES = 1_000;

interface Entry {
  readonly at: number;
  readonly completion: Completion;
}

export class CompletionCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = COMPLETION_TTL_MS,
    private readonly max = COMPLETION_CACHE_ENTRIES,
  ) {}

  /** The key of one question: whose, which argument, what was typed and the context it depends on. */
  static key(credentialKey: string, parts: readonly (string | undefined)[]): string {
    return JSON.stringify([credentialKey, ...parts]);
  }

  get(key: string): Completion | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.completion;
  }

  set(key: string, completion: Completion): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { at: this.now(), completion });
  }

  get size(): number {
    return this.entries.size;
  }
}
