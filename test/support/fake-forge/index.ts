// Public API of the fake GitLab forge: a served instance for end-to-end tests and benchmarks,
// and msw handlers for in-process interception (setupServer from 'msw/node').
import { getResponse, type HttpHandler } from 'msw';
import { ForgeControl, type InjectedFailure, type RecordedRequest } from './control';
import { fakeForgeHandlers, handleForgeRequest } from './handlers';
import type { ForgeModel } from './model';
import { seedModel } from './seed';
import { FakeOAuth } from '../fake-oauth';
import { handleGraphql } from './graphql/endpoint';

export interface FakeForge {
  /** Mutable; tests may inspect or change it. reset() reloads the seed into this same object. */
  model: ForgeModel;
  /** e.g. "http://127.0.0.1:PORT/api/v4" */
  apiUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queue a one-shot (or `times`-shot) failure, matched before normal handling. */
  failNext(f: InjectedFailure): void;
  /** Its OAuth provider at /oauth/* (test/support/fake-oauth.ts). */
  oauth: FakeOAuth;
  /** Back to seed data; clears requests and injected failures. */
  reset(): void;
  stop(): Promise<void>;
}

const BASE_PATH = '/api/v4';

/** `record: false` keeps `requests` empty (long benchmark runs). */
export async function startFakeForge(opts: { port?: number; record?: boolean } = {}): Promise<FakeForge> {
  const model = seedModel();
  const control = new ForgeControl();
  control.record = opts.record ?? true;
  const oauth = new FakeOAuth(model);
  let handlers: HttpHandler[] = [];
  let origin = '';
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: opts.port ?? 0,
    async fetch(req) {
      const url = new URL(req.url);
      // msw matches on origin: normalise the Host so "localhost:PORT" reaches the same handlers.
      const canonical = url.origin === origin ? req : new Request(origin + url.pathname + url.search, req);
      if (url.pathname.startsWith('/oauth/')) return oauth.handle(canonical, control.hooks);
      if (url.pathname === '/api/graphql') return handleGraphql(canonical, model, control.hooks);
      // Paths outside /api/v4 match no msw handler; still record them and answer GitLab's 404.
      return (await getResponse(handlers, canonical)) ?? handleForgeRequest(canonical, BASE_PATH, model, control.hooks);
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
  const apiUrl = `${origin}${BASE_PATH}`;
  handlers = fakeForgeHandlers(apiUrl, model, control.hooks);
  return {
    model,
    apiUrl,
    requests: control.requests,
    failNext: (f) => control.failNext(f),
    oauth,
    reset: () => {
      model.replaceWith(seedModel());
      control.clear();
      oauth.reset();
    },
    stop: async () => {
      await server.stop(true);
    },
  };
}

export { fakeForgeHandlers, handleForgeRequest } from './handlers';
export { ForgeControl, failureResponse } from './control';
export type { ForgeHooks, InjectedFailure, RecordedRequest } from './control';
export { ACCESS, ForgeModel, wildcardMatch } from './model';
export type { Commit, CommitStatus, DiffFile, Group, Issue, MergeRequest, Milestone, Project, ProtectedBranch, RepoFile, User } from './model';
export { BOTS, SEED, TOKENS, seedModel } from './seed';
export { JOB_TOKEN_ROUTES, permissionLabel, routePermission } from './tokens';
export { EDITIONS, VERSIONS, type Edition, type Version } from './edition';
export { MILESTONE_SEED } from './seed-milestones';
export { RELEASE_SEED } from './seed-releases';
export { VARIABLE_SEED } from './seed-variables';
export { variablesOf, type CiVariable } from './model-variables';
export { ISSUE_SEED } from './seed-issues';
export { WORK_ITEM_SEED } from './seed-work-items';
export { MR_SEED } from './seed-merge-requests';
export { addUpload, type Upload } from './handlers/uploads';
export { CI_EXTRA_SEED, FAILING_OUTPUT } from './seed-ci-extra';
export { ciExtraOf } from './model-ci-extra';
export { CI_SEED, ciOf, type Job, type Pipeline, type Trace } from './model-ci';
export { DISCOVERY_SEED } from './seed-discovery';
