// Markdown GitLab renders as nothing, besides HTML comments (html-comments.ts), D36:
// - a link reference definition (`[label]: url "title"`) shows nothing where it stands; the
//   `[//]: # (…)` comment idiom is one. A definition no link in the text refers to is removed
//   whole; one a link uses keeps its label and URL (the link's target) but not its title;
// - a link's or an image's title (`[text](url "title")`) shows only as a tooltip: it is removed.
// CommonMark takes a definition only where a paragraph may start (after a blank line, a heading,
// another definition or the text's start), and never inside a code fence: elsewhere the same
// characters are shown, so they are kept.

/** A link reference definition on one line, its title (if any) possibly running on over lines. */
const DEFINITION =
  /^ {0,3}\[((?:[^\]\\\n]|\\.){1,999})\]:[ \t]*(<[^>\n]*>|[^\s<][^\s]*)?[ \t]*(\n[ \t]*)?("[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*'|\([^()\\]*(?:\\.[^()\\]*)*\))?[ \t]*$/;
// Each quoted form is written unrolled ("[^"\\]*(?:\\.[^"\\]*)*"), which fails in one pass on a long unclosed title.
const INLINE_TITLE =
  /(\]\([ \t]*(?:<[^>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*))[ \t\n]+(?:"[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'|\([^()\\\n]*(?:\\.[^()\\\n]*)*\))[ \t]*\)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Reference labels match case-insensitively with runs of whitespace as one space (CommonMark). */
const normalise = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** The labels links in `text` refer to: `[text][label]`, `[label][]`, `[label]`. */
function referencedLabels(text: string): Set<string> {
  const labels = new Set<string>();
  for (const m of text.matchAll(/\[((?:[^\]\\\n]|\\.){1,999})\](?:\[((?:[^\]\\\n]|\\.){0,999})\])?(?!:|\()/g)) {
    labels.add(normalise(m[2] ? m[2] : m[1]));
  }
  return labels;
}

/** `text` without link reference definitions nothing uses and without link titles (unchanged when it has none). */
export function stripHiddenMarkdown(text: string): string {
  const hasDefinition = text.includes(']:');
  const hasLink = text.includes('](');
  if (!hasDefinition && !hasLink) return text;
  let out = text;
  if (hasDefinition) {
    const used = referencedLabels(text);
    const lines = out.split('\n');
    const kept: string[] = [];
    let fence: string | undefined;
    let paragraphMayStart = true;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const opening = FENCE.exec(line);
      if (opening) {
        if (fence === undefined) fence = opening[1][0];
        else if (opening[1][0] === fence) fence = undefined;
        kept.push(line);
        paragraphMayStart = fence === undefined;
        continue;
      }
      if (fence === undefined && paragraphMayStart) {
        // A title may run on to the next lines (never over a blank one).
        let end = i;
        let match = DEFINITION.exec(line);
        while (!match && end + 1 < lines.length && end - i < 8 && lines[end + 1].trim() !== '') {
          end++;
          match = DEFINITION.exec(lines.slice(i, end + 1).join('\n'));
        }
        if (match && match[2] !== undefined) {
          if (used.has(normalise(match[1]))) kept.push(`[${match[1]}]: ${match[2]}`);
          i = end;
          continue;
        }
      }
      kept.push(line);
      paragraphMayStart = line.trim() === '' || /^ {0,3}#/.test(line);
    }
    out = kept.join('\n');
  }
  return out.includes('](') ? out.replace(INLINE_TITLE, '$1)') : out;
}
