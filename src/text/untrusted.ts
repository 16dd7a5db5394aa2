// Text other people wrote, cleaned before it reaches the agent (D36): invisible and bidirectional
// control characters go from every text but code (sanitize.ts); HTML comments, unused link
// reference definitions (`[//]: # (…)`) and link titles only from prose (Markdown fields), since in
// a diff or a blame line `<!--` is code and must stay.
import { stripHiddenMarkdown } from './hidden-markdown';
import { stripHtmlComments } from './html-comments';
import { stripInvisible } from './invisible';

/** A Markdown field: invisible characters, HTML comments and Markdown that renders as nothing removed. */
export function cleanProse(text: string): string {
  return stripHiddenMarkdown(stripHtmlComments(stripInvisible(text)));
}

/** Any other text: invisible characters removed. */
export function cleanText(text: string): string {
  return stripInvisible(text);
}
