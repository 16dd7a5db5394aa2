// Search hits that are no other kind's record (D33): code and wiki hits, snippet titles.
import { compact, isRecord, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { fields, I, INVISIBLE, S, TEXTS_BY_KEY, USER } from './schema-parts';

/** Line number → text: JSON objects keep integer keys in ascending order, so this reads top to bottom. */
type NumberedLines = Record<string, string>;

/** A hit's chunk of text as numbered lines, from its start line. */
function numberedLines(data: unknown, startline: unknown): NumberedLines {
  const out: NumberedLines = {};
  if (typeof data !== 'string') return out;
  const first = typeof startline === 'number' && startline > 0 ? startline : 1;
  const lines = data.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((text, i) => (out[first + i] = text));
  return out;
}

/**
 * A code (or wiki) hit: where it is and its lines by number, so the next call can read the file
 * at that range. `keep` narrows the lines to the matching ones (search_code passes the term's
 * words); without it every line of the hit's chunk is kept, and when none matches (GitLab's search
 * syntax matched it) all are. An already lean hit passes as it is.
 */
export function leanCodeHit(r: Rec, keep?: (text: string) => boolean): Rec {
  let lines = isRecord(r.lines) ? (r.lines as NumberedLines) : numberedLines(r.data, r.startline);
  if (keep) {
    const matching = Object.entries(lines).filter(([, text]) => keep(text));
    if (matching.length > 0) lines = Object.fromEntries(matching);
  }
  return compact({ project_id: r.project_id, path: r.path ?? r.filename, ref: r.ref, startline: r.startline, lines });
}

export const codeHit: RecordKind = {
  schema: fields({ project_id: I, path: S, ref: S, startline: I, lines: TEXTS_BY_KEY, invisible_characters: INVISIBLE }),
  about:
    "A code search hit: the file's path and ref, the line its chunk starts at, and its lines by number (search_code keeps the matching ones; open the file with get_file_contents at that range).",
  lean: (r) => leanCodeHit(r),
};

export const snippetHit: RecordKind = {
  about: 'A snippet found by its title.',
  schema: fields({ id: I, title: S, file_name: S, author: USER, web_url: S }),
  lean: (r) =>
    compact({
      id: r.id,
      title: r.title,
      file_name: r.file_name,
      author: isRecord(r.author) ? compact({ id: r.author.id, username: r.author.username, name: r.author.name }) : undefined,
      web_url: r.web_url,
    }),
};
