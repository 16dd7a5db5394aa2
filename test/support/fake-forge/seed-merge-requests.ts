// Review state of the seeded merge requests of project 42 (MILESTONE_SEED.mergeRequestIids): diff
// versions, people and flags, a diff thread and a comment on MR 1. Version diffs are seeded data, not
// computed from the commit graph (merge requests created through the API compute theirs, see
// handlers/merge-requests.ts). Ids are fixed so tests can address them (MR_SEED).
import type { DiffFile, ForgeModel } from './model';
import type { Note } from './model-issues';
import { fakeSha, type MrVersion, type Position } from './model-merge-requests';
import { CI_SEED } from './model-ci';

// seed.ts imports this file: its SEED values are spelled here from the same labels (no import cycle).
const MAIN = (i: number) => fakeSha(`api:main:${i}`);
const HEAD = MAIN(30);
const FEATURE = [fakeSha('api:feature:1'), fakeSha('api:feature:2')];
const USERS = { maintainer: 1, developer: 2 };

/** MR 1's latest diff of src/app.ts: old lines 3-9 → new lines 3-10; old 6 removed, new 6-7 added. */
const APP_HUNK = [
  "@@ -3,7 +3,8 @@ import { loadConfig } from './config';",
  ' ',
  ' const config = loadConfig();',
  ' export function start(port = config.port) {',
  '-  const server = serve({ port });',
  '+  const server = serve({ port, auth: true });',
  '+  server.use(login);',
  "   server.on('error', (err) => {",
  "     console.error('server error', err);",
  '   });',
  '',
].join('\n');

const LOGIN_V2 = '@@ -0,0 +1,3 @@\n+export function login(user: string) {\n+  if (!user) throw new Error("user required");\n+}\n';
const LOGIN_V1 = '@@ -0,0 +1 @@\n+export function login() {}\n';

export const MR_SEED = {
  /** MR 1 (feature/login → main, by dev): versions 11 (head featureShas[0]) and 12 (head featureShas[1], latest). */
  reviewIid: 1,
  versions: { first: 11, latest: 12 },
  /** Latest refs of MR 1. */
  diffRefs: { base_sha: MAIN(28), start_sha: HEAD, head_sha: FEATURE[1] },
  /** Refs of MR 1's first version (an older head). */
  firstRefs: { base_sha: MAIN(28), start_sha: HEAD, head_sha: FEATURE[0] },
  /** Lines of MR 1's src/app.ts diff: added new 6 and 7, removed old 6, unchanged old 7/new 8 … old 9/new 10, old 3-5/new 3-5. */
  appFile: 'src/app.ts',
  loginFile: 'src/auth/login.ts',
  /** On MR 1: a diff thread by maria on src/app.ts new line 7 (3201) with a reply by dev (3202); a comment by dev (3203). */
  diffNote: 3201,
  diffReply: 3202,
  comment: 3203,
  /** MR 3 is a draft ("Draft: …"); MR 5 has conflicts; MR 2 is merged, MR 4 closed. */
  draftIid: 3,
  conflictIid: 5,
  mergedIid: 2,
  closedIid: 4,
} as const;

const PROJECT = 42;
const at = (day: number, hour: number) => `2024-01-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

function edit(path: string, diff: string): DiffFile {
  return { old_path: path, new_path: path, a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: false, deleted_file: false, diff };
}
function added(path: string, diff: string): DiffFile {
  return { ...edit(path, diff), a_mode: '0', new_file: true };
}

function version(id: number, refs: { base_sha: string; start_sha: string; head_sha: string }, created: string, diffs: DiffFile[]): MrVersion {
  return { id, head_commit_sha: refs.head_sha, base_commit_sha: refs.base_sha, start_commit_sha: refs.start_sha, created_at: created, diffs };
}

function note(id: number, discussionId: string, authorId: number, body: string, when: string, threaded: boolean): Note {
  return {
    id,
    discussion_id: discussionId,
    project_id: PROJECT,
    noteable_type: 'MergeRequest',
    noteable_iid: MR_SEED.reviewIid,
    type: threaded ? 'DiscussionNote' : null,
    body,
    author_id: authorId,
    created_at: when,
    updated_at: when,
    system: false,
    internal: false,
    resolved: false,
    resolved_by_id: null,
    resolved_at: null,
  };
}

export function seedMergeRequestReviews(m: ForgeModel): void {
  const p = m.projects.get(PROJECT)!;
  const r = m.reviews;
  const mr = (iid: number) => p.mergeRequests.find((x) => x.iid === iid)!;
  Object.assign(r.of(mr(1)), {
    // Its head pipeline is the one seeded on feature/login at the head sha (model-ci.ts), as GitLab picks it.
    reviewer_ids: [USERS.maintainer],
    labels: ['auth'],
    head_pipeline_id: CI_SEED.pipelines.featureFailed,
    head_pipeline_status: 'failed',
    approvals_required: 1,
    versions: [
      version(MR_SEED.versions.latest, MR_SEED.diffRefs, at(11, 12), [added(MR_SEED.loginFile, LOGIN_V2), edit(MR_SEED.appFile, APP_HUNK)]),
      version(MR_SEED.versions.first, MR_SEED.firstRefs, at(11, 9), [added(MR_SEED.loginFile, LOGIN_V1)]),
    ],
  });
  // The other merge requests: one small version each on their topic branch.
  for (const iid of [2, 3, 4, 5]) {
    const head = p.branches.get(mr(iid).source_branch)!;
    const refs = { base_sha: MAIN(1), start_sha: HEAD, head_sha: head };
    const file = `src/modules/review-${iid}.ts`;
    r.of(mr(iid)).versions = [
      version(20 + iid, refs, at(10 + iid, 9), [
        edit(file, `@@ -1,2 +1,2 @@\n-export const id = ${iid};\n+export const id = ${iid * 10};\n export default id;\n`),
      ]),
    ];
  }
  r.of(mr(MR_SEED.conflictIid)).has_conflicts = true;

  const t = m.tracker;
  const thread = t.newDiscussionId();
  const position: Position = { ...MR_SEED.diffRefs, position_type: 'text', old_path: MR_SEED.appFile, new_path: MR_SEED.appFile, old_line: null, new_line: 7 };
  const comment = t.newDiscussionId();
  t.discussions.push(
    {
      id: thread,
      project_id: PROJECT,
      noteable_type: 'MergeRequest',
      noteable_iid: 1,
      individual_note: false,
      notes: [
        note(MR_SEED.diffNote, thread, USERS.maintainer, 'Should login run before the error handler?', at(12, 9), true),
        note(MR_SEED.diffReply, thread, USERS.developer, 'Yes, it has to see every request.', at(12, 10), true),
      ],
    },
    {
      id: comment,
      project_id: PROJECT,
      noteable_type: 'MergeRequest',
      noteable_iid: 1,
      individual_note: true,
      notes: [note(MR_SEED.comment, comment, USERS.developer, 'Ready for review.', at(11, 13), false)],
    },
  );
  r.positions.set(MR_SEED.diffNote, position).set(MR_SEED.diffReply, position);
  r.nextId = { version: 100, draft: 400, mergeRequest: 950 };
}
