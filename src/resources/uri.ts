// A resource URI read back into its template and variables (D44). The URI is the caller's, so
// hostile: it is bounded, a query or fragment is refused, and each variable is percent-decoded
// once (never twice: `%252e` stays `%2e`, which the tools' identifier check then refuses, D31).
// Nothing here decides whether a value is a good project, ref or path: the tool that reads the
// resource validates its arguments exactly as it does for tools/call.
import { MAX_URI_CHARS, URI_PREFIX, type ResourceTemplateDef } from './templates';

type UriReading =
  | { readonly kind: 'match'; readonly template: ResourceTemplateDef; readonly vars: Record<string, string> }
  /** A URI of ours that cannot be read as it is written (the message says why). */
  | { readonly kind: 'invalid'; readonly problem: string }
  /** No template has this URI. */
  | { readonly kind: 'unknown' };

const UNKNOWN: UriReading = { kind: 'unknown' };

function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export function readResourceUri(uri: string, templates: readonly ResourceTemplateDef[]): UriReading {
  if (uri.length > MAX_URI_CHARS) return { kind: 'invalid', problem: `the URI is longer than ${MAX_URI_CHARS} characters` };
  if (!uri.startsWith(URI_PREFIX)) return UNKNOWN;
  const rest = uri.slice(URI_PREFIX.length);
  if (/[?#]/.test(rest)) return { kind: 'invalid', problem: 'a resource URI takes no query or fragment (encode ? and # in a file path as %3F and %23)' };
  const segments = rest.split('/');
  // {project_id}/-/<kind>/…: the project is one segment, its slashes encoded.
  if (segments.length < 4 || segments[1] !== '-') return UNKNOWN;
  for (const template of templates) {
    const raw = template.match(segments.slice(2));
    if (!raw) continue;
    const vars: Record<string, string> = {};
    for (const [name, value] of Object.entries({ project_id: segments[0], ...raw })) {
      const text = decoded(value);
      if (text === undefined) return { kind: 'invalid', problem: `${name}: not valid percent-encoding` };
      vars[name] = text;
    }
    return { kind: 'match', template, vars };
  }
  return UNKNOWN;
}
