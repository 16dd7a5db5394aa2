// HTML comments in Markdown (D36): GitLab renders `<!-- … -->` as nothing, so a comment in an
// issue body is text a person reading the issue never sees but an agent reading the API would.
// CommonMark ends such a block at the first `-->`; one never closed hides the rest of the text,
// so it is removed to the end as well.

const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/** `text` without HTML comments (unchanged, and no copy made, when it has none). */
export function stripHtmlComments(text: string): string {
  return text.includes('<!--') ? text.replace(COMMENT, '') : text;
}
