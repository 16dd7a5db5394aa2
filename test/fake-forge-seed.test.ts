// The fake forge's seeded data agrees with itself, as a new user would find it through the REST API:
// every record a merge request points at (its head pipeline, its branches, its people) can be read
// where GitLab would serve it, and says the same thing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { forgeApi } from './support/forge-api';
import { startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});

type Rec = Record<string, unknown>;
const api = async (path: string) => forgeApi(forge, path);

describe('seeded merge requests: what they point at exists', () => {
  test("every project's merge requests, read one by one", async () => {
    let checked = 0;
    for (const p of forge.model.projects.values()) {
      for (const listed of p.mergeRequests) {
        const res = await api(`/projects/${p.id}/merge_requests/${listed.iid}`);
        expect(res.status).toBe(200);
        const mr = res.body as Rec;
        const where = `${p.path_with_namespace}!${listed.iid}`;
        const pipeline = mr.head_pipeline as Rec | null;
        if (pipeline !== null) {
          // GitLab's head pipeline is a pipeline of the source branch at the merge request's head sha.
          const read = await api(`/projects/${mr.source_project_id}/pipelines/${pipeline.id}`);
          expect({ where, status: read.status }).toEqual({ where, status: 200 });
          const body = read.body as Rec;
          expect({ where, id: body.id, sha: body.sha, ref: body.ref, status: body.status }).toEqual({
            where,
            id: pipeline.id,
            sha: mr.sha,
            ref: mr.source_branch,
            status: pipeline.status,
          });
          checked++;
        }
        if (mr.state === 'opened') {
          for (const [project, branch] of [
            [mr.source_project_id, mr.source_branch],
            [mr.target_project_id, mr.target_branch],
          ]) {
            const read = await api(`/projects/${project}/repository/branches/${encodeURIComponent(String(branch))}`);
            expect({ where, branch, status: read.status }).toEqual({ where, branch, status: 200 });
          }
        }
        // The fake serves no GET /users/:id: the people are checked against its users.
        for (const user of [mr.author, ...(mr.assignees as Rec[]), ...(mr.reviewers as Rec[])] as Rec[]) {
          expect({ where, user: user.id, known: forge.model.users.has(user.id as number) }).toEqual({ where, user: user.id, known: true });
        }
      }
    }
    // The seed has at least one merge request with a head pipeline, so the check above ran.
    expect(checked).toBeGreaterThan(0);
  });
});
