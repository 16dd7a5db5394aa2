// A job's artifacts: the files of its archive (GET /projects/:id/jobs/:job_id/artifacts streams the
// zip; its central directory is read from the last bytes kept, zip-directory.ts) and one file read by
// path (GET …/artifacts/*artifact_path, which GitLab's Workhorse extracts and streams: lib/api/ci/
// job_artifacts.rb). A file is read as lines like a job log (streamed, bounded, log-lines.ts); one
// that is not text (a NUL byte in its first bytes) is described, not returned. The path is checked
// before the network: every part a name, never empty, `.` or `..`, plain or encoded (D31).
import { Type } from '@sinclair/typebox';
import type { ChunkReader } from '../../forge/client';
import { encodeSegment, fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { filePath, projectId, lineNumber } from '../params';
import { readLogLines } from '../pipelines/log-lines';
import { lineText } from '../pipelines/log-text';
import { jobId } from '../pipelines/params';
import { listZip, readTail, type ZipEntry } from './zip-directory';
import { B, fields, I, INVISIBLE, list, orNull, S } from '../lean/schema-parts';

const ARCHIVE = '/projects/{project_id}/jobs/{job_id}/artifacts';
const ARTIFACT_LIMITS = { entries: 500, lines: 200, maxLines: 1_000, bytes: 60_000 } as const;

export const listJobArtifacts = defineTool({
  name: 'list_job_artifacts',
  title: 'List job artifacts',
  description: "List the files in a job's artifacts archive (path, size) without extracting it.",
  group: 'ci',
  mode: 'read',
  text: true,
  endpoint: `GET ${ARCHIVE}`,
  output: fields({ job_id: I, archive_bytes: I, entries: I, files: list(fields({ path: S, type: S, size: I })), truncated: B, truncation: S }),
  input: Type.Object(
    {
      project_id: projectId(),
      job_id: jobId(),
      path: Type.Optional(filePath('One folder of the archive')),
      recursive: Type.Optional(Type.Boolean({ description: 'Its subfolders too' })),
    },
    { additionalProperties: false },
  ),
  async handler(args, { forge, fullResponse }) {
    const { tail, total } = await forge.stream({ method: 'GET', path: fillPath(ARCHIVE, args) }, (reader) => readTail(reader));
    const listing = listZip(tail, total);
    const prefix = args.path ? `${args.path.replace(/\/+$/, '')}/` : '';
    const matching =
      args.recursive === true ? listing.entries.filter((e) => e.path.startsWith(prefix) && e.path !== prefix) : oneLevel(listing.entries, prefix);
    const shown = matching.slice(0, ARTIFACT_LIMITS.entries);
    const files = shown.map((e) => (fullResponse ? e : { path: e.path, type: e.directory ? 'directory' : 'file', ...(e.directory ? {} : { size: e.size }) }));
    return {
      job_id: Number(args.job_id),
      archive_bytes: listing.archive_bytes,
      entries: listing.declared_entries,
      files,
      ...(matching.length > shown.length || listing.entries.length < listing.declared_entries
        ? {
            truncated: true,
            truncation: `${shown.length} of ${matching.length}${listing.entries.length < listing.declared_entries ? '+' : ''} entries shown; name a folder in path`,
          }
        : {}),
    };
  },
});

/**
 * The entries directly in a folder: files, and folders whether the archive has an entry for them
 * or only for files inside them (zip archives need not list folders).
 */
function oneLevel(entries: ZipEntry[], prefix: string): ZipEntry[] {
  const out: ZipEntry[] = [];
  const folders = new Set<string>();
  for (const e of entries) {
    if (!e.path.startsWith(prefix) || e.path === prefix) continue;
    const slash = e.path.indexOf('/', prefix.length);
    if (slash < 0) {
      out.push(e);
      continue;
    }
    const folder = e.path.slice(0, slash + 1);
    if (folders.has(folder)) continue;
    folders.add(folder);
    out.push(folder === e.path ? e : { path: folder, directory: true, size: 0, compressed_size: 0, method: 0 });
  }
  return out;
}

/** The path of a file in the archive, each part its own encoded segment (GitLab's wildcard route). */
function artifactPath(path: string): string {
  return path
    .split('/')
    .map((part) => encodeSegment(part, 'artifact_path'))
    .join('/');
}

/** Hands back the first chunk for a look, then the stream as it was. */
async function peek(reader: ChunkReader): Promise<{ first: Uint8Array | undefined; reader: ChunkReader }> {
  const head = await reader.read();
  let given = false;
  return {
    first: head.done ? undefined : head.value,
    reader: { read: async () => (given || head.done ? reader.read() : ((given = true), head)) },
  };
}

export const getJobArtifactFile = defineTool({
  name: 'get_job_artifact_file',
  title: 'Read artifact file',
  description: "Read one text file from a job's artifacts, with total_lines. A binary file is described.",
  group: 'ci',
  mode: 'read',
  text: true,
  // GitLab's route is …/artifacts/*artifact_path: the path's parts are sent as segments, each checked and encoded (artifactPath).
  endpoint: `GET ${ARCHIVE}/{artifact_path}`,
  output: fields({
    job_id: I,
    artifact_path: S,
    binary: B,
    note: S,
    first_line: I,
    last_line: I,
    total_lines: orNull('integer'),
    content: S,
    invisible_characters: INVISIBLE,
    truncated: B,
    truncation: S,
  }),
  input: Type.Object(
    {
      project_id: projectId(),
      job_id: jobId(),
      artifact_path: filePath('Path in the archive'),
      start_line: lineNumber('Default 1'),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: ARTIFACT_LIMITS.maxLines,
          hint: `must be an integer from 1 to ${ARTIFACT_LIMITS.maxLines}`,
          description: 'Lines; default 200',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  async handler(args, { forge, fullResponse }) {
    const path = `${fillPath(ARCHIVE, args)}/${artifactPath(args.artifact_path)}`;
    const start = args.start_line ?? 1;
    const limit = args.limit ?? ARTIFACT_LIMITS.lines;
    return forge.stream({ method: 'GET', path }, async (body) => {
      const { first, reader } = await peek(body);
      if (first?.subarray(0, 8000).includes(0)) {
        return {
          job_id: Number(args.job_id),
          artifact_path: args.artifact_path,
          binary: true,
          note: 'a binary file (it holds NUL bytes): not shown; download it from GitLab',
        };
      }
      const read = await readLogLines(reader, { mode: 'range', start, limit });
      const texts: string[] = [];
      let size = 0;
      for (const line of read.lines) {
        const text = lineText(line, fullResponse);
        size += Buffer.byteLength(JSON.stringify(text));
        if (size > ARTIFACT_LIMITS.bytes) break;
        texts.push(text);
      }
      const firstLine = texts.length ? read.first_line : 0;
      const more = texts.length < read.lines.length || read.more;
      return {
        job_id: Number(args.job_id),
        artifact_path: args.artifact_path,
        first_line: firstLine,
        last_line: texts.length ? firstLine + texts.length - 1 : 0,
        total_lines: read.total_lines,
        content: texts.join('\n'),
        ...(more ? { truncated: true, truncation: `continue with start_line ${start + texts.length}` } : {}),
      };
    });
  },
});
