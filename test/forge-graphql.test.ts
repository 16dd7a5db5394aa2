// The forge client's GraphQL path (D45) against the fake forge's /api/graphql: the caller's
// credential in REST's headers, job tokens refused before anything is sent, errors[] (with or
// without data) as ToolErrors of GitLab's kinds, HTTP refusals, retries of queries only, the
// response bound, hostile answers (HTML, not JSON, nested past any real answer), metrics by operation.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { ForgeClient } from '../src/forge/client';
import { createEndpoint } from '../src/forge/endpoint';
import { graphqlDocument } from '../src/forge/graphql';
import { RESOLVE_WORK_ITEM, UPDATE_WORK_ITEM } from '../src/tools/work-items/documents';
import { TOKENS, WORK_ITEM_SEED, startFakeForge, type FakeForge } from './support/fake-forge';
import { failure } from './support/tool-error';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
beforeEach(() => forge.reset());
afterAll(() => forge.stop());

const observed: [number | 'error', string | undefined][] = [];
const client = (token: string = TOKENS.maintainer, kind: 'private' | 'bearer' | 'job' = 'private', maxResponseBytes?: number) =>
  new ForgeClient(
    createEndpoint(forge.apiUrl, {
      rejectUnauthorized: true,
      timeoutMs: 5000,
      maxResponseBytes,
      observe: (status, _s, operation) => observed.push([status, operation]),
    }),
    { kind, token },
  );
const resolve = { fullPath: WORK_ITEM_SEED.projectPath, iid: String(WORK_ITEM_SEED.saml.iid) };
const answer = (body: unknown, status = 200, type = 'application/json') => ({
  status,
  body: typeof body === 'string' ? body : body,
  headers: { 'content-type': type },
});

describe('the request', () => {
  test.each([
    ['private', 'private-token', TOKENS.maintainer],
    ['bearer', 'authorization', `Bearer ${TOKENS.maintainer}`],
  ] as const)(
    'a %s credential goes in the %s header, to /api/graphql beside /api/v4, with the document, its name and variables',
    async (kind, header, value) => {
      const data = await client(TOKENS.maintainer, kind).graphql<{ project: { workItems: { nodes: { id: string }[] } } }>(RESOLVE_WORK_ITEM, resolve);
      expect(data.project.workItems.nodes[0].id).toBe(`gid://gitlab/WorkItem/${WORK_ITEM_SEED.saml.id}`);
      const sent = forge.requests.at(-1)!;
      expect([sent.method, sent.path, sent.headers.get(header)]).toEqual(['POST', '/api/graphql', value]);
      expect(sent.body).toEqual({ query: RESOLVE_WORK_ITEM.text, operationName: 'resolveWorkItem', variables: resolve });
    },
  );

  test('a CI job token is refused before anything is sent: GitLab takes job tokens on no GraphQL request', async () => {
    const error = await failure(client(TOKENS.job, 'job').graphql(RESOLVE_WORK_ITEM, resolve));
    expect(error.kind).toBe('permission');
    expect(error.message).toContain('cannot use GitLab');
    expect(forge.requests).toHaveLength(0);
  });

  test('each attempt is observed with its operation name (metrics by operation)', async () => {
    observed.length = 0;
    await client().graphql(RESOLVE_WORK_ITEM, resolve);
    expect(observed).toEqual([[200, 'resolveWorkItem']]);
  });

  test("a document is a named query or mutation, under GitLab's 10,000 characters, checked when it is declared", () => {
    expect(() => graphqlDocument('{ project(fullPath: "a") { id } }')).toThrow('named query or mutation');
    expect(() => graphqlDocument(`query big { ${'id '.repeat(4000)} }`)).toThrow('longer than GitLab takes');
    expect(graphqlDocument('mutation m { x }').mutation).toBe(true);
  });
});

describe("errors[] become failures of GitLab's kinds, never a success", () => {
  const cases: [string, unknown, string][] = [
    [
      'RESOURCE_ACCESS_ERROR',
      { message: "The resource that you are attempting to access does not exist or you don't have permission to perform this action" },
      'not_found',
    ],
    [
      'an unknown field (graphql-ruby validation)',
      { message: "Field 'weight' doesn't exist on type 'WorkItem'", extensions: { code: 'undefinedField', typeName: 'WorkItem', fieldName: 'weight' } },
      'validation',
    ],
    [
      'an invalid variable',
      {
        message: 'Variable $id of type WorkItemID! was provided invalid value',
        extensions: { value: 'x', problems: [{ path: [], explanation: 'x is not a valid GitLab ID.' }] },
      },
      'validation',
    ],
    ['complexity', { message: 'Query has complexity of 301, which exceeds max complexity of 250' }, 'validation'],
    ['depth', { message: 'Query has depth of 21, which exceeds max depth of 20' }, 'validation'],
    ['a rate limit', { message: 'This endpoint has been requested too many times. Try again later.' }, 'rate_limited'],
    ['a read-only instance', { message: 'You cannot perform write operations on a read-only instance' }, 'permission'],
    ['a timeout', { message: 'Timeout on WorkItem.widgets' }, 'upstream'],
    ['an internal error', { message: 'Internal server error' }, 'upstream'],
  ];
  test.each(cases)('%s', async (_name, error, kind) => {
    forge.failNext({ pathIncludes: '/api/graphql', status: 200, body: { errors: [error] } });
    const e = await failure(client().graphql(RESOLVE_WORK_ITEM, resolve));
    expect(e.kind as string).toBe(kind);
    expect(e.message).toContain((error as { message: string }).message.slice(0, 30));
  });

  test('data beside errors is a failure, said as partial; the data is not returned', async () => {
    forge.failNext({
      pathIncludes: '/api/graphql',
      status: 200,
      body: {
        data: { project: { workItems: { nodes: [{ id: 'gid://gitlab/WorkItem/1' }] } } },
        errors: [{ message: 'Timeout on Project.workItems', path: ['project'] }],
      },
    });
    const e = await failure(client().graphql(RESOLVE_WORK_ITEM, resolve));
    expect(e.kind).toBe('upstream');
    expect(e.message).toContain('GitLab answered part of the request; nothing of it is returned');
  });

  test("the fake forge's own complexity and depth refusals arrive as validation", async () => {
    forge.model.graphqlLimits.complexity = 3;
    const e = await failure(client().graphql(RESOLVE_WORK_ITEM, resolve));
    expect([e.kind, e.message]).toEqual(['validation', 'Query has complexity of 10, which exceeds max complexity of 3.']);
    forge.model.graphqlLimits = { complexity: 250, depth: 2 };
    expect((await failure(client().graphql(RESOLVE_WORK_ITEM, resolve))).message).toStartWith('Query has depth of 4, which exceeds max depth of 2');
  });
});

describe('bounds', () => {
  test("a GraphQL request is held to the call's FORGE_TOOL_TIMEOUT_MS like any other", async () => {
    // A forge that never answers: only the call's budget ends the wait.
    const never = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const held = new ForgeClient(
      createEndpoint(forge.apiUrl, { rejectUnauthorized: true, timeoutMs: 60_000 }),
      { kind: 'private', token: TOKENS.maintainer },
      { toolTimeoutMs: 50, fetch: never },
    );
    const e = await failure(held.graphql(RESOLVE_WORK_ITEM, resolve));
    expect([e.kind, e.message]).toEqual(['timeout', 'the tool call did not finish within FORGE_TOOL_TIMEOUT_MS (50 ms)']);
  });
});

describe('HTTP refusals and hostile answers', () => {
  test('an unknown token: 401 "Invalid token" as permission, the token in no message', async () => {
    const e = await failure(client('glpat-not-known-0000000000').graphql(RESOLVE_WORK_ITEM, resolve));
    expect([e.kind, e.status, e.message]).toEqual(['permission', 401, 'Invalid token']);
  });

  test('422 (a document GitLab will not take) is validation; 503 is upstream', async () => {
    forge.failNext({ pathIncludes: '/api/graphql', status: 422, body: { errors: [{ message: 'Query too large' }] } });
    expect(await failure(client().graphql(RESOLVE_WORK_ITEM, resolve))).toMatchObject({ kind: 'validation', status: 422, message: 'Query too large' });
    forge.failNext({
      pathIncludes: '/api/graphql',
      status: 503,
      body: { errors: [{ message: 'Request timed out. Please try a less complex query or a smaller set of records.' }] },
      times: 3,
    });
    expect((await failure(client().graphql(RESOLVE_WORK_ITEM, resolve))).kind).toBe('upstream');
  });

  test('a query is retried after a 502; a mutation never is', async () => {
    forge.failNext({ pathIncludes: '/api/graphql', status: 502 });
    await client().graphql(RESOLVE_WORK_ITEM, resolve);
    expect(forge.requests).toHaveLength(2);
    forge.reset();
    forge.failNext({ pathIncludes: '/api/graphql', status: 502 });
    const e = await failure(client().graphql(UPDATE_WORK_ITEM.paid, { input: { id: `gid://gitlab/WorkItem/${WORK_ITEM_SEED.saml.id}`, title: 'x' } }));
    expect([e.kind, forge.requests.length]).toEqual(['upstream', 1]);
  });

  test.each([
    ['an HTML sign-in page', answer('<!DOCTYPE html><html><head><title>Sign in</title></head></html>', 200, 'text/html'), 'not JSON'],
    ['a JSON array', answer([1, 2, 3]), 'not a GraphQL answer'],
    ['neither data nor errors', answer({ extensions: {} }), 'without data or errors'],
    ['an answer nested deeper than any real one', answer(JSON.parse(`{"data":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`)), 'nests deeper than 64'],
  ] as const)('%s is upstream', async (_name, a, words) => {
    forge.failNext({ pathIncludes: '/api/graphql', ...a });
    const e = await failure(client().graphql(RESOLVE_WORK_ITEM, resolve));
    expect(e.kind).toBe('upstream');
    expect(e.message).toContain(words);
  });

  test('an answer past FORGE_MAX_RESPONSE_BYTES is abandoned', async () => {
    forge.failNext({ pathIncludes: '/api/graphql', status: 200, body: { data: { project: { workItems: { nodes: [{ id: 'x'.repeat(20_000) }] } } } } });
    const e = await failure(client(TOKENS.maintainer, 'private', 4096).graphql(RESOLVE_WORK_ITEM, resolve));
    expect(e.kind).toBe('upstream');
    expect(e.message).toContain('larger than FORGE_MAX_RESPONSE_BYTES (4096 bytes)');
  });
});
