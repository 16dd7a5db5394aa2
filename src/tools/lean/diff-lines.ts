// A unified diff as rows an agent reads line numbers from (D43): each line of GitLab's `diff` text
// becomes [old_line, new_line, text], where text is the line exactly as GitLab sent it (its +, - or
// space first), old_line is its number in the old file (null for an added line) and new_line its
// number in the new file (null for a removed line). Hunk headers and "\ No newline at end of file"
// are rows [null, null, text]. The two numbers are what create_merge_request_thread's position takes
// as old_line and new_line: an added line is new_line alone, a removed line old_line alone, an
// unchanged line both. Joining the texts with newlines gives the diff back.

type DiffRow = [number | null, number | null, string];

/** A hunk header: `@@ -old_start[,count] +new_start[,count] @@ heading`. */
const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function diffRows(diff: string): DiffRow[] {
  const lines = diff.split('\n');
  // GitLab's diff ends with a newline: no line follows it.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const rows: DiffRow[] = [];
  let oldLine: number | undefined;
  let newLine: number | undefined;
  for (const text of lines) {
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push([null, null, text]);
      continue;
    }
    if (oldLine === undefined || newLine === undefined) {
      // Before any hunk (no diff GitLab sends starts so): nothing to number.
      rows.push([null, null, text]);
      continue;
    }
    const first = text[0];
    if (first === '+') rows.push([null, newLine++, text]);
    else if (first === '-') rows.push([oldLine++, null, text]);
    else if (first === '\\') rows.push([null, null, text]);
    // A context line, or an empty one (a context line whose space a tool stripped).
    else rows.push([oldLine++, newLine++, text]);
  }
  return rows;
}

/** Whether a value is rows of diffRows' shape (tools/sanitize.ts reports their text as code). */
export function isDiffRows(value: unknown[]): value is DiffRow[] {
  return value.every((row) => Array.isArray(row) && row.length === 3 && typeof row[2] === 'string');
}
