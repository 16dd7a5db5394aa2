// A merge request's changes: one page of file diffs within a size budget per file and per result, or
// the whole diffs of named files; and the list of diff versions (each push makes one).
import { Type } from '@sinclair/typebox';
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { LIMITS, pagination, projectId } from '../params';
import { restTool } from '../rest';
import { mergeRequestIid, MR_PATH } from './params';

/** Characters of one file's diff shown in a page of diffs; the rest is cut at a whole line. */
const FILE_DIFF_BUDGET = 20_000;
/**
 * Characters of diff text in one result (about 15k tokens with the line numbers); later files keep
 * their paths, not their diff. The lean rows' numbers (D43) add some 25% to code of common width.
 */
const RESULT_DIFF_BUDGET = 50_000;
/** Characters of diff text returned for named files (file_paths): with the rows' numbers, within the default MAX_RESULT_BYTES (D33). */
const FULL_DIFF_BUDGET = 70_000;
const MIN_CUT = 2_000;

interface FileDiff {
  old_path: string;
  new_path: string;
  diff: string | null;
  [field: string]: unknown;
}

/** The diff cut to `budget` characters at a line end, with how many lines were left out. */
function cut(diff: string, budget: number): { diff: string; omitted: number } {
  if (diff.length <= budget) return { diff, omitted: 0 };
  const end = diff.lastIndexOf('\n', budget);
  const kept = diff.slice(0, end > 0 ? end + 1 : budget);
  const total = diff.split('\n').length;
  return { diff: kept, omitted: total - kept.split('\n').length };
}

/** Applies the per-file and per-result budgets in order; reports what was cut. */
function budgetDiffs(files: FileDiff[], perFile: number, perResult: number): { items: FileDiff[]; cut: string[]; omitted: string[] } {
  let left = perResult;
  const cutPaths: string[] = [];
  const omitted: string[] = [];
  const items = files.map((file) => {
    const text = file.diff ?? '';
    const room = Math.min(perFile, left);
    // A few lines of a large diff help nobody: below MIN_CUT of room the file keeps only its paths.
    if (text.length > room && room < MIN_CUT) {
      omitted.push(file.new_path);
      return { ...file, diff: null, diff_omitted: true };
    }
    const { diff, omitted: lines } = cut(text, room);
    left -= diff.length;
    if (lines === 0) return file;
    cutPaths.push(file.new_path);
    return { ...file, diff, diff_truncated: true, diff_lines_omitted: lines };
  });
  return { items, cut: cutPaths, omitted };
}

const filePaths = () =>
  Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.filePath }), {
    minItems: 1,
    maxItems: 20,
    description: `Just these files, whole (to ${FULL_DIFF_BUDGET / 1000}k), not a page`,
  });

/** The whole diffs of the named files: every page is read (bounded by the forge client, D30). */
async function fileDiffs(forge: ForgeClient, path: string, paths: string[]) {
  const all = await forge.allPages<FileDiff>({ method: 'GET', path });
  const wanted = new Set(paths);
  const found = all.items.filter((f) => wanted.has(f.new_path) || wanted.has(f.old_path));
  if (found.length === 0) {
    const changed = all.items
      .slice(0, 20)
      .map((f) => f.new_path)
      .join(', ');
    throw new ToolError(
      'not_found',
      `file_paths: none of them is changed in this merge request (changed: ${changed || 'nothing'}${all.items.length > 20 ? ', …' : ''})`,
    );
  }
  const { items, cut: cutPaths } = budgetDiffs(found, FULL_DIFF_BUDGET, FULL_DIFF_BUDGET);
  const result: Record<string, unknown> = { items };
  const missing = paths.filter((p) => !found.some((f) => f.new_path === p || f.old_path === p));
  if (missing.length) result.not_changed = missing;
  if (cutPaths.length) result.truncated = true;
  return result;
}

export const listMergeRequestDiffs = defineTool({
  name: 'list_merge_request_diffs',
  title: 'List merge request diffs',
  record: 'mr_diff',
  description:
    `Changed files with diffs (latest version), paged. Diffs over ${FILE_DIFF_BUDGET / 1000}k characters, or past ${RESULT_DIFF_BUDGET / 1000}k a page, ` +
    'are cut (diff_truncated) or left out (diff_omitted).',
  group: 'merge_requests',
  mode: 'read',
  endpoint: `GET ${MR_PATH}/diffs (every page with file_paths)`,
  input: Type.Object(
    { project_id: projectId(), merge_request_iid: mergeRequestIid(), file_paths: Type.Optional(filePaths()), ...pagination },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.file_paths && (args.page !== undefined || args.per_page !== undefined))
      throw invalidArgument('file_paths', 'cannot be combined with page or per_page (every page is searched)');
  },
  async handler(args, { forge }) {
    const { project_id: _p, merge_request_iid: _i, file_paths, ...query } = args;
    const path = fillPath(`${MR_PATH}/diffs`, args);
    if (file_paths) return fileDiffs(forge, path, file_paths);
    const page = await forge.list<FileDiff>({ method: 'GET', path, query });
    const { items, cut: cutPaths, omitted } = budgetDiffs(page.items, FILE_DIFF_BUDGET, RESULT_DIFF_BUDGET);
    const result: Record<string, unknown> = { items, pagination: page.pagination };
    if (cutPaths.length || omitted.length) result.truncated = true;
    return result;
  },
});

export const listMergeRequestVersions = restTool({
  name: 'list_merge_request_versions',
  title: 'List merge request versions',
  record: 'mr_version',
  description: 'List diff versions, newest first (each push makes one): head, base and start commit shas.',
  group: 'merge_requests',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), merge_request_iid: mergeRequestIid(), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${MR_PATH}/versions`, list: true },
});
