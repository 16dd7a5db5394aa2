// Texts for the quick-action guard's tests (D36): GitLab's own extractor spec cases
// (spec/lib/gitlab/quick_actions/extractor_spec.rb) and the shapes an outside red team found, each
// with the line GitLab runs, and texts GitLab keeps as text in both of its eras.

/** Text GitLab runs as a command, and the line (after deleting `\r`) the refusal names. */
export const REFUSED: [string, string, number][] = [
  // GitLab's extractor spec: a command at the start, middle and end, with and without arguments.
  ['spec: no argument at the start', '/reopen\nworld', 1],
  ['spec: no argument in the middle', 'hello\n/reopen\nworld', 2],
  ['spec: no argument at the end', 'hello\n/reopen', 2],
  ['spec: one argument at the start', '/assign @joe\nworld', 1],
  ['spec: a slash in the argument', '/assign @joe / @jane\nworld', 1],
  ['spec: one argument in the middle', 'hello\n/assign @joe\nworld', 2],
  ['spec: one argument at the end', 'hello\n/assign @joe', 2],
  ['spec: several arguments', '/labels ~foo ~"bar baz" label\nworld', 1],
  ['spec: several arguments at the end', 'hello\n/labels ~foo ~"bar baz" label', 2],
  ['spec: case-insensitive', 'hello\n/LaBeLs @user.name %9.10 ~"bar baz.2"\nworld', 2],
  ['spec: a substitution', 'hello\nworld\n/reopen\n/shrug this is great?', 3],
  ['spec: several commands', 'hello\n/milestone %9.10\nworld\n/reopen', 2],
  // Where GitLab's spec skips a block GitLab's later era does not (>>> quotes, HTML) this guard refuses: stricter, never looser.
  ['spec: in a >>> quote (refused here)', 'Hello\r\n>>>\r\nThis is some text\r\n/close\r\n/assign @user\r\n>>>\r\n\r\nWorld', 4],
  ['spec: in an HTML block (refused here)', 'Hello\r\n<div>\r\nThis is some text\r\n/close\r\n/assign @user\r\n</div>\r\n\r\nWorld', 4],
  // Carriage returns: GitLab deletes every one before it matches.
  ['\\r before the slash', '\r/close', 1],
  ['\\r after the slash', '/\rclose', 1],
  ['\\r inside the name', '/clo\rse', 1],
  ['\\r starting a line', 'Thanks!\n\r/close', 2],
  ['\\r\\n line ends', 'ok\r\n/close\r\n', 2],
  // A command ends at any whitespace before the line's end.
  ['form feed after the name', '/close\f\n', 1],
  ['vertical tab after the name', '/close\v\n', 1],
  ['tab after the name', 'x\n/close\t', 2],
  // Fences GitLab's eras read differently: every line is checked.
  ['closing fence indented by one space', '```\n/close\n ```', 2],
  ['closing fence indented by three spaces', '```\n/close\n   ```', 2],
  ['opening fence indented', '  ```\n/close\n```', 2],
  ['an indented closer ends the block (CommonMark), then /close', '```\nfoo\n ```\n/close\n```', 4],
  ['an indented opener opens a block (CommonMark), then /close', ' ```\n```\n/close\n```', 3],
  ['```js inside a block', '```\n```js\n/close\n```', 3],
  ["a backtick in the opener's info string", '```a`b\n/close\n```', 2],
  ['```js inside a block is content (CommonMark), the next ``` closes, then /close', '```\n```js\n```\n/close\n```', 4],
  ['an opener with a backtick is a paragraph (CommonMark), then /close', '```a`b\n\n/close\n```', 3],
  ['~~~ fences', '~~~\n/close\n~~~', 2],
  ['an unclosed fence', 'Log:\n```\n/close', 3],
  ['a closer with trailing blanks', '```\n/close\n```  \nmore', 2],
  ['four backticks closed by three', '````\n```\n/close\n````', 3],
  ['an empty block (the older era closes later)', '```\n```\n```\n/close\n```', 4],
  ['a fence swallowed by an HTML block', '<div>\n```\n\n/close\n```', 4],
  ['a fence swallowed by front matter', '---\n```\n---\n/close\n```', 4],
  ['a fence swallowed by a >>> quote', '>>>\n```\n>>>\n/close\n```', 4],
  ['a fence swallowed by a $$ block', '$$\n```\n$$\n/close\n```', 4],
  // Names: /board_move, /wip (the draft alias before 15.x), /spent, folded letters.
  ['/board_move', 'Moving on.\n/board_move ~Doing', 2],
  ['/wip', '/wip', 1],
  ['/spent', '/spent 1h', 1],
  ['/summarize_diff', '/summarize_diff', 1],
  ['a long s for s', '/cloſe', 1],
  ['the Kelvin sign for k', '/locK', 1],
  ['upper case', '/CLOSE', 1],
];

/** Text GitLab keeps as text in both eras. */
export const WRITTEN: [string, string][] = [
  ['spec: in the middle of a line', 'hello\nworld /reopen'],
  ['spec: no space before the argument', 'hello\n/assign@joe\nworld'],
  ['spec: several arguments, no space', 'hello\n/labels~foo ~"bar baz" label\nworld'],
  ['spec: no command', 'Fixes #123'],
  ['spec: in a code block, \\r\\n line ends', 'Hello\r\n```\r\nThis is some text\r\n/close\r\n/assign @user\r\n```\r\n\r\nWorld'],
  ['a fenced block with an info string', 'Run:\n```sh\n/close\n/usr/bin/env\n```\ndone'],
  ['two fenced blocks', '```\n/close\n```\ntext\n```js\n/reopen\n```'],
  ['an unknown command and a path', '/closet is not a command\n/usr/bin/env'],
  ['an indented line', ' /close'],
  ['a code span', '`/close`'],
  ['a name followed by punctuation', '/close.'],
];
