// A client's display name as the consent page may show it, from a registration (D22) or a Client ID
// Metadata Document (D28): control, invisible and bidirectional characters would only serve to
// disguise the name on the consent page (D36's set), so they go.
import { stripInvisible } from '../text/invisible';

const MAX_CLIENT_NAME_LENGTH = 200;

type NameResult = { ok: true; name: string | undefined } | { ok: false; problem: string };

/** The cleaned name (undefined when absent or blank), or why it cannot be used. */
export function cleanClientName(raw: unknown): NameResult {
  if (raw === undefined || raw === null) return { ok: true, name: undefined };
  if (typeof raw !== 'string') return { ok: false, problem: 'client_name: must be a string' };
  // eslint-disable-next-line no-control-regex
  const name = stripInvisible(raw.replace(/[\u0000-\u001f\u007f]/g, ' ')).trim() || undefined;
  if (name && name.length > MAX_CLIENT_NAME_LENGTH) return { ok: false, problem: `client_name: must be at most ${MAX_CLIENT_NAME_LENGTH} characters` };
  return { ok: true, name };
}
