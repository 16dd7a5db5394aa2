// The fake forge's credential kinds (test/support/fake-forge/tokens.ts) answer as GitLab does:
// scopes, fine-grained permissions, bot users, job-token routes, expiry and self-introspection.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { BOTS, startFakeForge, TOKENS, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(() => forge.stop());
afterEach(() => forge.reset());

const get = (path: string, headers: Record<string, string>, method = 'GET', body?: unknown) =>
  fetch(`${forge.apiUrl}${path}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
const pat = (token: string) => ({ 'PRIVATE-TOKEN': token });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const body = async (res: Response): Promise<any> => res.json();

describe('classic scopes', () => {
  test('read_api reads but may not write: 403 insufficient_scope naming api', async () => {
    expect((await get('/projects/42/issues', pat(TOKENS.readApi))).status).toBe(200);
    const write = await get('/projects/42/issues', pat(TOKENS.readApi), 'POST', { title: 'x' });
    expect(write.status).toBe(403);
    expect(await body(write)).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
    expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  test('read_repository may not read the user: 403, not 401', async () => {
    const user = await get('/user', pat(TOKENS.readRepository));
    expect(user.status).toBe(403);
    expect((await body(user)).error).toBe('insufficient_scope');
  });

  test('any scope reads /personal_access_tokens/self', async () => {
    const self = await get('/personal_access_tokens/self', pat(TOKENS.readRepository));
    expect(self.status).toBe(200);
    expect(await self.json()).toMatchObject({ scopes: ['read_repository'], user_id: 1, granular: false, active: true });
  });
});

describe('fine-grained tokens', () => {
  test('without User: Read, /user is 403 insufficient_granular_scope while issues read', async () => {
    const user = await get('/user', pat(TOKENS.fineGrainedReader));
    expect(user.status).toBe(403);
    const refusal = await body(user);
    expect(refusal.error).toBe('insufficient_granular_scope');
    expect(refusal.error_description).toContain('User: Read');
    expect((await get('/projects/42/issues', pat(TOKENS.fineGrainedReader))).status).toBe(200);
  });

  test('a write outside the grant is 403 naming the permission', async () => {
    const write = await get('/projects/42/issues', pat(TOKENS.fineGrainedReader), 'POST', { title: 'x' });
    expect(write.status).toBe(403);
    expect((await body(write)).error_description).toContain('Issue: Create');
    expect((await get('/projects/42/issues', pat(TOKENS.fineGrainedWriter), 'POST', { title: 'x' })).status).toBe(201);
  });

  test('self shows the grant; without Personal Access Token: Read it is refused', async () => {
    const self = await get('/personal_access_tokens/self', pat(TOKENS.fineGrainedReader));
    expect(await self.json()).toMatchObject({
      scopes: ['granular'],
      granular: true,
      granular_scopes: [{ permissions: expect.arrayContaining(['read_issue']) }],
    });
    expect((await get('/personal_access_tokens/self', pat(TOKENS.fineGrainedWriter))).status).toBe(403);
  });
});

describe('bots, OAuth, expiry, versions', () => {
  test('project and group access tokens act as their bot users', async () => {
    expect((await body(await get('/user', pat(TOKENS.projectBot)))).username).toStartWith(`project_42_bot_`);
    expect((await body(await get('/user', pat(TOKENS.groupBot)))).id).toBe(BOTS.group);
    expect((await get('/projects/42/issues', pat(TOKENS.groupBot), 'POST', { title: 'x' })).status).toBe(403);
  });

  test('an expired token is 401 invalid_token', async () => {
    const res = await get('/user', pat(TOKENS.expired));
    expect(res.status).toBe(401);
    expect((await body(res)).error).toBe('invalid_token');
  });

  test('GitLab before 15.5 has no /personal_access_tokens/self', async () => {
    forge.model.version = '15.4.0';
    expect((await get('/personal_access_tokens/self', pat(TOKENS.maintainer))).status).toBe(404);
  });
});

describe('CI job tokens', () => {
  const job = { 'JOB-TOKEN': TOKENS.job };
  test('reach the listed endpoints only; elsewhere the request is anonymous', async () => {
    expect((await get('/job', job)).status).toBe(200);
    expect((await get('/projects/42/merge_requests', job)).status).toBe(200);
    expect((await get('/projects/42/repository/branches', job)).status).toBe(200);
    const issues = await get('/projects/42/issues', job);
    expect(issues.status).toBe(404);
    expect((await get('/user', job)).status).toBe(401);
  });
});
