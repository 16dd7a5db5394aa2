// Markdown uploads (GitLab 17.4+): GET /projects/:id/uploads/:secret/:filename streams the file with
// its content type and an attachment disposition; 404 "404 Upload Not Found" otherwise.
import type { Route } from './http';
import { loadProject, notFound, route } from './http';

export interface Upload {
  bytes: Uint8Array | (() => ReadableStream<Uint8Array>);
  contentType: string;
  /** Declared length for streamed bodies (omit to send them chunked). */
  size?: number;
}

/** project id → "secret/filename" → upload; filled by tests. */
export const uploadsOf = new WeakMap<object, Map<string, Upload>>();

export function addUpload(project: object, secret: string, filename: string, upload: Upload): void {
  let files = uploadsOf.get(project);
  if (!files) uploadsOf.set(project, (files = new Map()));
  files.set(`${secret}/${filename}`, upload);
}

export const uploadRoutes: Route[] = [
  route('GET', '/projects/:id/uploads/:secret/:filename', (ctx) => {
    const p = loadProject(ctx);
    const upload = uploadsOf.get(p)?.get(`${ctx.params.secret}/${ctx.params.filename}`);
    if (!upload) throw notFound('Upload');
    const headers: Record<string, string> = {
      'content-type': upload.contentType,
      'content-disposition': `attachment; filename="${ctx.params.filename}"`,
    };
    if (upload.bytes instanceof Uint8Array) return new Response(upload.bytes, { headers });
    if (upload.size !== undefined) headers['content-length'] = String(upload.size);
    return new Response(upload.bytes(), { headers });
  }),
];
