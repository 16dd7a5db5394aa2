// msw 2.x handlers for the fake forge. One catch-all msw handler feeds our own raw-path router,
// so recording, failure injection and %2F-sensitive matching all see the path exactly as sent.
import { http, type HttpHandler } from 'msw';
import { failureResponse, type ForgeHooks, type RecordedRequest } from './control';
import type { ForgeModel } from './model';
import { branchRoutes } from './handlers/branches';
import { commitRoutes } from './handlers/commits';
import { ApiError, Params, authenticate, json, matchRoute, parseNested, unauthorized, type Route } from './handlers/http';
import { projectRoutes } from './handlers/projects';
import { protectedRoutes } from './handlers/protected';
import { statusRoutes } from './handlers/statuses';
import { uploadRoutes } from './handlers/uploads';
import { milestoneItemRoutes } from './handlers/milestone-items';
import { milestoneRoutes } from './handlers/milestones';
import { issueActivityRoutes } from './handlers/issue-routes';
import { jobRoutes } from './handlers/jobs';
import { mergeRequestRoutes } from './handlers/merge-request-routes';
import { pipelineRoutes } from './handlers/pipelines';
import { pipelineJobRoutes } from './handlers/pipeline-jobs';
import { repositoryFileRoutes } from './handlers/repository-files';
import { repositoryRoutes } from './handlers/repository';
import { metadataRoutes } from './handlers/metadata';
import { tokenRoutes } from './handlers/tokens';
import { anonymousRefusal, authorize } from './tokens';
import { discoveryProjectRoutes } from './handlers/discovery-projects';
import { discoveryGroupRoutes } from './handlers/discovery-groups';
import { memberRoutes } from './handlers/members';
import { userRoutes } from './handlers/users';
import { eventRoutes } from './handlers/events';
import { labelRoutes } from './handlers/labels';
import { searchRoutes } from './handlers/search';

import { releaseRoutes } from './handlers/releases';
import { tagRoutes } from './handlers/tags';
import { wikiRoutes } from './handlers/wikis';

import { variableRoutes } from './handlers/variables';
import { contextRoutes } from './handlers/context';
import { handleGraphql } from './graphql/endpoint';

import { ciExtraRoutes } from './handlers/ci-extra';

const ROUTES: Route[] = [
  ...projectRoutes,
  ...branchRoutes,
  ...protectedRoutes,
  ...commitRoutes,
  ...statusRoutes,
  ...milestoneRoutes,
  ...milestoneItemRoutes,
  ...issueActivityRoutes,
  ...uploadRoutes,
  ...jobRoutes,
  ...mergeRequestRoutes,
  ...pipelineRoutes,
  ...pipelineJobRoutes,
  ...repositoryFileRoutes,
  ...repositoryRoutes,
  ...metadataRoutes,
  ...tokenRoutes,
  ...discoveryProjectRoutes,
  ...discoveryGroupRoutes,
  ...memberRoutes,
  ...userRoutes,
  ...eventRoutes,
  ...labelRoutes,
  ...searchRoutes,
  ...tagRoutes,
  ...releaseRoutes,
  ...wikiRoutes,
  ...variableRoutes,
  ...contextRoutes,
  ...ciExtraRoutes,
];

async function readBody(request: Request): Promise<{ recorded: unknown; params: Record<string, unknown>; invalid?: boolean }> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return { recorded: undefined, params: {} };
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('multipart/form-data')) {
    const pairs: [string, string][] = [];
    (await request.formData()).forEach((v, k) => {
      if (typeof v === 'string') pairs.push([k, v]);
    });
    const params = parseNested(pairs);
    return { recorded: params, params };
  }
  const text = await request.text();
  if (text === '') return { recorded: undefined, params: {} };
  if (type.includes('application/x-www-form-urlencoded')) {
    const params = parseNested(new URLSearchParams(text));
    return { recorded: params, params };
  }
  if (type.includes('json')) {
    try {
      const v: unknown = JSON.parse(text);
      const isObj = typeof v === 'object' && v !== null && !Array.isArray(v);
      return { recorded: v, params: isObj ? (v as Record<string, unknown>) : {} };
    } catch {
      return { recorded: text, params: {}, invalid: true };
    }
  }
  return { recorded: text, params: {} };
}

/** Handle one request addressed to `${origin}${basePath}/...`. Exported for callers that bypass msw. */
export async function handleForgeRequest(request: Request, basePath: string, model: ForgeModel, hooks: ForgeHooks = {}): Promise<Response> {
  const url = new URL(request.url);
  const rawPath = url.pathname;
  const body = await readBody(request);
  const rec: RecordedRequest = {
    method: request.method,
    path: rawPath,
    query: new URLSearchParams(url.search),
    headers: new Headers(request.headers),
    body: body.recorded,
  };
  hooks.onRequest?.(rec);
  const failure = hooks.takeFailure?.(rec);
  if (failure) return failureResponse(failure);

  const notFoundRoute = json({ error: '404 Not Found' }, 404);
  if (!rawPath.startsWith(`${basePath}/`)) return notFoundRoute;
  const segments = rawPath.slice(basePath.length + 1).split('/');
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop(); // tolerate one trailing slash
  const isHead = request.method === 'HEAD';
  const tryMethod = (method: string) => {
    for (const r of ROUTES) {
      if (r.method !== method) continue;
      const params = matchRoute(r, segments);
      if (params) return { r, params };
    }
    return undefined;
  };
  const found = tryMethod(request.method) ?? (isHead ? tryMethod('GET') : undefined);
  if (!found) return notFoundRoute;

  try {
    if (body.invalid) throw new ApiError(400, { error: 'The provided JSON is invalid' });
    const auth = authenticate(model, request, url, segments);
    if (auth === 'anonymous') throw anonymousRefusal(segments);
    if (!auth) throw unauthorized();
    authorize(model, auth.info, request.method, segments);
    const query = parseNested(url.searchParams);
    const input = new Params({ ...query, ...body.params });
    const res = await found.r.handler({ model, request, url, rawPath, params: found.params, input, user: auth.user, auth });
    return isHead ? new Response(null, { status: res.status, headers: res.headers }) : res;
  } catch (e) {
    if (e instanceof ApiError) return isHead ? new Response(null, { status: e.status }) : json(e.body, e.status, e.headers);
    console.error('fake forge handler crashed:', e);
    return json({ message: '500 Internal Server Error' }, 500);
  }
}

/** msw handlers serving the fake under `baseUrl` (e.g. "http://gitlab.test/api/v4"). */
export function fakeForgeHandlers(baseUrl: string, model: ForgeModel, hooks: ForgeHooks = {}): HttpHandler[] {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  return [
    http.all(`${base.origin}${basePath.replace(/\/v4$/, '')}/graphql`, ({ request }) => handleGraphql(request, model, hooks)),
    http.all(`${base.origin}${basePath}/*`, ({ request }) => handleForgeRequest(request, basePath, model, hooks)),
  ];
}
