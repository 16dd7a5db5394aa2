// Line handling shared by the description patch formats. A description keeps its own line ending
// (GitLab stores what the client sent, \n or \r\n); patches may use either.
type Eol = '\n' | '\r\n';

export function eolOf(text: string): Eol {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The text's lines; a trailing line break leaves a final empty line, so joining restores the text exactly. */
export function splitLines(text: string, eol: Eol = eolOf(text)): string[] {
  return text === '' ? [] : text.split(eol);
}

export function joinLines(lines: readonly string[], eol: Eol): string {
  return lines.join(eol);
}

const FENCE_OPEN = /^```[\w-]*\s*$/;
const FENCE_CLOSE = /^```\s*$/;

/**
 * The patch's lines. An outer Markdown code fence (```diff … ```), as patches copied from chat
 * often carry, is blanked out; line numbers in error messages stay those of the patch as given.
 */
export function patchLines(patch: string): string[] {
  const lines = patch.split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') last--;
  if (first >= 0 && first < last && FENCE_OPEN.test(lines[first]) && FENCE_CLOSE.test(lines[last])) {
    lines[first] = '';
    lines[last] = '';
  }
  return lines;
}

/** A line quoted in a message, shortened. */
export function quote(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}
