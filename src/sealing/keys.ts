// Subkeys derived once at start-up with HKDF-SHA256 from the master secret, one per kind and
// purpose (`info` = "forge-mcp/v1/<kind>"), so a value made for one kind never verifies as another.
import { SEALED_KINDS, type SealedKind } from './kinds';

export type KindKeys = Record<SealedKind, CryptoKey>;

const encoder = new TextEncoder();

export function decodeSecret(secret: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(secret, 'base64url'));
}

export async function deriveKeys(secret: Uint8Array<ArrayBuffer>): Promise<KindKeys> {
  const master = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  const keys = {} as KindKeys;
  for (const kind of Object.keys(SEALED_KINDS) as SealedKind[]) {
    const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(`forge-mcp/v1/${kind}`) };
    keys[kind] =
      SEALED_KINDS[kind].protection === 'hmac'
        ? await crypto.subtle.deriveKey(params, master, { name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign', 'verify'])
        : await crypto.subtle.deriveKey(params, master, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  }
  return keys;
}
