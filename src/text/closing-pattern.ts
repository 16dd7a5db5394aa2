// GitLab's issue closing pattern (D36): a merge request whose title or description says
// "Closes #12", or a commit whose message says "Fixes group/proj#3", makes GitLab close that
// issue when the merge request merges or the commit reaches the default branch. A write that
// holds one is not refused (it is often meant), but its result says so (`closes_issues`), since
// the text may come from somewhere the agent did not write itself.
//
// The pattern is GitLab's default `issue_closing_pattern` (config/gitlab.yml.example, read by
// lib/gitlab/closing_issue_extractor.rb with `%{issue_ref}` an issue reference or issue URL);
// an instance's administrator may have changed it.

/** An issue reference (`#12`, `proj#12`, `group/proj#12`) or an issue or work item URL. */
const ISSUE_REF = String.raw`(?:https?://[^\s]+/(?:-/)?(?:issues|work_items)/\d+|(?:[\w.\-]+(?:/[\w.\-]+)*)?#\d+)`;
const KEYWORD = /\b(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)/g;
/** GitLab's pattern from its keyword on (sticky: tried where KEYWORD found one). */
const CLOSING = new RegExp(
  '(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)(:?) +' +
    String.raw`(?:(?:issues? +)?${ISSUE_REF}(?:(?:, *| +and +)?)|([A-Z][A-Z0-9_]+-\d+))+`,
  'y',
);
const REFERENCE = new RegExp(`${ISSUE_REF}|\\b[A-Z][A-Z0-9_]+-\\d+`, 'g');
/**
 * Bounds that keep a hostile text cheap: the pattern is tried at the first 1,000 keywords, on the
 * 2,000 characters after each, and at most 50 references are listed.
 */
const MAX_KEYWORDS = 1_000;
const WINDOW = 2_000;
const MAX_LISTED = 50;

/** The issue references GitLab's default closing pattern finds in `texts`, in order, each once. */
export function closingReferences(...texts: (string | undefined)[]): string[] {
  const found = new Set<string>();
  let tried = 0;
  for (const text of texts) {
    if (!text) continue;
    for (const keyword of text.matchAll(KEYWORD)) {
      if (++tried > MAX_KEYWORDS) return [...found];
      const window = text.slice(keyword.index, keyword.index + WINDOW);
      CLOSING.lastIndex = 0;
      const match = CLOSING.exec(window);
      if (!match) continue;
      // The references follow the keyword (and its optional colon) and a space.
      for (const ref of match[0].slice(match[0].indexOf(' ')).matchAll(REFERENCE)) {
        found.add(ref[0]);
        if (found.size >= MAX_LISTED) return [...found];
      }
    }
  }
  return [...found];
}
