// Wiki pages. A page's content is text others wrote, read as Markdown: cleaned as a description is
// (D36), although the field is called `content` like a file's (which stays exact).
import { cleanProse } from '../../text/untrusted';
import { compact, flag, type Rec } from './helpers';
import type { RecordKind } from './kind';
import { ANY_OBJECT, B, fields, I, INVISIBLE, S } from './schema-parts';

/** The title GitLab gives a page whose title was not set apart: the slug's last part, dashes read as spaces. */
const titleOfSlug = (slug: unknown) => (typeof slug === 'string' ? slug.split('/').pop()!.replace(/-/g, ' ') : undefined);

export const wikiPage: RecordKind = {
  about:
    "A wiki page: its slug, its title when that is not the slug's last part, its format when not markdown, and its content (cleaned of hidden Markdown) when asked.",
  schema: fields({
    slug: S,
    title: S,
    format: S,
    front_matter: ANY_OBJECT,
    content: S,
    start_line: I,
    end_line: I,
    total_lines: I,
    truncated: B,
    next_start_line: I,
    note: S,
    invisible_characters: INVISIBLE,
  }),
  lean: (r: Rec) =>
    compact({
      slug: r.slug,
      title: r.title !== titleOfSlug(r.slug) ? r.title : undefined,
      format: r.format !== 'markdown' ? r.format : undefined,
      front_matter: r.front_matter,
      content: typeof r.content === 'string' ? cleanProse(r.content) : undefined,
      start_line: r.start_line,
      end_line: r.end_line,
      total_lines: r.total_lines,
      truncated: flag(r.truncated),
      next_start_line: r.next_start_line,
      note: r.note,
    }),
};
