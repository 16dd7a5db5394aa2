// Commit tools: history, one commit, its diff, and blame of a file.
import { Type } from '@sinclair/typebox';
import { defineTool } from '../define';
import { fillPath } from '../../forge/encode';
import { invalidArgument } from '../errors';
import { isoDateTime, pagination, projectId } from '../params';
import { restTool } from '../rest';

const sha = Type.String({ minLength: 1, description: 'Commit SHA, or a branch or tag name.' });

export const listCommits = restTool({
  name: 'list_commits',
  title: 'List commits',
  description: 'List commits of a branch, tag or revision range (default branch if ref_name is omitted), newest first, with optional date, path and author filters.',
  group: 'branches',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      ref_name: Type.Optional(Type.String({ minLength: 1, description: 'Branch, tag or revision range such as main..feature (default branch if omitted).' })),
      since: isoDateTime('Only commits at or after this time.'),
      until: isoDateTime('Only commits at or before this time.'),
      path: Type.Optional(Type.String({ minLength: 1, description: 'Only commits touching this file path.' })),
      author: Type.Optional(Type.String({ minLength: 1, description: 'Only commits by this author (name or email).' })),
      all: Type.Optional(Type.Boolean({ description: 'Every commit of the repository, not only the ref\'s history.' })),
      with_stats: Type.Optional(Type.Boolean({ description: 'Add additions/deletions statistics to each commit.' })),
      first_parent: Type.Optional(Type.Boolean({ description: 'Follow only the first parent of merge commits.' })),
      order: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('topo')], { description: 'default (reverse chronological) or topo.' })),
      trailers: Type.Optional(Type.Boolean({ description: 'Add Git trailers (Signed-off-by etc.) to each commit.' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.since && args.until && Date.parse(args.since) > Date.parse(args.until)) throw invalidArgument('until', 'must not be before since');
  },
  rest: { method: 'GET', path: '/projects/{project_id}/repository/commits', list: true },
});

export const getCommit = restTool({
  name: 'get_commit',
  title: 'Get commit',
  description: 'Get one commit by SHA, branch or tag: message, author, parents and, unless stats is false, line statistics.',
  group: 'branches',
  mode: 'read',
  input: Type.Object(
    { project_id: projectId(), sha, stats: Type.Optional(Type.Boolean({ description: 'Include additions/deletions statistics (forge default true).' })) },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: '/projects/{project_id}/repository/commits/{sha}' },
});

export const getCommitDiff = defineTool({
  name: 'get_commit_diff',
  title: 'Get commit diff',
  description: 'Get the changed files of a commit with their unified diffs. Returns the first page (20 files) unless full_diff is true, which walks every page.',
  group: 'branches',
  mode: 'read',
  endpoint: 'GET /projects/{project_id}/repository/commits/{sha}/diff',
  input: Type.Object(
    { project_id: projectId(), sha, full_diff: Type.Optional(Type.Boolean({ description: 'Return every changed file, not just the first page (default false).' })) },
    { additionalProperties: false },
  ),
  handler(args, { forge }) {
    const request = { method: 'GET' as const, path: fillPath('/projects/{project_id}/repository/commits/{sha}/diff', args) };
    return args.full_diff ? forge.allPages(request) : forge.list(request);
  },
});

const lineNumber = (description: string) => Type.Optional(Type.Integer({ minimum: 1, description, hint: 'must be a line number, 1 or more' }));

export const getFileBlame = defineTool({
  name: 'get_file_blame',
  title: 'Get file blame',
  description:
    'Blame a file at a ref: contiguous line ranges, each with the commit that last changed them (id, author, date, message). ' +
    'Limit to lines range_start..range_end (1-based, inclusive; give both or neither).',
  group: 'branches',
  mode: 'read',
  endpoint: 'GET /projects/{project_id}/repository/files/{file_path}/blame',
  input: Type.Object(
    {
      project_id: projectId(),
      file_path: Type.String({ minLength: 1, description: 'File path relative to the repository root, e.g. src/app.ts.' }),
      ref: Type.String({ minLength: 1, description: 'Branch, tag or commit SHA.' }),
      range_start: lineNumber('First line to blame (1-based, inclusive).'),
      range_end: lineNumber('Last line to blame (1-based, inclusive).'),
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
