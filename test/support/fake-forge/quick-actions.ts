// Quick actions in issue descriptions, as GitLab's older releases read them: the regex of
// lib/gitlab/quick_actions/extractor.rb (every \r deleted first; fenced code from a line starting
// with ``` to the next line that is exactly ```, "inline code" from a line holding a backtick to a
// line ending in one, an HTML block, a >>> quote are skipped; then `/name` at a line start, an
// argument after a space, or whitespace to the line's end). Command lines are taken out of the
// description, and `/close` and `/reopen` act, as Issues::UpdateService does with them. Only the
// fake forge uses this, so a test can show GitLab would have run what the server let through.
// Ruby's /m (dot matches newline) is [\s\S] here, its ^ and $ JavaScript's /m, its \s [ \t\r\n\f\v].
import { QUICK_ACTIONS } from '../../../src/text/quick-action-names';

const NAMES = [...QUICK_ACTIONS].sort((a, b) => b.length - a.length).join('|');
const EXTRACTOR = new RegExp(
  '(^```[\\s\\S]+?\\n```$)' +
    '|(^[\\s\\S]*`\\n*[\\s\\S]+?\\n*`$)' +
    '|(^<[^>]+?>\\n[\\s\\S]+?\\n<\\/[^>]+?>$)' +
    '|(^>>>\\n[\\s\\S]+?\\n>>>$)' +
    `|^\\/(${NAMES})(?: ([^\\n]*))?(?:[ \\t\\r\\n\\f\\v]*\\n|$)`,
  'gmi',
);
/** The regex above backtracks a lot on long texts; GitLab's own is bounded by its request size. */
const MAX_TEXT = 20_000;

export interface Extracted {
  text: string;
  commands: string[];
}

/** The commands GitLab's older extractor finds in `content`, and the text without them. */
export function extractQuickActions(content: string): Extracted {
  const commands: string[] = [];
  const source = content.replaceAll('\r', '');
  if (source.length > MAX_TEXT) return { text: content, commands };
  const text = source.replace(EXTRACTOR, (whole, _code, _inline, _html, _quote, command: string | undefined) => {
    if (!command) return whole;
    commands.push(command.toLowerCase());
    return '';
  });
  return { text: commands.length ? text.trimEnd() : content, commands };
}
