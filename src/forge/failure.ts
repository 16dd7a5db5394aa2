// Turns a failed forge response into a ToolError with a stable kind (D17) and the
// forge's own words, whichever of GitLab's error body shapes it used. Only a message is kept, so
// only the first ERROR_BODY_LIMIT bytes of an error body are ever read (D30).
import { ToolError, type ErrorKind } from './errors';
import { readTextPrefix } from './body';
import { plainTextOf } from './plain-text';

const MAX_MESSAGE = 600;
/** Bytes of an error body read at most; the rest is abandoned unread. */
const ERROR_BODY_LIMIT = 64 * 1024;

function kindForStatus(status: number): ErrorKind {
  if (status >= 300 && status < 400) return 'upstream';
  if (status === 401 || status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 405 || status === 409 || status === 412) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'upstream';
  return 'validation';
}

/** GitLab answers `{"errors": [{"message": "…"}]}` (GraphQL), `{"message": "…"}`, `{"message": ["…", "…"]}`, `{"message": {"field": ["…"]}}`, `{"error": "…"}` or plain text. */
function messageFromBody(body: unknown, fallback: string): string {
  if (typeof body === 'string') return body.trim() || fallback;
  if (!body || typeof body !== 'object') return fallback;
  const b = body as Record<string, unknown>;
  const parts: string[] = [];
  const message = b.message;
  if (typeof message === 'string') parts.push(message);
  // A list of sentences (ActiveRecord's full_messages, e.g. a refused protected branch): each as it is.
  else if (Array.isArray(message)) parts.push(...message.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))));
  else if (message && typeof message === 'object') {
    for (const [field, value] of Object.entries(message as Record<string, unknown>)) {
      const texts = Array.isArray(value) ? value.join(', ') : String(value);
      parts.push(field === 'base' || field === 'error' ? texts : `${field} ${texts}`);
    }
  }
  if (typeof b.error === 'string') parts.push(b.error);
  // The GraphQL endpoint's own refusals (graphql_controller.rb render_error): {"errors": [{"message": "…"}]}.
  if (Array.isArray(b.errors))
    for (const e of b.errors.slice(0, 3)) if (e && typeof (e as { message?: unknown }).message === 'string') parts.push((e as { message: string }).message);
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

export async function failureFromResponse(response: Response, limit = ERROR_BODY_LIMIT): Promise<ToolError> {
  const text = await readTextPrefix(response, limit);
  const contentType = response.headers.get('content-type');
  let body: unknown;
  if (text && (contentType ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON after all (or cut at the limit): read as text below.
    }
  }
  // HTML error pages (scripts included) and any other text become one short plain line; so does
  // a JSON message that carries markup.
  const message =
    (body === undefined ? plainTextOf(text, contentType) : plainTextOf(messageFromBody(body, ''), null, MAX_MESSAGE)) ||
    `${response.status} ${response.statusText || 'error'}`.trim();
  const retryAfter = response.status === 429 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
  return new ToolError(kindForStatus(response.status), message, response.status, retryAfter);
}
