// An error body that is not JSON (GitLab's HTML error pages, a proxy's page, plain text) reaches
// the agent as one short line of plain text (D17's message): the page's <title> or else its
// first text, with scripts, styles, comments and tags removed and whitespace collapsed. The
// body comes from the forge and may be hostile: the scan is linear, with no backtracking regex.

const MAX_PLAIN_MESSAGE = 200;

// Elements whose content is not text a reader sees.
const HIDDEN = ['script', 'style', 'noscript', 'template', 'head'];
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]+/g;
const SPACE = /\s+/g;
const ENTITY = /&(amp|lt|gt|quot|#39|apos|nbsp);/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
const LOOKS_LIKE_HTML = /^\s*<|<html[\s>]|<body[\s>]/i;
const UPPER_ASCII = /[A-Z]+/g;

/** ASCII-only lower case: keeps every index of `text` valid (toLowerCase may change lengths). */
const lowerAscii = (text: string) => text.replace(UPPER_ASCII, (run) => run.toLowerCase());

/** The name of the element opened at `lower[at] === '<'`, if it is one of HIDDEN. */
function hiddenElementAt(lower: string, at: number): string | undefined {
  for (const name of HIDDEN) {
    if (lower.startsWith(name, at + 1)) {
      const next = lower.charCodeAt(at + 1 + name.length);
      // `>`, `/` or whitespace after the name: <script>, <script src=…>, <head/>.
      if (next === 62 || next === 47 || next === 32 || next === 9 || next === 10 || next === 13 || Number.isNaN(next)) return name;
    }
  }
  return undefined;
}

/** Text outside tags, with hidden elements and comments dropped (tags become spaces). */
function visibleText(html: string, lower: string, from = 0, to = html.length): string {
  let out = '';
  let i = from;
  while (i < to) {
    const lt = html.indexOf('<', i);
    if (lt === -1 || lt >= to) {
      out += html.slice(i, to);
      break;
    }
    out += `${html.slice(i, lt)} `;
    if (lower.startsWith('<!--', lt)) {
      const end = lower.indexOf('-->', lt + 4);
      i = end === -1 ? to : end + 3;
      continue;
    }
    const hidden = hiddenElementAt(lower, lt);
    if (hidden) {
      const end = lower.indexOf(`</${hidden}`, lt + 1);
      if (end === -1) break; // never closed: nothing after it is visible text
      i = end + 2 + hidden.length;
    } else {
      i = lt + 1;
    }
    const gt = html.indexOf('>', i);
    i = gt === -1 ? to : gt + 1;
  }
  return out;
}

function clean(text: string): string {
  return text
    .replace(ENTITY, (_, name: string) => ENTITIES[name])
    .replace(CONTROL, ' ')
    .replace(SPACE, ' ')
    .trim();
}

/** One plain line of at most `max` characters; '' when nothing readable is left. */
export function plainTextOf(body: string, contentType: string | null, max = MAX_PLAIN_MESSAGE): string {
  let text: string;
  if ((contentType ?? '').includes('html') || LOOKS_LIKE_HTML.test(body)) {
    const lower = lowerAscii(body);
    const open = lower.indexOf('<title');
    const start = open === -1 ? -1 : lower.indexOf('>', open);
    const end = start === -1 ? -1 : lower.indexOf('</title', start);
    // Entities are decoded after tags are gone, so a decoded `<` cannot start a tag.
    text = end === -1 ? '' : clean(visibleText(body, lower, start + 1, end));
    if (!text) text = clean(visibleText(body, lower));
  } else {
    text = clean(body);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
