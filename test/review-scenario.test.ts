// An agent's code review from start to finish, as the SDK v2 client does it on each lane, against
// the fake forge with every tool group on: find the merge requests waiting for my review, read one's
// diff, comment on a changed line, answer a thread, approve the head I reviewed, see why its
// pipeline failed and read the failing job's log tail. Each step uses what the previous one returned.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../src/app';
import { testConfig } from './support/config';
import { TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { MR_SEED } from './support/fake-forge/seed-merge-requests';
import { connect, structured, type Connected } from './support/mcp-client';

let forge: FakeForge;
let app: ForgeApp;
beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { FORGE_TOOLSETS: 'all' }));
});
beforeEach(() => forge.reset());
afterAll(async () => {
  await app.close();
  await forge.stop();
});

type Rec = Record<string, any>;

describe.each(['modern', 'legacy'] as const)('a review on the %s lane', (lane) => {
  test('list my reviews, read the diff, comment on a line, reply, approve, read the failed job log', async () => {
    const agent: Connected = await connect(app, { 'Private-Token': TOKENS.maintainer }, undefined, { lane });
    try {
      // 1. What waits for my review (maria reviews MR !1 of project 42).
      const mine = structured<{ items: Rec[] }>(await agent.call('list_merge_requests', { scope: 'all', reviewer_username: 'maria', state: 'opened' }));
      const mr = mine.items.find((m) => m.iid === MR_SEED.reviewIid);
      expect(mr).toBeDefined();
      const project = mr!.project_id;

      // 2. Its diff: the changed file and the head it was computed at.
      const detail = structured<Rec>(await agent.call('get_merge_request', { project_id: project, merge_request_iid: mr!.iid }));
      const diffs = structured<{ items: Rec[] }>(await agent.call('list_merge_request_diffs', { project_id: project, merge_request_iid: mr!.iid }));
      const app_ts = diffs.items.find((d) => d.new_path === MR_SEED.appFile);
      // Each line with its numbers (D43): the added line's new_line is read, not computed.
      const added = ((app_ts?.lines ?? []) as [number | null, number | null, string][]).find((row) => row[2] === '+  server.use(login);');
      expect(added).toEqual([null, 7, '+  server.use(login);']);

      // 3. A comment on the added line 7 of the new file.
      const thread = structured<Rec>(
        await agent.call('create_merge_request_thread', {
          project_id: project,
          merge_request_iid: mr!.iid,
          body: 'Should login run before the error handler?',
          position: { new_path: MR_SEED.appFile, new_line: added![1]! },
        }),
      );
      expect(thread.notes[0].position).toMatchObject({ new_path: MR_SEED.appFile, new_line: 7 });

      // 4. An answer in the thread someone else opened.
      const threads = structured<{ items: Rec[] }>(await agent.call('mr_discussions', { project_id: project, merge_request_iid: mr!.iid }));
      const existing = threads.items.find((t) => t.notes.some((n: Rec) => n.id === MR_SEED.diffNote));
      expect(existing).toBeDefined();
      const reply = structured<Rec>(
        await agent.call('create_merge_request_discussion_note', {
          project_id: project,
          merge_request_iid: mr!.iid,
          discussion_id: existing!.id,
          body: 'Agreed, done in the next push.',
        }),
      );
      expect(reply.body).toBe('Agreed, done in the next push.');

      // 5. Approve exactly the head that was reviewed.
      const headSha = detail.sha ?? detail.diff_refs?.head_sha;
      expect(headSha).toBe(MR_SEED.diffRefs.head_sha);
      structured(await agent.call('approve_merge_request', { project_id: project, merge_request_iid: mr!.iid, sha: headSha }));
      const approvals = structured<Rec>(await agent.call('get_merge_request_approval_state', { project_id: project, merge_request_iid: mr!.iid }));
      expect(approvals.user_has_approved).toBe(true);

      // 6. Its pipeline failed: which job, and the end of that job's log.
      const pipelines = structured<{ items: Rec[] }>(await agent.call('list_merge_request_pipelines', { project_id: project, merge_request_iid: mr!.iid }));
      const failedPipeline = pipelines.items.find((p) => p.status === 'failed');
      expect(failedPipeline).toBeDefined();
      const jobs = structured<{ items: Rec[] }>(
        await agent.call('list_pipeline_jobs', { project_id: project, pipeline_id: failedPipeline!.id, scope: 'failed' }),
      );
      expect(jobs.items.map((j) => j.name)).toEqual(['unit-tests']);
      const log = structured<Rec>(await agent.call('get_pipeline_job_output', { project_id: project, job_id: jobs.items[0].id, limit: 20 }));
      const text = JSON.stringify(log);
      expect(text).toContain('rejects an empty user name');
      expect(text).not.toContain('\u001b['); // colour codes removed
      expect(text).not.toContain('section_start');

      // Everything the agent did reached the forge with the caller's token, and nothing else was written.
      const writes = forge.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path.replace(/^\/api\/v4/, '')}`);
      expect(writes).toEqual([
        `POST /projects/${project}/merge_requests/${mr!.iid}/discussions`,
        `POST /projects/${project}/merge_requests/${mr!.iid}/discussions/${existing!.id}/notes`,
        `POST /projects/${project}/merge_requests/${mr!.iid}/approve`,
      ]);
    } finally {
      await agent.close();
    }
  });
});
