// protect_branch's restore step (D20) when the replacement uses up the call's budget (D30): the old
// rule is still put back, so a slow forge never leaves the branch unprotected.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createEndpoint } from '../../src/forge/endpoint';
import { ForgeClient } from '../../src/forge/client';
import { ToolError } from '../../src/tools/errors';
import { protectOrUpdate } from '../../src/tools/branches/protect-or-update';

const RULE = {
  name: 'main',
  push_access_levels: [{ id: 1, access_level: 40 }],
  merge_access_levels: [{ id: 2, access_level: 40 }],
  unprotect_access_levels: [{ id: 3, access_level: 40 }],
  allow_force_push: false,
};
const seen: string[] = [];
let posts = 0;
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const { pathname } = new URL(request.url);
      seen.push(`${request.method} ${pathname}`);
      if (request.method === 'GET') return Response.json(RULE);
      if (request.method === 'PATCH') return Response.json({ message: 'allowed_to_push is not allowed' }, { status: 400 });
      if (request.method === 'DELETE') return new Response(null, { status: 204 });
      posts++;
      if (posts === 1) return Response.json({ message: 'Protected branch already exists' }, { status: 409 });
      if (posts === 2) {
        await Bun.sleep(600); // the replacement outlasts the call's budget
        return Response.json({ ...RULE, push_access_levels: [{ access_level: 30 }] }, { status: 201 });
      }
      return Response.json(RULE, { status: 201 });
    },
  });
});
afterAll(() => server.stop(true));

test('the replacement times out on the call budget; the restore POST is still sent and the failure says the rule was restored', async () => {
  const endpoint = createEndpoint(`http://127.0.0.1:${server.port}/api/v4`, { rejectUnauthorized: true, timeoutMs: 5000 });
  const forge = new ForgeClient(endpoint, { kind: 'private', token: 'glpat-budget-test-0000000' }, { toolTimeoutMs: 300 });
  const error = await protectOrUpdate({ forge }, '42', { name: 'main', push_access_level: 30 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).kind).toBe('timeout');
  expect((error as ToolError).message).toContain('the previous rule was restored');
  expect(seen).toEqual([
    'POST /api/v4/projects/42/protected_branches',
    'GET /api/v4/projects/42/protected_branches/main',
    'PATCH /api/v4/projects/42/protected_branches/main',
    'DELETE /api/v4/projects/42/protected_branches/main',
    'POST /api/v4/projects/42/protected_branches',
    'POST /api/v4/projects/42/protected_branches',
  ]);
});
