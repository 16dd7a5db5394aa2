// The two description patch formats behind one interface: parse (a malformed patch is a
// validation error, before anything is read), then apply to a description (a patch that does not
// apply is a mismatch error) with a one-line summary of what changed.
import { lineDiff } from './line-diff';
import { applySearchReplace, parseSearchReplace, type SearchReplaceBlock } from './search-replace';
import { applyUnifiedDiff, parseUnifiedDiff, type Hunk } from './unified-diff';

type PatchType = 'search_replace' | 'unified_diff';

type ParsedPatch = { type: 'search_replace'; blocks: SearchReplaceBlock[] } | { type: 'unified_diff'; hunks: Hunk[] };

export function parsePatch(type: PatchType, patch: string): ParsedPatch {
  return type === 'search_replace' ? { type, blocks: parseSearchReplace(patch) } : { type, hunks: parseUnifiedDiff(patch) };
}

interface AppliedPatch {
  description: string;
  /** Unified diff from the old description to the new one; empty when nothing changed. */
  diff: string;
  /** e.g. "2 search/replace blocks, 3 replacements; +4 -2 lines". */
  summary: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function applyPatch(patch: ParsedPatch, description: string, allowMultiple = false): AppliedPatch {
  let text: string;
  let what: string;
  if (patch.type === 'search_replace') {
    const result = applySearchReplace(description, patch.blocks, allowMultiple);
    text = result.text;
    what = `${plural(patch.blocks.length, 'search/replace block')}, ${plural(result.replacements, 'replacement')}`;
  } else {
    text = applyUnifiedDiff(description, patch.hunks);
    what = `a unified diff of ${plural(patch.hunks.length, 'hunk')}`;
  }
  const { diff, added, removed } = lineDiff(description, text);
  return { description: text, diff, summary: `${what}; +${added} -${removed} lines` };
}
