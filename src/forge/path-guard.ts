// Defence in depth for D31: a request is sent only to the path its tool's template
// produced. fetch requests what the URL parser makes of a URL, and the parser collapses dot
// segments (`..`, `%2e%2e`, …), reads `\` as `/` and rewrites some characters; a path it would
// change is never sent. Runs on every request: the parse is skipped when nothing can change.

/**
 * What in a path the URL parser may rewrite: a `.` or `%2e` starting a segment (dot segments), `\`
 * (read as `/`), characters it percent-encodes or drops (controls, space, `"<>^\`{}`, non-ASCII) and
 * `?`/`#` (they end the path). A path without any is requested exactly as written.
 */
const REWRITABLE = /\/(?:\.|%2e)|[\\\x00-\x20"#<>?^`{}\x7f-\uffff]/i;

/** Whether fetch would request exactly `apiPath + path` for `url` (D31). */
export function keepsPath(url: string, apiPath: string, path: string): boolean {
  if (!REWRITABLE.test(path)) return true;
  try {
    return new URL(url).pathname === apiPath + path;
  } catch {
    return false;
  }
}
