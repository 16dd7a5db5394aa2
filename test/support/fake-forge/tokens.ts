// What each kind of GitLab credential may reach, judged after it authenticated (handlers.ts):
//
// - Expiry: a personal, project or group access token past its `expires_at` day is refused 401
//   (GitLab's APIGuard: `Gitlab::Auth::ExpiredError` → 401 `invalid_token`, "Token has expired.").
// - Classic scopes (lib/gitlab/auth.rb, lib/api/api_guard.rb `allow_access_with_scope`): `api` reaches
//   everything; `read_api` reaches GET (and HEAD) only; `read_user` reaches GET /user;
//   GET /personal_access_tokens/self takes any scope (lib/api/personal_access_tokens/self_information.rb:
//   "any token regardless of scope should be able to view/revoke itself"). Anything else is 403
//   `insufficient_scope` with the scopes that would do, as APIGuard answers
//   (`Gitlab::Auth::InsufficientScopeError` → 403 `insufficient_scope`).
// - Fine-grained tokens (doc/auth/tokens/fine_grained_access_tokens.md, doc/development/permissions/
//   granular_personal_access_tokens.md): every route needs one named permission
//   `action_resource`; one outside the grant is 403 `insufficient_granular_scope` naming it
//   (`Gitlab::Auth::GranularPermissionsError`). GET /user needs `read_user` ("User: Read"),
//   /personal_access_tokens/self `read_personal_access_token`, /metadata `read_metadata`. The fake
//   derives the permission from the route (GET read, POST create or update, PUT update, DELETE
//   delete; the resource is the last collection in the path) and grants at every boundary the user
//   reaches: GitLab's per-project boundaries are not modelled.
// - CI job tokens (doc/ci/jobs/ci_job_token.md "Job token access"; routes marked
//   `route_setting :authentication, job_token_allowed: true` in lib/api): only the listed endpoints
//   read a job token at all; elsewhere it is no credential, so the request is anonymous: 404 for a
//   project's routes (a private project is invisible), 401 for the rest.
import { ApiError, notFound, unauthorized } from './handlers/http';
import type { ForgeModel, TokenInfo } from './model';

/** Today's date as GitLab compares `expires_at` (UTC). */
const today = (m: ForgeModel) => m.clock().toISOString().slice(0, 10);

export function isExpired(m: ForgeModel, info: TokenInfo): boolean {
  return typeof info.expiresAt === 'string' && info.expiresAt <= today(m);
}

const expired = () =>
  new ApiError(
    401,
    { error: 'invalid_token', error_description: 'Token has expired.' },
    {
      'WWW-Authenticate': 'Bearer realm="Protected by OAuth 2", error="invalid_token", error_description="Token has expired."',
    },
  );

const insufficientScope = (scopes: string[]) =>
  new ApiError(
    403,
    {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: scopes.join(' '),
    },
    {
      'WWW-Authenticate': `Bearer realm="Protected by OAuth 2", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="${scopes.join(' ')}"`,
    },
  );

const insufficientGranular = (permission: string) =>
  new ApiError(
    403,
    {
      error: 'insufficient_granular_scope',
      error_description: `Access denied: Your Personal Access Token lacks the required permissions: [${permissionLabel(permission)}].`,
    },
    {
      'WWW-Authenticate': 'Bearer realm="Protected by OAuth 2", error="insufficient_granular_scope"',
    },
  );

const ACTION_LABEL: Record<string, string> = { read: 'Read', create: 'Create', update: 'Update', delete: 'Delete' };

/** `read_merge_request` → "Merge Request: Read", as GitLab's token page names it. */
export function permissionLabel(permission: string): string {
  const [action, ...rest] = permission.split('_');
  const resource = rest.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
  return `${resource}: ${ACTION_LABEL[action] ?? action}`;
}

const SINGULAR: Record<string, string> = {
  issues: 'issue',
  merge_requests: 'merge_request',
  notes: 'note',
  discussions: 'discussion',
  milestones: 'milestone',
  branches: 'branch',
  protected_branches: 'protected_branch',
  commits: 'commit',
  statuses: 'commit_status',
  files: 'repository_file',
  tree: 'repository',
  compare: 'repository',
  pipelines: 'pipeline',
  jobs: 'job',
  pipeline: 'pipeline',
  uploads: 'upload',
  award_emoji: 'award_emoji',
  links: 'issue_link',
  approvals: 'merge_request_approval',
  approve: 'merge_request_approval',
  unapprove: 'merge_request_approval',
  draft_notes: 'draft_note',
  todo: 'todo',
  todos: 'todo',
  tags: 'tag',
  versions: 'merge_request',
  changes: 'merge_request',
  diffs: 'merge_request',
  merge: 'merge_request',
  rebase: 'merge_request',
  trace: 'job',
  variables: 'pipeline',
  blame: 'repository_file',
  raw: 'repository_file',
  cancel: 'job',
  retry: 'job',
  play: 'job',
  repository: 'repository',
  groups: 'group',
  projects: 'project',
};

/** The permission a fine-grained token needs for a route: `<action>_<resource>`. */
export function routePermission(method: string, segments: string[]): string {
  const path = segments.join('/');
  if (path === 'user') return 'read_user';
  if (path === 'personal_access_tokens/self') return 'read_personal_access_token';
  if (path === 'metadata' || path === 'version') return 'read_metadata';
  // The last literal segment that names a resource, walking back from the end.
  let resource = 'project';
  for (let i = segments.length - 1; i >= 0; i--) {
    const name = SINGULAR[segments[i]];
    if (name) {
      resource = name;
      break;
    }
  }
  const last = segments[segments.length - 1];
  const collection = SINGULAR[last] !== undefined && !['approve', 'unapprove', 'merge', 'rebase', 'cancel', 'retry', 'play'].includes(last);
  const action = method === 'GET' || method === 'HEAD' ? 'read' : method === 'DELETE' ? 'delete' : method === 'POST' && collection ? 'create' : 'update';
  return `${action}_${resource}`;
}

/**
 * Endpoints a CI job token reaches (doc/ci/jobs/ci_job_token.md), as method and path patterns over
 * the path after /api/v4 (`*` one segment, `**` the rest).
 */
export const JOB_TOKEN_ROUTES: readonly (readonly [string, string])[] = [
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
];

function matches(pattern: string, segments: string[]): boolean {
  const parts = pattern.split('/');
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === '**') return segments.length >= i;
    if (i >= segments.length) return false;
    if (parts[i] !== '*' && parts[i] !== segments[i]) return false;
  }
  return parts.length === segments.length;
}

export function jobTokenReaches(method: string, segments: string[]): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  return JOB_TOKEN_ROUTES.some(([verb, pattern]) => (verb === '*' || verb === m) && matches(pattern, segments));
}

/** A job token on a route that does not read job tokens: the request is anonymous. */
export function anonymousRefusal(segments: string[]): ApiError {
  return segments[0] === 'projects' && segments.length > 1 ? notFound('Project') : unauthorized();
}

/** Throws GitLab's refusal when the token may not make this request; `segments` follow /api/v4. */
export function authorize(m: ForgeModel, info: TokenInfo, method: string, segments: string[]): void {
  if (isExpired(m, info)) throw expired();
  if (info.kind === 'job') return; // its routes were judged when it authenticated
  if (info.type === 'fine-grained') {
    const permission = routePermission(method, segments);
    if (!(info.permissions ?? []).includes(permission)) throw insufficientGranular(permission);
    return;
  }
  const scopes = info.scopes ?? ['api'];
  if (scopes.includes('api')) return;
  const path = segments.join('/');
  if (path === 'personal_access_tokens/self' && scopes.length > 0) return;
  const reads = method === 'GET' || method === 'HEAD';
  if (reads && scopes.includes('read_api')) return;
  if (reads && path === 'user' && scopes.includes('read_user')) return;
  throw insufficientScope(reads ? (path === 'user' ? ['api', 'read_api', 'read_user'] : ['api', 'read_api']) : ['api']);
}
