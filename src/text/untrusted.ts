// Text other people wrote, cleaned before it reaches the agent (D36): invisible and bidirectional
// control characters go everywhere; HTML comments only from prose (Markdown fields), since in a
// diff or a blame line `<!--` is code and must stay.
import { stripHtmlComments } from './html-comments';
import { stripInvisible } from './invisible';

/** A Markdown field: invisible characters and HTML comments removed. */
export function cleanProse(text: string): string {
  return stripHtmlComments(stripInvisible(text));
}

/** Any other text: invisible characters removed. */
export function cleanText(text: string): string {
  return stripInvisible(text);
}
