// Repository files API (GitLab lib/api/files.rb): get a file (JSON, base64 content) or its
// metadata (HEAD), its raw bytes (streamed, X-Gitlab-* headers), create (POST) and update (PUT).
// Blame stays in commits.ts.
import { createHash } from 'node:crypto';
import type { ForgeModel, Project } from '../model';
import { blobBytes, lastCommitFor, repoStore, snapshotAt, type Blob } from '../model-repository';
import type { Ctx } from './http';
import { ACCESS, json, loadProject, notFound, paramError, requireLevel, route, type Route } from './http';
import { writeCommit, type WriteAction } from './repository-write';

/** `HEAD` names the default branch (doc/api/repository_files.md); otherwise a branch, tag or sha. */
export function resolveRepoRef(m: ForgeModel, p: Project, ref: string): string | undefined {
  return m.resolveRef(p, ref === 'HEAD' ? p.default_branch : ref);
}

/** Grape's `file_path: true` validator refuses traversal. */
function filePathParam(ctx: Ctx): string {
  const path = ctx.params.file_path;
  if (path.split('/').some((part) => part === '..' || part === '.')) throw paramError('file_path should be a valid file path');
  return path;
}

const sha256s = new WeakMap<Blob, string>();
function contentSha256(blob: Blob): string {
  let hex = sha256s.get(blob);
  if (!hex) {
    // Hashing the generated 256 MiB log on every request would only slow tests down.
    hex = blob.size > 8 * 1024 * 1024 ? createHash('sha256').update(blob.id).digest('hex') : createHash('sha256').update(blobBytes(blob)).digest('hex');
    sha256s.set(blob, hex);
  }
  return hex;
}

interface Found {
  p: Project;
  sha: string;
  path: string;
  blob: Blob;
  ref: string | undefined;
}

/** assign_file_vars!: the commit (404 Commit), then the blob (404 File). */
function findFile(ctx: Ctx, refRequired: boolean): Found {
  const p = loadProject(ctx);
  const path = filePathParam(ctx);
  const ref = refRequired ? ctx.input.required('ref', false) : ctx.input.str('ref');
  if (ref !== undefined && ref.trim() === '') throw paramError('ref is empty');
  const sha = resolveRepoRef(ctx.model, p, ref ?? 'HEAD');
  if (!sha) throw notFound('Commit');
  const blob = snapshotAt(ctx.model, p, sha).get(path);
  if (!blob) throw notFound('File');
  return { p, sha, path, blob, ref };
}

/** blob_data of files.rb, as fields and as X-Gitlab-* headers (set_http_headers). */
function blobData(ctx: Ctx, f: Found) {
  return {
    file_name: f.path.split('/').pop()!,
    file_path: f.path,
    size: f.blob.size,
    encoding: 'base64',
    content_sha256: contentSha256(f.blob),
    ref: f.ref ?? null,
    blob_id: f.blob.id,
    commit_id: f.sha,
    last_commit_id: lastCommitFor(ctx.model, f.p, f.sha, f.path),
    execute_filemode: f.blob.executable,
  };
}

function headers(data: ReturnType<typeof blobData>): Record<string, string> {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) h[`x-gitlab-${k.replaceAll('_', '-')}`] = v === null ? '' : String(v);
  return h;
}

const CHUNK = 64 * 1024;

/** Pull-based: each chunk is produced when the socket wants one, so an abandoned read stops the production. */
function rawBody(p: Project, blob: Blob): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= blob.size) {
          controller.close();
          return;
        }
        const chunk = blob.read(offset, Math.min(blob.size, offset + CHUNK));
        offset += chunk.byteLength;
        repoStore(p).rawBytesServed += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
}

function writeParams(
  ctx: Ctx,
  action: 'create' | 'update',
): { branch: string; message: string; startBranch?: string; action: WriteAction; authorName?: string; authorEmail?: string } {
  const branch = ctx.input.required('branch', false);
  const message = ctx.input.required('commit_message', false);
  const content = ctx.input.required('content');
  const encoding = ctx.input.oneOf('encoding', ['base64', 'text'] as const) ?? 'text';
  return {
    branch,
    message,
    startBranch: ctx.input.str('start_branch'),
    authorName: ctx.input.str('author_name'),
    authorEmail: ctx.input.str('author_email'),
    action: {
      action,
      file_path: ctx.params.file_path,
      content,
      encoding,
      last_commit_id: action === 'update' ? ctx.input.str('last_commit_id') : undefined,
      execute_filemode: ctx.input.bool('execute_filemode'),
    },
  };
}

function write(ctx: Ctx, action: 'create' | 'update', status: number): Response {
  const p = loadProject(ctx);
  const path = filePathParam(ctx);
  const w = writeParams(ctx, action);
  requireLevel(ctx, p, ACCESS.developer);
  writeCommit(ctx.model, p, ctx.user, {
    api: 'files',
    branch: w.branch,
    commitMessage: w.message,
    startBranch: w.startBranch,
    authorName: w.authorName,
    authorEmail: w.authorEmail,
    actions: [w.action],
  });
  return json({ file_path: path, branch: w.branch }, status);
}

export const repositoryFileRoutes: Route[] = [
  route('HEAD', '/projects/:id/repository/files/:file_path', (ctx) => {
    const f = findFile(ctx, true);
    return new Response(null, { status: 200, headers: headers(blobData(ctx, f)) });
  }),

  route('GET', '/projects/:id/repository/files/:file_path', (ctx) => {
    const f = findFile(ctx, true);
    const data = blobData(ctx, f);
    return json({ ...data, content: Buffer.from(blobBytes(f.blob)).toString('base64') }, 200, headers(data));
  }),

  // Workhorse's send-blob streams the bytes; the API sets the blob_data headers first (files.rb).
  route('GET', '/projects/:id/repository/files/:file_path/raw', (ctx) => {
    const f = findFile(ctx, false);
    const h = headers(blobData(ctx, f));
    const binary = f.blob.read(0, Math.min(f.blob.size, 8000)).includes(0);
    h['content-type'] = binary ? 'application/octet-stream' : 'text/plain; charset=utf-8';
    return new Response(rawBody(f.p, f.blob), { status: 200, headers: h });
  }),

  route('POST', '/projects/:id/repository/files/:file_path', (ctx) => write(ctx, 'create', 201)),
  route('PUT', '/projects/:id/repository/files/:file_path', (ctx) => write(ctx, 'update', 200)),
];
