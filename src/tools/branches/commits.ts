// Commit tools: history, one commit, its diff, and blame of a file.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { invalidArgument } from '../errors';
import { filePath, integer, isoDateTime, pagination, projectId, refName, shortName } from '../params';
import { restTool } from '../rest';

const sha = refName();

const listCommits = restTool({
  name: 'list_commits',
  title: 'List commits',
  description: 'List commits of ref_name (branch, tag or a..b; default branch), newest first; all: every ref. No totals; next_page may be empty.',
  group: 'branches',
  mode: 'read',
  record: 'commit_summary',
  input: Type.Object(
    {
      project_id: projectId(),
      ref_name: Type.Optional(refName()),
      since: isoDateTime(),
      until: isoDateTime(),
      path: Type.Optional(filePath()),
      author: Type.Optional(shortName()),
      all: Type.Optional(Type.Boolean()),
      with_stats: Type.Optional(Type.Boolean()),
      first_parent: Type.Optional(Type.Boolean()),
      order: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('topo')])),
      trailers: Type.Optional(Type.Boolean()),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.since && args.until && Date.parse(args.since) > Date.parse(args.until)) throw invalidArgument('until', 'must not be before since');
  },
  rest: { method: 'GET', path: '/projects/{project_id}/repository/commits', list: true },
});

const getCommit = restTool({
  name: 'get_commit',
  title: 'Get commit',
  description: 'Get a commit (SHA, branch or tag); line stats unless stats is false.',
  group: 'branches',
  mode: 'read',
  record: 'commit',
  input: Type.Object({ project_id: projectId(), sha, stats: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/commits/{sha}' },
});

const getCommitDiff = defineTool({
  name: 'get_commit_diff',
  title: 'Get commit diff',
  description: "Get a commit's changed files with diffs: first 20 unless full_diff.",
  group: 'branches',
  mode: 'read',
  record: 'diff',
  endpoint: 'GET /projects/{project_id}/repository/commits/{sha}/diff',
  input: Type.Object({ project_id: projectId(), sha, full_diff: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  handler(args, { forge }) {
    const request = { method: 'GET' as const, path: fillPath('/projects/{project_id}/repository/commits/{sha}/diff', args) };
    return args.full_diff ? forge.allPages(request) : forge.list(request);
  },
});

const lineNumber = () => Type.Optional(integer(1, 'must be a line number, 1 or more'));

const getFileBlame = defineTool({
  name: 'get_file_blame',
  title: 'Get file blame',
  description: 'Blame a file at ref: line ranges with their last commit. range_start/range_end (1-based, inclusive) come together.',
  group: 'branches',
  mode: 'read',
  record: 'blame_range',
  endpoint: 'GET /projects/{project_id}/repository/files/{file_path}/blame',
  narrowing: 'ask for fewer lines at a time with range_start and range_end',
  input: Type.Object(
    {
      project_id: projectId(),
      file_path: filePath(),
      ref: refName(),
      range_start: lineNumber(),
      range_end: lineNumber(),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.range_start !== undefined && args.range_end === undefined) throw invalidArgument('range_end', 'is required when range_start is given');
    if (args.range_end !== undefined && args.range_start === undefined) throw invalidArgument('range_start', 'is required when range_end is given');
    if (args.range_start !== undefined && args.range_end !== undefined && args.range_start > args.range_end) {
      throw invalidArgument('range_end', 'must not be before range_start');
    }
  },
  handler(args, { forge }) {
    const query: Record<string, string | number | undefined> = { ref: args.ref };
    if (args.range_start !== undefined) {
      query['range[start]'] = args.range_start;
      query['range[end]'] = args.range_end;
    }
    return forge.list({ method: 'GET', path: fillPath('/projects/{project_id}/repository/files/{file_path}/blame', args), query });
  },
});

export const commitTools = [listCommits, getCommit, getCommitDiff, getFileBlame];
