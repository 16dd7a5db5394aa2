// GET /downloads/attachment?project_id=…&secret=…&filename=…[&_token=…]: streams an issue
// attachment from the forge's `GET /projects/:id/uploads/:secret/:filename` with the caller's
// credentials — the same headers as /mcp, or the sealed `_token` of a link from a tool result, which
// only opens exactly the attachment it was minted for. Nothing is buffered: the body is piped
// through with a byte cap. Limited per client IP first (D10: made-up credentials must not
// be relayed to the forge without end), then per credential (docs/spec.md Limits); neither in stateless mode.
import { createHash } from 'node:crypto';
import type { CallerResolver } from '../auth/caller-resolver';
import { ForgeClient } from '../forge/client';
import type { Credential } from '../forge/credential';
import { encodeNamespace, encodeSegment, identifierProblem } from '../forge/encode';
import type { ForgePool } from '../forge/pool';
import type { FixedWindowLimiter } from '../web/rate-limit';
import type { Refusal, Refusals } from '../web/refusals';
import type { Logger } from '../logging/logger';
import type { Sealer } from '../sealing/sealer';
import { ToolError } from '../forge/errors';
import { isPlainFilename } from './attachments';
import { openDownloadToken } from './token';
import { requestQuery } from '../web/request-url';
import { spanOf } from '../tracing/request-span';
import { MESSAGES, challengeWithError } from '../web/errors';

interface DownloadDeps {
  callers: CallerResolver;
  /** Opens `_token`s; without one only credential headers work. */
  sealer?: Sealer;
  pool: ForgePool;
  logger: Logger;
  maxBytes: number;
  /** Per-credential limit; absent in stateless mode. */
  limiter?: FixedWindowLimiter;
  /** Per-client-IP limit, counted before anything else; absent in stateless mode. */
  ipLimit?: { limiter: FixedWindowLimiter; ipOf(request: Request): string };
  /** The 401, 429 and 503 of every surface, counted and logged (web/refusals.ts). */
  refusals: Refusals;
}

const SECRET = /^[0-9a-f]{32}$/;
const COPIED_HEADERS = ['content-type', 'content-disposition', 'content-length'] as const;

function problem(status: number, kind: string, message: string, headers: Record<string, string> = {}, forgeStatus: number = status): Response {
  return Response.json({ error: { kind, status: forgeStatus, message } }, { status, headers });
}

/** The problem kind of each shared refusal (web/refusals.ts), in this route's body. */
const REFUSAL_KINDS: Record<Refusal['reason'], string> = { rate_limited: 'rate_limited', capacity: 'upstream', no_credential: 'permission' };
const asProblem = (refusal: Refusal) => problem(refusal.status, REFUSAL_KINDS[refusal.reason], refusal.message, refusal.headers);

/** The same identifier rule as tool arguments (D31): no empty, `.` or `..` part, plain or encoded. */
function projectIdProblem(id: string): string | undefined {
  if (id.length > 255 || /\s/.test(id)) return 'must be a project id or path';
  return identifierProblem(id);
}

/** Counts bytes through the stream and fails it once they pass the cap. */
function capped(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new Error(`attachment larger than ${maxBytes} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

export function createDownloadHandler(deps: DownloadDeps): (request: Request) => Promise<Response> {
  const { refusals } = deps;

  return async function download(request: Request): Promise<Response> {
    const perIp = await deps.ipLimit?.limiter.hit(deps.ipLimit.ipOf(request));
    if (perIp && !perIp.allowed) return refusals.rateLimited(perIp, { scope: 'download_ip' }, asProblem);
    const query = requestQuery(request.url);
    const projectId = query.get('project_id') ?? '';
    // GitLab's upload secrets are lower-case hex, as the links this server makes carry them.
    const secret = (query.get('secret') ?? '').toLowerCase();
    const filename = query.get('filename') ?? '';
    const projectProblem = projectIdProblem(projectId);
    if (projectProblem) return problem(400, 'validation', `project_id: ${projectProblem}`);
    if (!SECRET.test(secret)) return problem(400, 'validation', 'secret: must be the 32-character hex secret of the upload');
    if (!isPlainFilename(filename)) return problem(400, 'validation', 'filename: must be a plain file name');

    let credential: Credential;
    let apiUrl: string;
    const token = query.get('_token');
    if (token !== null) {
      const grant = deps.sealer ? await openDownloadToken(deps.sealer, token) : undefined;
      if (!grant) return problem(401, 'permission', 'the download link is invalid or has expired; fetch the issue again for a fresh one');
      if (grant.projectId !== projectId || grant.ref.secret !== secret || grant.ref.filename !== filename) {
        deps.logger.warn('download_refused', { reason: 'token for another attachment' });
        return problem(403, 'permission', 'the download link was issued for another attachment');
      }
      credential = grant.credential;
      apiUrl = grant.apiUrl;
    } else {
      const found = await deps.callers.resolve(request.headers);
      if (found.status === 'invalid' && found.reason === 'sealed_value') {
        // A value this server sealed is no forge token (D23): said so, as /mcp says it.
        return refusals.noCredential(
          MESSAGES.sealedValue,
          challengeWithError(deps.callers.challenge, 'invalid_token'),
          { route: 'download', reason: found.reason },
          asProblem,
        );
      }
      if (found.status !== 'ok')
        return refusals.noCredential(
          MESSAGES.missingCredentials,
          deps.callers.challenge,
          { route: 'download', reason: found.status === 'none' ? 'no credential' : (found.reason ?? 'invalid credential') },
          asProblem,
        );
      credential = found.caller.credential;
      apiUrl = found.caller.apiUrl;
    }

    const limit = await deps.limiter?.hit(createHash('sha256').update(credential.token).digest('base64url'));
    if (limit && !limit.allowed) return refusals.rateLimited(limit, { scope: 'download' }, asProblem);

    const lease = deps.pool.lease(apiUrl);
    if (!lease) return refusals.atCapacity('pool_full', { route: 'download' }, asProblem);
    let upstream: Response;
    try {
      const path = `/projects/${encodeNamespace(projectId, 'project_id')}/uploads/${encodeSegment(secret)}/${encodeURIComponent(filename)}`;
      // Traced (D46) below the request's server span, when tracing is on.
      upstream = await new ForgeClient(lease.endpoint, credential, { trace: spanOf(request) }).send({ method: 'GET', path });
    } catch (error) {
      // The forge's own error status is passed on; a 3xx is not an error this route can answer with
      // (a redirect to another host, not followed, would lack its Location; a 304 would answer a
      // revalidation nobody asked for): 502, the body still naming the forge's status.
      if (error instanceof ToolError)
        return problem(error.status !== null && error.status >= 400 ? error.status : 502, error.kind, error.message, {}, error.status ?? 502);
      throw error;
    } finally {
      lease.release();
    }
    // The runtime decodes a body the forge sent with a Content-Encoding: its Content-Length counts the
    // encoded bytes, not the ones passed on, so it declares nothing (the cap still counts the bytes).
    const encoded = upstream.headers.has('content-encoding');
    const declared = encoded ? NaN : Number(upstream.headers.get('content-length') ?? NaN);
    if (declared > deps.maxBytes) {
      await upstream.body?.cancel();
      return problem(413, 'validation', `the attachment is ${declared} bytes; this server passes on at most ${deps.maxBytes}`);
    }
    const headers = new Headers({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': 'sandbox', 'Cache-Control': 'private, no-store' });
    for (const name of COPIED_HEADERS) {
      if (encoded && name === 'content-length') continue;
      const value = upstream.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(upstream.body ? capped(upstream.body, deps.maxBytes) : null, { status: 200, headers });
  };
}
