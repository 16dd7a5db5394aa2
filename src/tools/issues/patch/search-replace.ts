// The search_replace patch format (D25): one or more blocks
//   <<<<<<< SEARCH
//   exact text
//   =======
//   replacement
//   >>>>>>> REPLACE
// applied in order, each to the text the blocks before it left. The SEARCH text must occur exactly
// once, or any number of times with allowMultiple (every occurrence is replaced).
import { invalidArgument, ToolError } from '../../errors';
import { eolOf, patchLines } from './lines';

export interface SearchReplaceBlock {
  /** Lines joined with \n. */
  search: string;
  replace: string;
}

const SEARCH = /^<<<<<<< SEARCH\s*$/;
const DIVIDER = /^=======\s*$/;
const REPLACE = /^>>>>>>> REPLACE\s*$/;

const malformed = (problem: string) =>
  invalidArgument(
    'patch',
    `${problem}. Each block is: <<<<<<< SEARCH, the exact text, =======, the replacement, >>>>>>> REPLACE (each marker on its own line)`,
  );

export function parseSearchReplace(patch: string): SearchReplaceBlock[] {
  const blocks: SearchReplaceBlock[] = [];
  let state: 'outside' | 'search' | 'replace' = 'outside';
  let search: string[] = [];
  let replace: string[] = [];
  patchLines(patch).forEach((line, i) => {
    const where = `line ${i + 1}`;
    const block = `block ${blocks.length + 1}`;
    if (state === 'outside') {
      if (SEARCH.test(line)) [state, search, replace] = ['search', [], []];
      else if (line.trim() !== '') throw malformed(`${where}: text outside a block`);
    } else if (state === 'search') {
      if (DIVIDER.test(line)) state = 'replace';
      else if (SEARCH.test(line) || REPLACE.test(line)) throw malformed(`${where}: ${block} has no ======= line after its SEARCH text`);
      else search.push(line);
    } else if (REPLACE.test(line)) {
      if (search.length === 0 || search.every((l) => l === '')) {
        throw malformed(`${block}: the SEARCH text is empty; to add text, search for a neighbouring line and repeat it in the replacement`);
      }
      blocks.push({ search: search.join('\n'), replace: replace.join('\n') });
      state = 'outside';
    } else if (SEARCH.test(line)) {
      throw malformed(`${where}: ${block} is not closed by >>>>>>> REPLACE`);
    } else {
      replace.push(line);
    }
  });
  if (state !== 'outside') throw malformed(`block ${blocks.length + 1} is not closed by >>>>>>> REPLACE`);
  if (blocks.length === 0) throw malformed('no <<<<<<< SEARCH block found');
  return blocks;
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

function notFoundHint(text: string, search: string): string {
  if (squeeze(text).includes(squeeze(search))) return ' (it matches only if whitespace is ignored: copy indentation, blank lines and trailing spaces exactly)';
  const firstLine = search.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  if (firstLine && text.includes(firstLine)) return ' (its first line was found, a later line differs)';
  return '';
}

interface SearchReplaceResult {
  text: string;
  /** Occurrences replaced over all blocks. */
  replacements: number;
}

export function applySearchReplace(text: string, blocks: readonly SearchReplaceBlock[], allowMultiple: boolean): SearchReplaceResult {
  const eol = eolOf(text);
  let out = text;
  let replacements = 0;
  blocks.forEach((block, k) => {
    const search = block.search.split('\n').join(eol);
    const replace = block.replace.split('\n').join(eol);
    const label = blocks.length > 1 ? `block ${k + 1}` : 'the block';
    const count = occurrences(out, search);
    if (count === 0) {
      const order = k > 0 ? '; blocks apply in order, each to the text the blocks before it left' : '';
      throw new ToolError('mismatch', `${label}: the SEARCH text was not found in the description${notFoundHint(out, search)}${order}. Nothing was changed`);
    }
    if (count > 1 && !allowMultiple) {
      throw new ToolError(
        'mismatch',
        `${label}: the SEARCH text occurs ${count} times; add neighbouring lines to make it unique, or set allow_multiple to replace every occurrence. Nothing was changed`,
      );
    }
    out = out.split(search).join(replace);
    replacements += count;
  });
  return { text: out, replacements };
}
