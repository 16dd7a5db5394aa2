// Reads a forge response body without ever holding more than a limit of it (D30): a
// body declared over the limit is abandoned unread, a streamed one is cut off as soon as it
// passes the limit. Errors of the stream itself (a dropped connection, a timeout) are passed on
// for the caller to name.

/** The body passed the limit; what was read is dropped and the rest is never read. */
export class BodyOverLimit extends Error {
  constructor(
    readonly limit: number,
    /** Content-Length the forge declared, when that is how the body was refused. */
    readonly declared?: number,
  ) {
    super(`response body over ${limit} bytes`);
  }
}

const decoder = new TextDecoder();

/**
 * Content-Length when it is also the number of bytes a read yields: not when the body is
 * compressed (Content-Length then counts compressed bytes) or chunked (Transfer-Encoding wins over
 * Content-Length, and a forge may send both).
 */
function plainDeclaredLength(headers: Headers): number | undefined {
  const length = headers.get('content-length');
  if (length === null || headers.has('transfer-encoding')) return undefined;
  const encoding = headers.get('content-encoding');
  if (encoding !== null && encoding !== 'identity') return undefined;
  const n = Number(length);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The body as text; rejects with BodyOverLimit past `limit` bytes (the rest is left unread). */
export function readTextWithin(response: Response, limit: number): Promise<string> {
  const declared = plainDeclaredLength(response.headers);
  if (declared === undefined) return readStreamWithin(response, limit);
  if (declared > limit) {
    response.body?.cancel().catch(() => {});
    return Promise.reject(new BodyOverLimit(limit, declared));
  }
  // The common case: a declared, plain body within the limit is read in one native call, without
  // touching response.body (which would make the runtime build a stream for it).
  return response.text();
}

async function readStreamWithin(response: Response, limit: number): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      chunks.length = 0;
      // A limit's worth of chunks just became garbage, which the collector, not weighing such
      // buffers, leaves for many calls: a few refusals would hold hundreds of MB. Collect now
      // (a few ms with this server's small heap); only a refused body pays for it.
      Bun.gc(true);
      throw new BodyOverLimit(limit);
    }
    chunks.push(value);
  }
  return decoder.decode(joined(chunks, total));
}

/**
 * At most `limit` bytes of the body as text, the rest abandoned; '' when the body cannot be read.
 * For error bodies, of which only a short message is kept.
 */
export async function readTextPrefix(response: Response, limit: number): Promise<string> {
  const declared = plainDeclaredLength(response.headers);
  if (declared !== undefined && declared <= limit) return response.text().catch(() => '');
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limit - total;
      const kept = value.byteLength > room ? value.subarray(0, room) : value;
      chunks.push(kept);
      total += kept.byteLength;
    }
  } catch {
    // Cut off or timed out: keep what arrived.
  }
  reader.cancel().catch(() => {});
  return decoder.decode(joined(chunks, total));
}

function joined(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const whole = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
