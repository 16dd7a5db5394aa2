// The members of a JSON object body in the order written, repeats included. JSON.parse keeps only
// the last of two members with one name, so a parameter sent twice in a JSON body (D22: /token takes
// JSON as well as forms) would pass unseen; RFC 6749 §3.2 forbids a parameter more than once.

/**
 * `[name, value]` of each top-level member of `text`, in order. `text` must already have been
 * parsed by JSON.parse as an object: the scan relies on it being well-formed.
 */
export function jsonMembers(text: string): [string, unknown][] {
  const members: [string, unknown][] = [];
  let depth = 0;
  let name: string | undefined;
  let valueStart = -1;
  const close = (end: number) => {
    if (name !== undefined) members.push([name, JSON.parse(text.slice(valueStart, end))]);
    name = undefined;
    valueStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      // The first string at the top level after `{` or `,` is a member's name; later ones are values.
      if (depth === 1 && name === undefined) name = JSON.parse(text.slice(start, i + 1)) as string;
    } else if (c === ':' && depth === 1) {
      valueStart = i + 1;
    } else if (c === ',' && depth === 1) {
      close(i);
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 1) close(i);
      depth--;
    }
  }
  return members;
}
