// Turns a failed forge response into a ToolError with a stable kind (DECISIONS D17) and the
// forge's own words, whichever of GitLab's error body shapes it used.
import { ToolError, type ErrorKind } from '../tools/errors';

const MAX_MESSAGE = 600;

export function kindForStatus(status: number): ErrorKind {
  if (status >= 300 && status < 400) return 'upstream';
  if (status === 401 || status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 405 || status === 409 || status === 412) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'upstream';
  return 'validation';
}

/** GitLab answers `{"message": "…"}`, `{"message": {"field": ["…"]}}`, `{"error": "…"}` or plain text. */
export function messageFromBody(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body.trim() || fallback;
  if (!body || typeof body !== 'object') return fallback;
  const b = body as Record<string, unknown>;
  const parts: string[] = [];
  const message = b.message;
  if (typeof message === 'string') parts.push(message);
  else if (message && typeof message === 'object') {
    for (const [field, value] of Object.entries(message as Record<string, unknown>)) {
      const texts = Array.isArray(value) ? value.join(', ') : String(value);
      parts.push(field === 'base' || field === 'error' ? texts : `${field} ${texts}`);
    }
  }
  if (typeof b.error === 'string') parts.push(b.error);
  if (typeof b.error_description === 'string') parts.push(b.error_description);
  return parts.join('; ') || fallback;
}

/** Seconds from a Retry-After header (delta seconds or HTTP date); undefined when absent. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

export async function failureFromResponse(response: Response): Promise<ToolError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  if (text && (response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text
    }
  }
  const fallback = `${response.status} ${response.statusText || 'error'}`.trim();
  let message = messageFromBody(body, fallback);
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`;
  const retryAfter = response.status === 429 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
  return new ToolError(kindForStatus(response.status), message, response.status, retryAfter);
}
