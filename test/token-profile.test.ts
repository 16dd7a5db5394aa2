// What the credential check learns of each kind of token from the fake forge, which answers as
// GitLab does (test/support/fake-forge/tokens.ts): accepted or not, the username, and what the token
// may do (src/auth/token-profile.ts).
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { CredentialChecks } from '../src/auth/credential-check';
import { createEndpoint } from '../src/forge/endpoint';
import type { Credential } from '../src/forge/credential';
import { startFakeForge, TOKENS, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(() => forge.stop());
afterEach(() => forge.reset());

const endpoint = () => createEndpoint(forge.apiUrl, { rejectUnauthorized: true, timeoutMs: 2000 });

async function checked(credential: Credential) {
  const checks = new CredentialChecks({ introspect: true });
  const verdict = await checks.check(credential, endpoint());
  return { verdict, username: checks.username(credential, endpoint()), profile: checks.profile(credential, endpoint()) };
}

const pat = (token: string): Credential => ({ kind: 'private', token });

describe('each kind of credential', () => {
  test.each([
    ['classic api', pat(TOKENS.maintainer), 'maria', { kind: 'personal', canWrite: true }],
    ['classic read_api', pat(TOKENS.readApi), 'maria', { kind: 'personal', canWrite: false, needs: 'the `api` scope' }],
    ['classic read_repository (403 on /user)', pat(TOKENS.readRepository), undefined, { kind: 'personal', canWrite: false }],
    ['fine-grained reader without User: Read', pat(TOKENS.fineGrainedReader), undefined, { kind: 'fine-grained', canWrite: false }],
    ['fine-grained writer that cannot read itself', pat(TOKENS.fineGrainedWriter), 'maria', { kind: 'fine-grained' }],
    ['project access token', pat(TOKENS.projectBot), expect.stringMatching(/^project_42_bot_/), { kind: 'project', canWrite: true }],
    ['group access token', pat(TOKENS.groupBot), expect.stringMatching(/^group_6_bot_/), { kind: 'group', canWrite: false }],
    ['bearer personal token', { kind: 'bearer', token: TOKENS.maintainer } as Credential, 'maria', { kind: 'personal', canWrite: true }],
    ['CI job token', { kind: 'job', token: TOKENS.job } as Credential, 'dev', { kind: 'job' }],
  ] as const)('%s: accepted, with what it may do', async (_, credential, username, profile) => {
    const got = await checked(credential);
    expect(got.verdict).toBe('accepted');
    expect(got.username).toEqual(username);
    expect(got.profile).toMatchObject(profile);
    if (!('canWrite' in profile)) expect(got.profile?.canWrite).toBeUndefined();
  });

  test('an OAuth access token: its scopes from /oauth/token/info', async () => {
    forge.oauth.apps.set('app-1', { uid: 'app-1', redirectUris: ['http://127.0.0.1/cb'], scopes: ['read_api'] });
    // Issue a token through the provider's own exchange.
    const issued = (forge.oauth as unknown as { issue(app: unknown, userId: number, scope: string): Response }).issue(
      forge.oauth.apps.get('app-1'),
      1,
      'read_api',
    );
    const { access_token } = (await issued.json()) as { access_token: string };
    const got = await checked({ kind: 'bearer', token: access_token });
    expect(got).toMatchObject({ verdict: 'accepted', username: 'maria', profile: { kind: 'oauth', canWrite: false, needs: 'the `api` scope' } });
  });

  test('an expired token is rejected (401)', async () => {
    expect((await checked(pat(TOKENS.expired))).verdict).toBe('rejected');
  });

  test('a token expiring soon carries its day', async () => {
    expect((await checked(pat(TOKENS.expiring))).profile?.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('GitLab before 15.5 cannot describe a token: accepted, what it may do unknown', async () => {
    forge.model.version = '15.4.0';
    const got = await checked(pat(TOKENS.readApi));
    expect(got.verdict).toBe('accepted');
    expect(got.profile?.canWrite).toBeUndefined();
  });

  test('a forge URL that is a web page accepts nothing', async () => {
    const page = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response('<!doctype html><title>Sign in</title>', { headers: { 'content-type': 'text/html' } }),
    });
    try {
      const checks = new CredentialChecks({ introspect: true });
      const at = createEndpoint(`http://127.0.0.1:${page.port}/api/v4`, { rejectUnauthorized: true, timeoutMs: 2000 });
      expect(await checks.check(pat(TOKENS.maintainer), at)).toBe('rejected');
      expect(checks.notForge(pat(TOKENS.maintainer), at)).toBe(true);
    } finally {
      page.stop(true);
    }
  });
});
