// Sealed values for stateless mode: opaque strings any replica sharing the secret can open.
//
// Wire format (every value):  v1.<kind>.<body>
//   kind  cid | ps | pc | sid | dl | at | rt | ra | cf (see kinds.ts)
//   body  HMAC kinds:  base64url(JSON payload) "." base64url(HMAC-SHA256(subkey, "v1.<kind>." + that JSON part))
//         AEAD kinds:  base64url(12-byte IV ‖ AES-256-GCM ciphertext ‖ 16-byte tag), with "v1.<kind>." as
//                      additional authenticated data
//   payload  JSON object with "iat" (issue time, Unix seconds) and the kind's fields
//   base64url  unpadded, and only in its canonical spelling (a last character's unused bits zero)
// Each kind has its own HKDF subkey, and the prefix is authenticated too, so a value of one kind
// never opens as another. A value opens when its MAC or tag verifies under the current secret or the
// previous one (rotation: reading only), its age is within the kind's TTL and it was not issued more
// than FUTURE_SKEW_SECONDS in the future. New values are always sealed with the current secret.
import { deriveKeys, decodeSecret, type KindKeys } from './keys';
import { DEFAULT_TTL_SECONDS, FUTURE_SKEW_SECONDS, MAX_SEALED_LENGTH, SEALED_KINDS, WIRE_VERSION, type DefaultedKind, type SealedKind } from './kinds';

type OpenFailure = 'malformed' | 'invalid' | 'expired' | 'future';
type OpenResult<T> = { ok: true; payload: T & { iat: number } } | { ok: false; reason: OpenFailure };

interface SealerOptions {
  secret: string;
  /** How many opened session ids and access tokens are remembered at most (see REMEMBERED_KINDS); default 10000, fewer than 2: none. */
  maxRemembered?: number;
  previousSecret?: string;
  /** Maximum age in seconds per kind; the OAuth token kinds default to D23's lifetimes (DEFAULT_TTL_SECONDS). */
  ttlSeconds: Record<Exclude<SealedKind, DefaultedKind>, number> & Partial<Record<DefaultedKind, number>>;
  now?: () => number;
}

/**
 * The kinds a client presents again and again: a stateless session id on every request (the one
 * just issued), an access token on every call. WebCrypto's AES-GCM costs this runtime some 20–30 µs
 * of CPU per operation, the largest single part of a stateless call; a value of these kinds that
 * verified once is remembered by its text, so presenting it again costs a map lookup. Only the
 * verification is remembered: the age checks run on every open.
 */
const REMEMBERED_KINDS: ReadonlySet<SealedKind> = new Set<SealedKind>(['sid', 'at']);
const DEFAULT_MAX_REMEMBERED = 10_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The bytes of a base64url text, only when it is their one canonical spelling: the decoder ignores
 * the unused low bits of a last character, so up to 16 texts would open as one value, and single
 * use (oauth/replay-guard.ts, oauth/refresh-reuse.ts) and the memo below are judged by the text.
 */
function unb64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? new Uint8Array(bytes) : undefined;
}

export class Sealer {
  // Payload bytes of remembered values by their text (REMEMBERED_KINDS), in two generations of half
  // of maxRemembered each: when the newer is full it becomes the older and the older is dropped.
  // Deleting the oldest entry one by one instead leaves the map's iteration order to skip over what
  // was deleted, a few µs a seal once the memo is full.
  private newer = new Map<string, Uint8Array>();
  private older = new Map<string, Uint8Array>();
  private readonly generationSize: number;

  private constructor(
    private readonly current: KindKeys,
    private readonly previous: KindKeys | undefined,
    private readonly ttlSeconds: Record<SealedKind, number>,
    private readonly now: () => number,
    maxRemembered: number,
  ) {
    this.generationSize = Math.floor(maxRemembered / 2);
  }

  /** Derives every subkey once; call at start-up. */
  static async create(options: SealerOptions): Promise<Sealer> {
    const current = await deriveKeys(decodeSecret(options.secret));
    const previous = options.previousSecret ? await deriveKeys(decodeSecret(options.previousSecret)) : undefined;
    return new Sealer(
      current,
      previous,
      { ...DEFAULT_TTL_SECONDS, ...options.ttlSeconds },
      options.now ?? Date.now,
      options.maxRemembered ?? DEFAULT_MAX_REMEMBERED,
    );
  }

  /** Any plain JSON object seals as it is; its `iat` is set here. */
  async seal(kind: SealedKind, data: object): Promise<string> {
    const prefix = `${WIRE_VERSION}.${kind}.`;
    const json = encoder.encode(JSON.stringify({ ...data, iat: Math.floor(this.now() / 1000) }));
    const key = this.current[kind];
    if (SEALED_KINDS[kind].protection === 'hmac') {
      const part = b64(json);
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(prefix + part)));
      return `${prefix}${part}.${b64(mac)}`;
    }
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(prefix) }, key, json));
    const body = new Uint8Array(iv.length + sealed.length);
    body.set(iv);
    body.set(sealed, iv.length);
    const value = prefix + b64(body);
    this.remember(kind, value, json);
    return value;
  }

  private remember(kind: SealedKind, value: string, json: Uint8Array): void {
    if (!REMEMBERED_KINDS.has(kind) || this.generationSize <= 0 || value.length > MAX_SEALED_LENGTH) return;
    if (this.newer.size >= this.generationSize) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(value, json);
  }

  /**
   * `anyAge`: the value opens however old it is (never when issued in the future). For a reader that
   * must know only whether this deployment issued a value, not whether it is still fresh (a client id
   * named by a refresh token, D23).
   */
  async open<T = Record<string, unknown>>(kind: SealedKind, value: string, { anyAge = false }: { anyAge?: boolean } = {}): Promise<OpenResult<T>> {
    const prefix = `${WIRE_VERSION}.${kind}.`;
    if (typeof value !== 'string' || value.length > MAX_SEALED_LENGTH || !value.startsWith(prefix)) return { ok: false, reason: 'malformed' };
    let json = this.newer.get(value) ?? this.older.get(value);
    if (!json) {
      const body = value.slice(prefix.length);
      for (const keys of this.previous ? [this.current, this.previous] : [this.current]) {
        const verified = await this.verify(kind, prefix, body, keys[kind]);
        if (verified === null) return { ok: false, reason: 'malformed' };
        if (verified) {
          json = verified;
          break;
        }
      }
      if (!json) return { ok: false, reason: 'invalid' };
      this.remember(kind, value, json);
    }
    let payload: T & { iat: number };
    try {
      payload = JSON.parse(decoder.decode(json));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (!payload || typeof payload !== 'object' || typeof payload.iat !== 'number') return { ok: false, reason: 'malformed' };
    const age = Math.floor(this.now() / 1000) - payload.iat;
    if (age < -FUTURE_SKEW_SECONDS) return { ok: false, reason: 'future' };
    if (!anyAge && age > this.ttlSeconds[kind]) return { ok: false, reason: 'expired' };
    return { ok: true, payload };
  }

  /** The payload bytes when the value verifies under `key`; undefined when not; null when not even well-formed. */
  private async verify(kind: SealedKind, prefix: string, body: string, key: CryptoKey): Promise<Uint8Array | undefined | null> {
    if (SEALED_KINDS[kind].protection === 'hmac') {
      const dot = body.indexOf('.');
      if (dot <= 0) return null;
      const part = body.slice(0, dot);
      const json = unb64(part);
      const mac = unb64(body.slice(dot + 1));
      if (!json || !mac || mac.length !== 32) return null;
      const ok = await crypto.subtle.verify('HMAC', key, mac, encoder.encode(prefix + part));
      return ok ? json : undefined;
    }
    const bytes = unb64(body);
    if (!bytes || bytes.length < 12 + 16 + 2) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(prefix) },
        key,
        bytes.subarray(12),
      );
      return new Uint8Array(plain);
    } catch {
      return undefined;
    }
  }
}
