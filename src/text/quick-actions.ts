// GitLab quick actions (D36): a line starting with `/close`, `/assign`, … in a description or a
// comment is run by GitLab as a command when the text is saved. Text an agent writes may carry
// one that someone else planted (an issue body it quotes), so writes refuse them unless
// FORGE_ALLOW_QUICK_ACTIONS=true. The names, with where GitLab defines each, are in
// quick-action-names.ts.
//
// The text is read as GitLab reads it, in both of its eras, and a line either era would run is
// refused (GitLab's lib/gitlab/quick_actions/extractor.rb; the later one with
// lib/banzai/filter/quick_action_filter.rb):
// - every `\r` is deleted before anything else, so `/clo\rse` is `/close`;
// - a command is `/name` at the very start of a line (case-insensitive), then a space and its
//   argument, or only whitespace to the line's end (`/close\f` is a command);
// - the older era skips a region from a line starting with ``` to the next line that is exactly
//   ```; the later one parses CommonMark and reads only top-level paragraphs. Only a fence both
//   read alike is skipped here: ``` at the start of a line with an info string free of backticks,
//   closed by a line that is exactly ```, with no other fence-like line inside. Any other fence
//   shape (indented by 1–3 spaces, ~~~, four or more backticks, an opener with a backtick in its
//   info string, a closer with trailing blanks, an empty block, a fence never closed) and any
//   construct that can swallow an opening fence in CommonMark (an HTML block, GitLab's >>> quote,
//   a $$ math block, front matter) means no fence in the text is trusted: every line is checked.
// Other places GitLab skips (inline code, HTML blocks, quotes, paragraphs not starting with `/`)
// are not skipped here: that refuses a little more than GitLab would run, never less.
import { QUICK_ACTIONS } from './quick-action-names';

const NAMES = new Set(QUICK_ACTIONS);
/**
 * `/name` then whitespace or the line's end. The name is read as a run of letters, marks, digits
 * and underscores and folded (NFKD, marks dropped, lower case) before it is looked up, since
 * GitLab's case-insensitive match takes `ſ` for `s` and `K` (Kelvin) for `k`.
 */
const COMMAND_LINE = /^\/([\p{L}\p{M}\p{N}_]+)(?=\s|$)/u;
/** What CommonMark or the older GitLab may take for a fence line. */
const FENCE_LIKE = /^ {0,3}(?:`{3,}|~{3,})/;
/** A fence opener both eras read alike. */
const CLEAN_OPENER = /^```[^`]*$/;
const CLEAN_CLOSER = '```';
/** Lines that start a CommonMark (or GitLab) block able to hold a fence line as its own text. */
const SWALLOWS_FENCES = /^ {0,3}(?:<|>>>|\$\$)/;
const FRONT_MATTER = /^(?:---|\+\+\+|;;;)/;
/** The most of a refused line an error shows back. */
const SHOWN = 80;

interface QuickActionLine {
  /** 1-based line number, counted once `\r` is deleted as GitLab does. */
  line: number;
  /** The line, cut to a readable length. */
  text: string;
  /** The line sits in a code fence this check does not trust (one GitLab releases read differently). */
  untrustedFence?: boolean;
}

function fold(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Whether `line` is a command line to GitLab. */
function isCommand(line: string): boolean {
  if (line.charCodeAt(0) !== 0x2f) return false;
  const command = COMMAND_LINE.exec(line);
  return command !== null && NAMES.has(fold(command[1]));
}

/**
 * For each line, whether it sits in a fence both eras skip; undefined when the text has a fence
 * (or a fence-swallowing block) they may read differently, so that no line is taken as fenced.
 */
function fencedLines(lines: string[]): boolean[] | undefined {
  const fenced = new Array<boolean>(lines.length).fill(false);
  let open = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (open < 0) {
      if (SWALLOWS_FENCES.test(line) || (i === 0 && FRONT_MATTER.test(line))) return undefined;
      if (!FENCE_LIKE.test(line)) continue;
      if (!CLEAN_OPENER.test(line)) return undefined;
      open = i;
    } else if (line === CLEAN_CLOSER) {
      // "```" then "```" at once: the older era needs a character between them and closes later.
      if (i === open + 1 && lines[open] === CLEAN_CLOSER) return undefined;
      fenced.fill(true, open, i + 1);
      open = -1;
    } else if (FENCE_LIKE.test(line)) {
      return undefined;
    }
  }
  if (open >= 0) return undefined;
  return fenced;
}

/** The first line of `text` that GitLab would run as a quick action, if any. */
export function findQuickAction(text: string): QuickActionLine | undefined {
  if (!text.includes('/')) return undefined;
  // GitLab deletes every carriage return before it looks for commands.
  const lines = (text.includes('\r') ? text.replaceAll('\r', '') : text).split('\n');
  let fenced: boolean[] | undefined | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!isCommand(line)) continue;
    if (fenced === null) fenced = fencedLines(lines);
    if (fenced?.[i]) continue;
    const found: QuickActionLine = { line: i + 1, text: line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line };
    if (fenced === undefined && blockBefore(lines, i)) found.untrustedFence = true;
    return found;
  }
  return undefined;
}

/** Whether a fence-like line comes before line `index` (for the refusal's advice). */
function blockBefore(lines: string[], index: number): boolean {
  for (let i = 0; i < index; i++) if (FENCE_LIKE.test(lines[i]) || SWALLOWS_FENCES.test(lines[i])) return true;
  return false;
}

/** The refusal of a quick action in a parameter (D36), naming the parameter and the line. */
export function quickActionProblem(found: QuickActionLine): string {
  const shown = JSON.stringify(found.text).slice(1, -1);
  const fence = found.untrustedFence
    ? ' (the block around it is not a code fence every GitLab release skips: only ``` at a line start, closed by a line that is exactly ```, is)'
    : '';
  return (
    `line ${found.line} "${shown}" is a GitLab quick action, which GitLab would run as a command${fence}; ` +
    'indent the line by a space or put it in a code span to keep it as text'
  );
}
