// get_file_contents: a file at a ref, read from GitLab's raw endpoint as it streams (one request;
// the blob's metadata comes in its X-Gitlab-* headers, doc/api/repository_files.md). Text comes back
// decoded, a line range of it on request, never more than a size budget (the rest is not fetched);
// binary files are described, not dumped.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { filePath, projectId, refName, lineNumber } from '../params';
import { guessMimeType } from './mime';
import { readLineWindow } from './read-lines';

/**
 * Content bytes (as JSON counts them) one call returns at most: well under MAX_RESULT_BYTES'
 * default (D33), so the result is never cut in the middle of a line by that bound.
 */
export const CONTENT_BUDGET = 60_000;

const RAW = '/projects/{project_id}/repository/files/{file_path}/raw';

/**
 * A Git LFS pointer (the git-lfs spec v1): what the repository holds for a file stored in LFS, and
 * what GitLab's raw endpoint serves for it. Keys in order, each on its own line; a pointer is well
 * under 1 KB. Asking GitLab for the LFS object itself (`lfs=true`) may answer with a redirect to
 * object storage on another host, which the forge client never follows with the caller's
 * credential (forge/client.ts), so the pointer is recognised and said for what it is instead.
 */
const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\n(?:[a-z0-9.-]+ [^\n]*\n)*$/;
const LFS_POINTER_MAX_BYTES = 1024;

function lfsPointer(text: string): { oid: string; size: number } | undefined {
  if (text.length > LFS_POINTER_MAX_BYTES || !LFS_POINTER.test(text)) return undefined;
  const oid = /^oid sha256:([0-9a-f]{64})$/m.exec(text)?.[1];
  const size = Number(/^size ([0-9]{1,16})$/m.exec(text)?.[1]);
  return oid && Number.isSafeInteger(size) ? { oid: `sha256:${oid}`, size } : undefined;
}

/** The X-Gitlab-* headers GitLab sets from blob_data (lib/api/files.rb); absent ones are left out. */
function blobHeaders(headers: Headers) {
  const text = (name: string) => headers.get(`x-gitlab-${name}`) ?? undefined;
  const size = Number(text('size'));
  return {
    file_path: text('file-path'),
    ref: text('ref') || undefined,
    size: Number.isSafeInteger(size) ? size : undefined,
    blob_id: text('blob-id'),
    commit_id: text('commit-id'),
    last_commit_id: text('last-commit-id'),
    content_sha256: text('content-sha256'),
    execute_filemode: text('execute-filemode') === undefined ? undefined : text('execute-filemode') === 'true',
  };
}

export const getFileContents = defineTool({
  name: 'get_file_contents',
  title: 'Get file contents',
  description:
    'Read a file at ref. Text: lines start_line..end_line within a ~60 KB budget; ' +
    'when cut, truncated is true and next_start_line says where to go on. Binary files: size, blob_id and a mime_type guess, no content. ' +
    "A file stored in Git LFS: its object's oid and size (lfs), not its content. last_commit_id guards a later create_or_update_file.",
  group: 'repository',
  mode: 'read',
  record: 'file',
  endpoint: `GET ${RAW}`,
  input: Type.Object(
    {
      project_id: projectId(),
      file_path: filePath(),
      ref: Type.Optional(refName('Default: the default branch')),
      start_line: lineNumber('1-based'),
      end_line: lineNumber('Inclusive'),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.start_line !== undefined && args.end_line !== undefined && args.end_line < args.start_line) {
      throw invalidArgument('end_line', 'must not be before start_line');
    }
  },
  async handler(args, { forge }) {
    const response = await forge.send({ method: 'GET', path: fillPath(RAW, args), query: { ref: args.ref } });
    const meta = blobHeaders(response.headers);
    const start = args.start_line ?? 1;
    const window = await readLineWindow(response.body, { start, end: args.end_line, budget: CONTENT_BUDGET, maxBytes: forge.endpoint.maxResponseBytes });
    const file = { ...meta, file_path: meta.file_path ?? args.file_path, ref: meta.ref ?? args.ref };
    if (window.binary) {
      return { ...file, binary: true, mime_type: guessMimeType(args.file_path, window.head), note: 'binary file: its bytes are not shown' };
    }
    if (window.last === 0 && window.totalLines !== undefined && start > Math.max(window.totalLines, 1)) {
      throw new ToolError('validation', `start_line: the file has ${window.totalLines} lines`);
    }
    const pointer = start === 1 && !window.cut ? lfsPointer(window.text) : undefined;
    if (pointer) {
      return {
        ...file,
        lfs: pointer,
        note: `stored in Git LFS: the repository holds only this pointer to a ${pointer.size}-byte object, whose content this tool does not read`,
      };
    }
    return {
      ...file,
      encoding: 'text',
      start_line: window.first || start,
      end_line: window.last || null,
      total_lines: window.totalLines,
      content: window.text,
      ...(window.cut ? { truncated: true, next_start_line: window.last + 1 } : {}),
      ...(window.lineCut ? { note: `line ${window.last} is longer than the ${CONTENT_BUDGET}-byte budget and is shown cut` } : {}),
    };
  },
});
