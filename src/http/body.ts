// Reads a JSON request body without ever holding more than the limit in memory: a declared
// Content-Length over the limit is refused at once, a streamed body is cut off as soon as it
// passes the limit. Both answer 413.
import { MESSAGES, RPC_CODES, rpcError } from './errors';

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

const tooLarge = (limit: number): BodyResult => ({
  ok: false,
  response: rpcError(413, `Payload Too Large: request body exceeds ${limit} bytes`),
});

async function readBounded(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

const decoder = new TextDecoder();

export async function readJsonBody(request: Request, limit: number): Promise<BodyResult> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return tooLarge(limit);
  let text: string;
  if (declared !== null) {
    // The length is known and within the limit (Bun.serve enforces it on the wire): read at once.
    text = await request.text();
    if (text.length > limit) return tooLarge(limit);
  } else {
    const bytes = await readBounded(request, limit);
    if (!bytes) return tooLarge(limit);
    text = decoder.decode(bytes);
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: rpcError(400, MESSAGES.parseError, RPC_CODES.parseError) };
  }
}

export function isInitializeMessage(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');
}
