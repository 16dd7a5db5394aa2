// The quick-action guard (D36) end to end: a real server process on a loopback port, a fake forge
// on another, and the SDK client. Every text GitLab would run is refused naming its line, and the
// forge never sees it; texts GitLab keeps as text are written.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { connect, structured, toolError, type Connected } from './support/mcp-client';
import { startServer, type Started } from './support/process';
import { REFUSED, WRITTEN } from './support/quick-action-cases';

setDefaultTimeout(30_000);
const P = String(SEED.project);
let forge: FakeForge;
let server: Started;
let session: Connected;

beforeAll(async () => {
  forge = await startFakeForge();
  // One call per case: more than the default 60 a minute.
  server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'all', MAX_REQUESTS_PER_MINUTE: '1000' });
  session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
});
afterAll(async () => {
  await session?.close();
  await server?.stop();
  await forge?.stop();
});

const writes = () => forge.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('quick actions against a real server process', () => {
  test.each(REFUSED)('refused: %s', async (_name, text, line) => {
    forge.requests.length = 0;
    const error = toolError(await session.call('create_issue', { project_id: P, title: 'Copy', description: text }));
    expect(error.kind).toBe('validation');
    expect(error.message).toStartWith(`description: line ${line} "`);
    expect(writes()).toEqual([]);
  });

  test.each(WRITTEN)('written: %s', async (_name, text) => {
    const note = structured<{ body: string }>(await session.call('create_issue_note', { project_id: P, issue_iid: 1, body: text }));
    expect(note.body.replaceAll('\r', '')).toBe(text.replaceAll('\r', ''));
    expect(writes()).toContain(`POST /api/v4/projects/${P}/issues/1/notes`);
  });
});
