// One definition of the wiki tools for either parent (lib/api/wikis.rb): list, get, create,
// update, delete. A slug is one URL path segment on GitLab (NO_SLASH_URL_PART_REGEX): a nested
// page's slashes are encoded once by fillPath, and a slug already %2F-encoded is taken as it is.
// Page content is text others wrote: its lean record is cleaned like a description (lean/wiki.ts),
// and what a write sends is checked for quick actions like any text the tools write (D36). A page
// comes back a line window at a time within the file budget, as get_file_contents does.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool, type ToolDefinition } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { filePath, longText, title, userText, lineNumber, input } from '../params';
import { CONTENT_BUDGET } from '../repository/file-contents';
import { readLineWindow } from '../repository/read-lines';
import { parentParam, withGroupWikiTier, type WikiScope } from './scope';
import { deletedOutput } from '../lean/schema-parts';

const format = Type.Optional(
  Type.Union(
    ['markdown', 'rdoc', 'asciidoc', 'org'].map((f) => Type.Literal(f)),
    { description: 'Default markdown' },
  ),
);
/** A page's slug as the list gives it (`guides/setup`). */
const slug = () => filePath('As listed: guides/setup');
/** A version is a commit of the wiki's repository. */
const version = Type.Optional(
  Type.String({
    pattern: '^[0-9a-fA-F]{7,64}$',
    maxLength: 64,
    hint: 'must be a commit sha of the wiki (hex, 7 to 64 characters)',
    description: 'Wiki commit, for an older text',
  }),
);
const EDITABLE = ['title', 'content', 'format'] as const;

interface WikiTools {
  list: ToolDefinition;
  get: ToolDefinition;
  create: ToolDefinition;
  update: ToolDefinition;
  delete: ToolDefinition;
}

interface Page {
  content?: unknown;
  [key: string]: unknown;
}

/** Lines start..end of a page's content within the budget, said as get_file_contents says them. */
async function lineWindow(page: Page, start: number, end: number | undefined): Promise<Page> {
  if (typeof page.content !== 'string') return page;
  const window = await readLineWindow(new Response(page.content).body, { start, end, budget: CONTENT_BUDGET, maxBytes: Number.MAX_SAFE_INTEGER });
  if (window.binary) return page;
  if (window.last === 0 && window.totalLines !== undefined && start > Math.max(window.totalLines, 1)) {
    throw new ToolError('validation', `start_line: the page has ${window.totalLines} lines`);
  }
  return {
    ...page,
    content: window.text,
    start_line: window.first || start,
    end_line: window.last || null,
    total_lines: window.totalLines,
    ...(window.cut ? { truncated: true, next_start_line: window.last + 1 } : {}),
    ...(window.lineCut ? { note: `line ${window.last} is longer than the ${CONTENT_BUDGET}-byte budget and is shown cut` } : {}),
  };
}

export function wikiTools(scope: WikiScope): WikiTools {
  const { names, noun, basePath } = scope;
  const parent = parentParam(scope);
  const all = `${basePath}/wikis`;
  const one = `${basePath}/wikis/{slug}`;
  const tier = noun === 'group' ? ' Group wikis need Premium.' : '';

  const list = defineTool({
    name: names.list,
    title: `List ${noun} wiki pages`,
    description: `List a ${noun} wiki's pages (slug; title when it is not the slug's last part; format when not markdown), the whole list at once.${tier}`,
    group: 'wiki',
    mode: 'read',
    record: 'wiki_page',
    narrowing: 'leave out with_content, then read the pages one at a time',
    endpoint: `GET ${all}`,
    input: input({ ...parent, with_content: Type.Optional(Type.Boolean({ description: "Add each page's content" })) }),
    handler: (args, ctx) =>
      withGroupWikiTier(scope, ctx, () =>
        ctx.forge.json({ method: 'GET', path: fillPath(all, args), query: { with_content: (args as { with_content?: boolean }).with_content } }),
      ),
  });

  const get = defineTool({
    name: names.get,
    title: `Get ${noun} wiki page`,
    description:
      `Read a ${noun} wiki page by slug. Lines start_line..end_line within a ~60 KB budget; ` +
      `when cut, truncated is true and next_start_line says where to go on.${tier}`,
    group: 'wiki',
    mode: 'read',
    record: 'wiki_page',
    endpoint: `GET ${one}`,
    input: input({ ...parent, slug: slug(), version, start_line: lineNumber('1-based'), end_line: lineNumber('Inclusive') }),
    check(args: { start_line?: number; end_line?: number }) {
      if (args.start_line !== undefined && args.end_line !== undefined && args.end_line < args.start_line) {
        throw invalidArgument('end_line', 'must not be before start_line');
      }
    },
    async handler(args, ctx) {
      const a = args as { version?: string; start_line?: number; end_line?: number };
      const page = await withGroupWikiTier(scope, ctx, () => ctx.forge.json<Page>({ method: 'GET', path: fillPath(one, args), query: { version: a.version } }));
      return lineWindow(page, a.start_line ?? 1, a.end_line);
    },
  });

  const create = defineTool({
    name: names.create,
    title: `Create ${noun} wiki page`,
    description: `Create a ${noun} wiki page; a title with / makes a nested page (slug guides/setup).${tier}`,
    group: 'wiki',
    mode: 'write',
    endpoint: `POST ${all}`,
    input: input({ ...parent, title: userText(title()), content: userText(longText()), format }),
    handler: (args, ctx) => withGroupWikiTier(scope, ctx, () => ctx.forge.json({ method: 'POST', path: fillPath(all, args), body: bodyOf(args) })),
  });

  const update = defineTool({
    name: names.update,
    title: `Update ${noun} wiki page`,
    description: `Replace a ${noun} wiki page's content, title (which renames its slug) or format.${tier}`,
    group: 'wiki',
    mode: 'write',
    idempotent: true,
    endpoint: `PUT ${one}`,
    input: input({ ...parent, slug: slug(), title: Type.Optional(userText(title())), content: Type.Optional(userText(longText())), format }),
    check(args: Record<string, unknown>) {
      if (!EDITABLE.some((name) => args[name] !== undefined)) throw invalidArgument('arguments', `give at least one of ${EDITABLE.join(', ')}`);
    },
    handler: (args, ctx) => withGroupWikiTier(scope, ctx, () => ctx.forge.json({ method: 'PUT', path: fillPath(one, args), body: bodyOf(args) })),
  });

  const remove = defineTool({
    name: names.delete,
    title: `Delete ${noun} wiki page`,
    description: `Delete a ${noun} wiki page.${tier}`,
    group: 'wiki',
    mode: 'write',
    destructive: true,
    endpoint: `DELETE ${one}`,
    output: deletedOutput('slug'),
    input: input({ ...parent, slug: slug() }),
    async handler(args, ctx) {
      await withGroupWikiTier(scope, ctx, () => ctx.forge.json({ method: 'DELETE', path: fillPath(one, args) }));
      return { deleted: true, slug: (args as { slug: string }).slug };
    },
  });

  return { list, get, create, update, delete: remove };
}

/** What a write sends: the page's fields, never the parent or the slug (they are in the path). */
function bodyOf(args: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of EDITABLE) if (args[name] !== undefined) body[name] = args[name];
  return body;
}
