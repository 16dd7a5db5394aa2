// The critical case of D31 end to end: a real server process on a loopback port, a fake forge on
// another, and the SDK client. A ".." identifier is refused with `validation` naming the parameter,
// and the forge never sees the request that would have deleted a project or a milestone.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { MILESTONE_SEED, SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { connect, structured, toolError, type Connected } from './support/mcp-client';
import { startServer, type Started } from './support/process';

setDefaultTimeout(20_000);
const P = String(SEED.project);
const GROUP = '6';
let forge: FakeForge;
let server: Started;
let session: Connected;

beforeAll(async () => {
  forge = await startFakeForge();
  server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all' });
  session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
});
afterAll(async () => {
  await session?.close();
  await server?.stop();
  await forge?.stop();
});

const deletes = () => forge.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('dot-segment identifiers against a real server process', () => {
  test.each([
    ['unprotect_branch', { project_id: P, branch_name: '..' }, 'branch_name'],
    ['unprotect_branch', { project_id: P, branch_name: '%2e%2e' }, 'branch_name'],
    ['unprotect_branch', { project_id: '..', branch_name: 'main' }, 'project_id'],
    ['delete_group_milestone', { group_id: '..', milestone_id: String(MILESTONE_SEED.acmeRoadmap) }, 'group_id'],
    ['delete_group_milestone', { group_id: '..%2f', milestone_id: String(MILESTONE_SEED.acmeRoadmap) }, 'group_id'],
  ])('%s %j → validation naming %s; nothing is deleted', async (tool, args, parameter) => {
    const result = await session.call(tool, args);
    expect(deletes()).toEqual([]);
    const error = toolError(result);
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(`${parameter}: must not be "." or ".."`);
    expect(forge.model.findProject(P)).toBeDefined();
    expect(forge.model.findProject(P)!.protectedBranches.map((r) => r.name)).toContain('main');
    expect(forge.model.findGroup(GROUP)!.milestones.map((m) => m.id)).toContain(MILESTONE_SEED.acmeRoadmap);
  });

  test('the same server does reach this forge for a good identifier (the refusals above are not a broken connection)', async () => {
    const rule = structured<{ name: string }>(await session.call('get_protected_branch', { project_id: P, branch_name: 'main' }));
    expect(rule.name).toBe('main');
    expect(forge.requests.map((r) => `${r.method} ${r.path}`)).toContain(`GET /api/v4/projects/${P}/protected_branches/main`);
    expect(deletes()).toEqual([]);
  });
});
