// Reads a JSON request body without ever holding more than the limit in memory: a declared
// Content-Length over the limit is refused at once, a streamed body is cut off as soon as it
// passes the limit. Both answer 413.
import { MESSAGES, RPC_CODES, rpcError } from './errors';

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

const tooLarge = (limit: number): BodyResult => ({
  ok: false,
  response: rpcError(413, `Payload Too Large: request body exceeds ${limit} bytes`),
});

/**
 * The body as text, or undefined when it is larger than `limit` bytes. A declared length over the
 * limit is refused unread; a streamed body is cut off as soon as it passes the limit.
 */
export async function readBoundedText(request: Request, limit: number): Promise<string | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    if (Number(declared) > limit) return undefined;
    // Known and within the limit (Bun.serve enforces the declared length on the wire): read at once.
    const text = await request.text();
    return text.length > limit ? undefined : text;
  }
  if (!request.body) return '';
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
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJsonBody(request: Request, limit: number): Promise<BodyResult> {
  const text = await readBoundedText(request, limit);
  if (text === undefined) return tooLarge(limit);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: rpcError(400, MESSAGES.parseError, RPC_CODES.parseError) };
  }
}

/**
 * The most an initialize's params (the client's capabilities and info) may take as JSON. A session
 * keeps them for its whole life, parsed, at about ten times their text: within the body limit alone,
 * a few sessions could hold gigabytes. Real clients send a few hundred bytes.
 */
export const MAX_INITIALIZE_PARAMS_BYTES = 65_536;

/** Whether an initialize in `body` carries params larger than MAX_INITIALIZE_PARAMS_BYTES. */
export function initializeParamsTooLarge(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    if (m === null || typeof m !== 'object' || (m as { method?: unknown }).method !== 'initialize') return false;
    return (JSON.stringify((m as { params?: unknown }).params) ?? '').length > MAX_INITIALIZE_PARAMS_BYTES;
  });
}

export function isInitializeMessage(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');
}
