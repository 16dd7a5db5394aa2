// A job log line as an agent should read it: GitLab's collapsible-section markers
// (`section_start:<time>:<name>[options]\r\e[0K`, `section_end:…`; doc/ci/jobs/job_logs.md), ANSI
// colour and cursor sequences, carriage-return overwrites (progress bars: only the last state
// shows), other control characters, the invisible characters of D36 and trailing blanks removed.
import { stripInvisible } from '../../text/invisible';
import type { RawLine } from './log-lines';

const SECTION_MARKER = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]\r\n]*\])?\r?(?:\x1b\[0?K)?/g;
/** CSI (colours, erase, cursor), OSC (titles, links) and the remaining two-character escapes. */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
/** What the decoder puts for a character cut in half at LINE_BYTES. */
const TRAILING_REPLACEMENT = /\uFFFD+$/;

const decoder = new TextDecoder();

export function cleanLine(text: string): string {
  let line = text.includes('section_') ? text.replace(SECTION_MARKER, '') : text;
  if (line.includes('\x1b')) line = line.replace(ANSI, '');
  if (line.includes('\r')) {
    // `\r\n` line ends, and overwrites: the terminal shows the last non-empty state.
    const states = line.split('\r').filter((s) => s !== '');
    line = states.length ? states[states.length - 1] : '';
  }
  return stripInvisible(line.replace(CONTROL, '')).trimEnd();
}

/** The line's text, cleaned unless `asSent` (full_response), with a note when its end was not kept. */
export function lineText(raw: RawLine, asSent = false): string {
  let text = decoder.decode(raw.bytes);
  if (raw.cut > 0) text = text.replace(TRAILING_REPLACEMENT, '');
  if (!asSent) text = cleanLine(text);
  return raw.cut > 0 ? `${text} [… ${raw.cut} more bytes]` : text;
}
