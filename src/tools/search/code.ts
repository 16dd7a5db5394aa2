// search_code: the search agents make most, code, in a project, a group or everywhere; each hit is
// the file, its ref and its matching lines by number, ready for get_file_contents at that range.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { isRecord } from '../lean/helpers';
import { leanCodeHit } from '../lean/search';
import { groupId, pagination, projectId, refName } from '../params';
import { callRest } from '../rest';
import { checkSearch, explainRefusal, levelOf, PATHS } from './level';
import { term } from './search';

/**
 * The words a line must hold to count as matching: the term without GitLab's search syntax
 * (filename:, path:, extension: filters, quotes, exclusions, wildcards and operators).
 */
function matchWords(search: string): string[] {
  return search
    .replace(/(?:^|\s)(?:filename|path|extension|blob):\S*/gi, ' ')
    .replace(/(?:^|\s)-\S+/g, ' ')
    .split(/[\s"'|+()~*]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 0);
}

export const searchCode = defineTool({
  name: 'search_code',
  title: 'Search code',
  description:
    "Search code in a project (project_id), a group (group_id) or everywhere. Each hit: path, ref, start line and the matching lines by number. A group or everywhere needs GitLab's advanced or exact code search; a project always works.",
  group: 'search',
  mode: 'read',
  record: 'code_hit',
  input: Type.Object(
    {
      search: term(),
      project_id: Type.Optional(projectId()),
      group_id: Type.Optional(groupId()),
      ref: Type.Optional(refName('With project_id: branch or tag')),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check: (args) => checkSearch({ ...args, scope: 'blobs' }),
  endpoint: `GET ${PATHS.instance}, ${PATHS.group} or ${PATHS.project}`,
  async handler(args, ctx) {
    const level = levelOf(args);
    let page: { items: unknown[] };
    try {
      page = (await callRest({ method: 'GET', path: PATHS[level], list: true }, { scope: 'blobs', ...args }, ctx.forge)) as { items: unknown[] };
    } catch (error) {
      throw explainRefusal(error, 'blobs', level);
    }
    if (ctx.fullResponse) return page;
    const words = matchWords(args.search);
    const keep = words.length
      ? (text: string) => {
          const lower = text.toLowerCase();
          return words.some((w) => lower.includes(w));
        }
      : undefined;
    return { ...page, items: page.items.map((item) => (isRecord(item) ? leanCodeHit(item, keep) : item)) };
  },
});
