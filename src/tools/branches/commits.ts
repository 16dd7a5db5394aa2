// Commit tools: history, one commit, its diff, and blame of a file.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { invalidArgument } from '../errors';
import { filePath, isoDateTime, pagination, projectId, refName, shortName, lineNumber } from '../params';
import { restTool } from '../rest';

const sha = refName('SHA, branch or tag');

const listCommits = restTool({
  name: 'list_commits',
  title: 'List commits',
  description: 'List commits, newest first. No totals; next_page may be empty.',
  group: 'branches',
  mode: 'read',
  record: 'commit_summary',
  input: Type.Object(
    {
      project_id: projectId(),
      ref_name: Type.Optional(refName('Branch, tag or a..b; default branch')),
      since: isoDateTime(),
      until: isoDateTime(),
      path: Type.Optional(filePath()),
      author: Type.Optional(shortName({ description: 'Name or email' })),
      all: Type.Optional(Type.Boolean({ description: 'Every ref' })),
      with_stats: Type.Optional(Type.Boolean({ description: 'Line stats' })),
      first_parent: Type.Optional(Type.Boolean({ description: 'First parents only' })),
      order: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('topo')], { description: 'topo: topological' })),
      trailers: Type.Optional(Type.Boolean({ description: 'Git trailers' })),
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
  description: 'Get a commit with its stats.',
  group: 'branches',
  mode: 'read',
  record: 'commit',
  input: Type.Object({ project_id: projectId(), sha, stats: Type.Optional(Type.Boolean({ description: 'Default true' })) }, { additionalProperties: false }),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/commits/{sha}' },
});

const getCommitDiff = defineTool({
  name: 'get_commit_diff',
  title: 'Get commit diff',
  description: "Get a commit's changed files with diffs.",
  group: 'branches',
  mode: 'read',
  record: 'diff',
  endpoint: 'GET /projects/{project_id}/repository/commits/{sha}/diff',
  input: Type.Object(
    { project_id: projectId(), sha, full_diff: Type.Optional(Type.Boolean({ description: 'All files, not the first 20' })) },
    { additionalProperties: false },
  ),
  handler(args, { forge }) {
    const request = { method: 'GET' as const, path: fillPath('/projects/{project_id}/repository/commits/{sha}/diff', args) };
    return args.full_diff ? forge.allPages(request) : forge.list(request);
  },
});

const getFileBlame = defineTool({
  name: 'get_file_blame',
  title: 'Get file blame',
  description: 'Blame a file at ref: line ranges with their last commit.',
  group: 'branches',
  mode: 'read',
  record: 'blame_range',
  endpoint: 'GET /projects/{project_id}/repository/files/{file_path}/blame',
  narrowing: 'ask for fewer lines at a time with range_start and range_end',
  input: Type.Object(
    {
      project_id: projectId(),
      file_path: filePath(),
      ref: refName('Branch, tag or SHA'),
      range_start: lineNumber('First line; with range_end'),
      range_end: lineNumber('Last line, inclusive'),
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
