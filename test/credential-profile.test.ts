// whoami's source (issue 36): the credential check (D7) remembers who an accepted personal or OAuth
// token acts as, from GET /user's answer; a job token, a refused one or a record of another shape
// in a shared store gives none, so whoami then asks GitLab.
import { expect, test } from 'bun:test';
import { CredentialChecks } from '../src/auth/credential-check';
import { createEndpoint } from '../src/forge/endpoint';
import { MemoryStore } from '../src/store/memory-store';

const endpoint = createEndpoint('http://forge.invalid/api/v4', { rejectUnauthorized: true, timeoutMs: 2000 });
const answering = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) as never;
const USER = { id: 7, username: 'ana', name: 'Ana Lopez', state: 'active', bot: false, email: 'ana@example.com', avatar_url: 'x' };

test('an accepted token: its id, username, name, state and bot flag, nothing else', async () => {
  const checks = new CredentialChecks({ fetchImpl: answering(200, USER) });
  expect(checks.identity({ kind: 'private', token: 't' }, endpoint)).toBeUndefined();
  expect(await checks.check({ kind: 'private', token: 't' }, endpoint)).toBe('accepted');
  expect(checks.identity({ kind: 'private', token: 't' }, endpoint)).toEqual({ id: 7, username: 'ana', name: 'Ana Lopez', state: 'active', bot: false });
});

test("none for a job token, a refused token, or an answer without a user's shape", async () => {
  const job = new CredentialChecks({ fetchImpl: answering(200, { id: 1, user: USER }) });
  await job.check({ kind: 'job', token: 't' }, endpoint);
  expect(job.identity({ kind: 'job', token: 't' }, endpoint)).toBeUndefined();
  const refused = new CredentialChecks({ fetchImpl: answering(401, { message: '401 Unauthorized' }) });
  await refused.check({ kind: 'private', token: 't' }, endpoint);
  expect(refused.identity({ kind: 'private', token: 't' }, endpoint)).toBeUndefined();
  const odd = new CredentialChecks({ fetchImpl: answering(200, { ...USER, id: 'seven', name: 'x'.repeat(300) }) });
  await odd.check({ kind: 'private', token: 't' }, endpoint);
  expect(odd.identity({ kind: 'private', token: 't' }, endpoint)).toBeUndefined();
});

test("a shared store's record is checked, not trusted: another replica reads the profile back only when it has the shape", async () => {
  const store = new MemoryStore({ maxEntries: 10 });
  await new CredentialChecks({ store, fetchImpl: answering(200, USER) }).check({ kind: 'private', token: 't' }, endpoint);
  const replica = new CredentialChecks({
    store,
    fetchImpl: (async () => {
      throw new Error('not asked');
    }) as never,
  });
  expect(await replica.check({ kind: 'private', token: 't' }, endpoint)).toBe('accepted');
  expect(replica.identity({ kind: 'private', token: 't' }, endpoint)).toEqual({ id: 7, username: 'ana', name: 'Ana Lopez', state: 'active', bot: false });
});
