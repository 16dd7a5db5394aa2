// Reads a JSON request body without ever holding more than the limit in memory: a declared
// Content-Length over the limit is refused at once, a streamed body is cut off as soon as it
// passes the limit. Both answer 413.
import { MESSAGES, RPC_CODES, rpcError } from './errors';

type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

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
    return jsonLongerThan((m as { params?: unknown }).params, MAX_INITIALIZE_PARAMS_BYTES);
  });
}

/**
 * Whether the JSON text of a parsed value (JSON.stringify's) is longer than `limit`, counted
 * without printing it: printing recurses, so a value nested deeper than the runtime's stack (a
 * few megabytes of `[`) threw after seconds of CPU. The walk keeps its own stack and stops as
 * soon as the count passes the limit.
 */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  if (value === undefined) return false;
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object') {
      length += (JSON.stringify(item) ?? 'null').length;
    } else if (Array.isArray(item)) {
      length += 1 + Math.max(item.length, 1); // brackets and commas
      if (length > limit) return true;
      for (const element of item) pending.push(element);
    } else {
      const keys = Object.keys(item);
      length += 1 + Math.max(keys.length, 1); // braces and commas
      for (const key of keys) {
        length += JSON.stringify(key).length + 1; // the name and its colon
        if (length > limit) return true;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
    if (length > limit) return true;
  }
  return false;
}

export function isInitializeMessage(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => m !== null && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize');
}
