// The REST endpoints GitLab lets a CI job token reach (doc/ci/jobs/ci_job_token.md, "Job token
// access"; in lib/api the routes marked `route_setting :authentication, job_token_allowed: true`).
// Anywhere else GitLab does not read the token at all: the request is anonymous, and a private
// project answers 404, which reads like a wrong id. So a job token's request to any other endpoint
// is refused here, before it is sent, with `permission` naming the limit (D38).
import { ToolError } from './errors';

/** Method and path (after /api/v4) patterns: `*` is one segment, `**` any rest. */
const ROUTES: readonly (readonly [string, string])[] = [
  ['GET', 'job'],
  ['GET', 'projects/*/repository/branches'],
  ['GET', 'projects/*/repository/commits/*'],
  ['GET', 'projects/*/repository/commits/*/merge_requests'],
  ['GET', 'projects/*/repository/files/*/raw'],
  ['GET', 'projects/*/repository/tags'],
  ['GET', 'projects/*/repository/changelog'],
  ['GET', 'projects/*/merge_requests'],
  ['GET', 'projects/*/merge_requests/*'],
  ['GET', 'projects/*/merge_requests/*/notes'],
  ['GET', 'projects/*/merge_requests/*/notes/*'],
  ['PUT', 'projects/*/pipelines/*/metadata'],
  ['POST', 'projects/*/trigger/pipeline'],
  ['*', 'projects/*/deployments/**'],
  ['*', 'projects/*/environments/**'],
  ['*', 'projects/*/releases/**'],
  ['*', 'projects/*/packages/**'],
  ['*', 'projects/*/jobs/*/artifacts/**'],
  ['*', 'projects/*/jobs/artifacts/**'],
  ['*', 'projects/*/artifacts'],
].map(([method, pattern]) => [method, pattern] as const);

const PATTERNS = ROUTES.map(([method, pattern]) => [method, pattern.split('/')] as const);

function matches(parts: readonly string[], segments: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === '**') return true;
    if (i >= segments.length) return false;
    if (parts[i] !== '*' && parts[i] !== segments[i]) return false;
  }
  return parts.length === segments.length;
}

/** Whether GitLab reads a job token on this request (`path` as sent, after /api/v4, query excluded). */
export function jobTokenReaches(method: string, path: string): boolean {
  const segments = path.replace(/^\/+/, '').split('/');
  const verb = method === 'HEAD' ? 'GET' : method;
  return PATTERNS.some(([m, parts]) => (m === '*' || m === verb) && matches(parts, segments));
}

/** The path with every segment that is not a plain word shown as `:…`, so no argument is echoed. */
const shape = (path: string) =>
  path
    .split('/')
    .map((s, i, all) => (s === '' || /^[a-z_]+$/.test(s) ? s : all[i - 1] === 'projects' ? ':id' : ':…'))
    .join('/');

export function jobTokenRefusal(method: string, path: string): ToolError {
  return new ToolError(
    'permission',
    `a CI job token cannot reach ${method} ${shape(path)}: GitLab takes job tokens only on a few endpoints (branches, tags, one commit, raw files, merge requests and their notes, releases, deployments, environments, packages, job artifacts, GET /job; see docs/credentials.md) and would answer any other as if no token were sent. Nothing was sent; use a personal, project or group access token for this tool.`,
  );
}
