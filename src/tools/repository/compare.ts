// get_branch_diffs: two refs compared (GitLab's GET repository/compare, lib/api/repositories.rb):
// the commits between them and the changed files. GitLab answers with every file at once; this tool
// pages the files and budgets their diffs, per file and per result, so one comparison of a large
// change does not flood the agent; file_path returns one file's whole diff.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { filePath, pagination, projectId, refName } from '../params';

/** Bytes (as JSON counts them) of one file's diff shown at most. */
export const DIFF_FILE_BUDGET = 20_000;
/** Bytes of all the diffs of one result; files past it are listed without their diff. Under MAX_RESULT_BYTES' default (D33). */
export const DIFF_RESULT_BUDGET = 60_000;
/** Commits listed at most (the head of `to` is then named apart as `commit`); list_commits with ref_name from..to lists them all. */
export const COMMITS_SHOWN = 50;

const COMPARE = '/projects/{project_id}/repository/compare';

type Rec = Record<string, unknown>;

const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

/** The start of a diff within `budget` bytes, cut after a whole line where one fits. */
function cutDiff(text: string, budget: number): string {
  let slice = text.slice(0, budget);
  while (slice.length > 0 && jsonBytes(slice) > budget) slice = slice.slice(0, Math.floor(slice.length * 0.9));
  const nl = slice.lastIndexOf('\n');
  return nl > 0 ? slice.slice(0, nl + 1) : slice;
}

/** The files of one page with their diffs within the budgets; each cut or left out says so and how big it was. */
export function budgetDiffs(diffs: Rec[], perFile = DIFF_FILE_BUDGET, perResult = DIFF_RESULT_BUDGET): { diffs: Rec[]; cut: boolean } {
  let used = 0;
  let cut = false;
  const out = diffs.map((d) => {
    const text = typeof d.diff === 'string' ? d.diff : '';
    const size = jsonBytes(text);
    const room = Math.min(perFile, perResult - used);
    if (size <= room) {
      used += size;
      return d;
    }
    cut = true;
    const { diff: _diff, ...rest } = d;
    // A few lines of a big diff tell little: past the page budget the file is listed without it.
    if (room < 1_000) return { ...rest, diff_omitted: true, diff_bytes: size };
    const shown = cutDiff(text, room);
    used += jsonBytes(shown);
    return { ...rest, diff: shown, diff_truncated: true, diff_bytes: size };
  });
  return { diffs: out, cut };
}

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

export const getBranchDiffs = defineTool({
  name: 'get_branch_diffs',
  title: 'Compare refs',
  description:
    'Compare two refs: commits and changed files with diffs. Files are paged; ' +
    'diffs over ~20 KB per file or ~60 KB per page are cut (diff_truncated) or left out (diff_omitted).',
  group: 'repository',
  mode: 'read',
  record: 'compare',
  endpoint: `GET ${COMPARE}`,
  input: Type.Object(
    {
      project_id: projectId(),
      from: refName('Branch, tag or SHA'),
      to: refName('Branch, tag or SHA'),
      straight: Type.Optional(Type.Boolean({ description: 'From from, not the merge base' })),
      file_path: Type.Optional(filePath("Just this file's whole diff")),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  async handler(args, { forge }) {
    const data = await forge.json<unknown>({ method: 'GET', path: fillPath(COMPARE, args), query: { from: args.from, to: args.to, straight: args.straight } });
    if (!isRec(data) || !Array.isArray(data.diffs) || !Array.isArray(data.commits)) {
      throw new ToolError('upstream', 'the forge answered the comparison with something that is not one', 200);
    }
    const all = data.diffs.filter(isRec);
    const { commits, diffs: _diffs, ...about } = data;
    if (args.file_path !== undefined) {
      const one = all.find((d) => d.new_path === args.file_path || d.old_path === args.file_path);
      if (!one) throw new ToolError('not_found', `file_path: ${args.file_path} did not change between ${args.from} and ${args.to}`);
      return { ...about, diffs: [one] };
    }
    const perPage = args.per_page ?? 20;
    const page = args.page ?? 1;
    const totalPages = Math.max(1, Math.ceil(all.length / perPage));
    const { diffs, cut } = budgetDiffs(all.slice((page - 1) * perPage, page * perPage));
    const shown = commits.slice(0, COMMITS_SHOWN);
    const listCut = commits.length > shown.length;
    return {
      ...about,
      // GitLab's `commit` is the last of `commits`, the head of `to`: a cut list leaves it out, so it
      // is named on its own (the lean compare drops it only where the list ends with it).
      ...(listCut ? { commit: commits[commits.length - 1] } : {}),
      commits: shown,
      ...(listCut
        ? {
            commits_total: commits.length,
            commits_note:
              `first ${shown.length} of ${commits.length} commits shown, oldest first; commit is the last, the head of ${args.to}; ` +
              `list_commits with ref_name ${args.from}..${args.to} lists them all`,
          }
        : {}),
      diffs,
      ...(cut ? { note: "some diffs were cut or left out to stay small: ask again with file_path for one file's whole diff" } : {}),
      pagination: { page, per_page: perPage, next_page: page < totalPages ? page + 1 : null, total: all.length, total_pages: totalPages },
    };
  },
});
