// Default data of the fake forge. Everything is deterministic (shas are sha1 of fixed labels)
// so tests and benchmarks can rely on the ids exported in SEED.
import { createHash } from 'node:crypto';
import { ACCESS, ForgeModel, type Commit, type DiffFile, type Group, type Issue, type Milestone, type Project, type ProtectedBranch } from './model';
import { seedMilestoneData } from './seed-milestones';
import { seedVariables } from './seed-variables';
import { seedIssueActivity } from './seed-issues';
import { seedCi } from './model-ci';
import { seedCiExtra } from './seed-ci-extra';
import { seedMergeRequestReviews } from './seed-merge-requests';
import { seedDiscovery } from './seed-discovery';
import { seedReleaseData } from './seed-releases';
import { seedWorkItems } from './seed-work-items';

export const TOKENS = {
  maintainer: 'glpat-maintainer-0000000000',
  developer: 'glpat-developer-0000000000',
  guest: 'glpat-guest-000000000000000',
  /** Only accepted through the JOB-TOKEN header; acts as the developer user. */
  job: 'glpat-jobtoken-00000000000',
  /** Classic tokens of the maintainer with narrower scopes than `api`. */
  readApi: 'glpat-readapi-000000000000',
  readRepository: 'glpat-readrepo-00000000000',
  /** Fine-grained tokens of the maintainer (tokens.ts): this one may read issues and itself, not the user. */
  fineGrainedReader: 'glpat-fgreader-00000000000',
  /** This one may also write issues and read the user, but not read itself. */
  fineGrainedWriter: 'glpat-fgwriter-00000000000',
  /** Project 42's access token (a bot user, `api`) and group acme's (a bot user, `read_api`). */
  projectBot: 'glpat-projectbot-000000000',
  groupBot: 'glpat-groupbot-00000000000',
  /** The maintainer's `api` token that expires three days from the day the seed is made. */
  expiring: 'glpat-expiring-00000000000',
  /** The maintainer's token that expired on 2024-01-01. */
  expired: 'glpat-expired-000000000000',
} as const;

/** Bot users of the project and group access tokens (app/services/resource_access_tokens/create_service.rb names them so). */
export const BOTS = { project: 10, group: 11 } as const;

const sha = (label: string) => createHash('sha1').update(`fake-forge:${label}`).digest('hex');
/** GitLab renders commit dates with an explicit offset. */
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Main commit i (1-based) is committed on 2024-01-(1+i) 09:00 UTC. */
const mainTime = (i: number) => Date.UTC(2024, 0, 1, 9) + i * DAY;

const PEOPLE = [
  { name: 'Maria Rossi', email: 'maria@forge.test' },
  { name: 'Devon Park', email: 'dev@forge.test' },
  { name: 'Ana Lopez', email: 'ana.lopez@example.com' },
  { name: 'Kenji Sato', email: 'kenji.sato@example.com' },
];

const TITLES = [
  'Initial commit',
  'Add project tooling',
  'Write getting started guide',
  'Add CI configuration',
  'Add application entry point',
  'Introduce config loader',
  'Add request logging',
  'Add health endpoint',
  'Refactor error handling',
  'Rename logger modules across packages',
  'Add rate limiter',
  'Start server from app entry point',
  'Add metrics exporter',
  'Cache project lookups',
  'Document configuration options',
  'Add graceful shutdown',
  'Tighten input validation',
  'Update dependencies',
  'Merge hotfix',
  'Return server from start()',
  'Add retry helper',
  'Harden token parsing',
  'Add pagination helper',
  'Improve log format',
  'Split routes into modules',
  'Add audit trail',
  'Fix flaky timeout test',
  'Add feature flags',
  'Speed up startup',
  'Bump version to 1.4.0',
];

export const APP_TS = [
  "import { serve } from './server';",
  "import { loadConfig } from './config';",
  '',
  'const config = loadConfig();',
  'export function start(port = config.port) {',
  '  const server = serve({ port });',
  "  server.on('error', (err) => {",
  "    console.error('server error', err);",
  '  });',
  '  return server;',
  '}',
  'export default start;',
];
const INTRO_MD = ['# Introduction', '', 'This guide explains how to run the API locally.', '', '## Requirements', 'Bun 1.4 or newer.'];

const main = TITLES.map((_, i) => sha(`api:main:${i + 1}`));
const hotfix = sha('api:hotfix:1');
const develop = [sha('api:develop:1'), sha('api:develop:2')];
const feature = [sha('api:feature:1'), sha('api:feature:2')];
const secret = [sha('secret:1'), sha('secret:2'), sha('secret:3')];
const forkGuide = sha('fork:guide:1');

export const SEED = {
  project: 42,
  projectPath: 'acme/platform/api',
  projectPathEncoded: 'acme%2Fplatform%2Fapi',
  privateProject: 43,
  privateProjectPath: 'acme/secret',
  defaultBranch: 'main',
  /** Main's first-parent chain, oldest first (30 commits); headSha is the last. */
  mainShas: main,
  headSha: main[29],
  rootSha: main[0],
  /** Commit with 45 changed files (3 pages at per_page 20). */
  diffSha: main[9],
  diffFileCount: 45,
  /** Merge commit on main (parents: main[17], hotfixSha); first_parent skips hotfixSha. */
  mergeSha: main[18],
  hotfixSha: hotfix,
  /** Commits carrying trailers (Signed-off-by etc.). */
  trailerSha: main[21],
  developShas: develop,
  featureBranch: 'feature/login',
  featureShas: feature,
  tag: 'v1.0.0',
  tagSha: main[19],
  blameFile: 'src/app.ts',
  /** Blame of src/app.ts: lines 1-4 ← blameShas[0], 5-9 ← [1], 10-12 ← [2]. */
  blameShas: [main[4], main[11], main[19]],
  nestedFile: 'docs/guide/intro.md',
  /** main, develop, feature/login, topic-01..topic-25 */
  branchCount: 28,
  secretShas: secret,
  users: { maintainer: 1, developer: 2, guest: 3 },
  /** Seeded statuses on headSha: build (p2001), unit-tests failed+retried and success (p2001), lint running (p2002). */
  statusIds: { build: 1001, unitFailed: 1002, unitSuccess: 1003, lint: 1004 },
  pipelines: [2001, 2002],
  /** Group acme (6) ⊃ acme/platform (7) ⊃ project 42; acme/secret (43) is in acme. */
  groups: { acme: 6, platform: 7, platformPath: 'acme/platform' },
  /** Project 42 milestones v1.0 (101, active), v0.9 (102, closed); group 7 milestone Q1 Platform (201). */
  milestones: { v1: 101, v09: 102, groupQ1: 201 },
  /** dev's fork of project 42 (internal, dev owns it): its main is mainShas[27]; `branch` adds one commit, `sha`. */
  fork: { project: 44, path: 'dev/api', branch: 'readme-guide', sha: forkGuide },
  /** Project 42 issues iid 1-5: 1 bug assigned to dev (v1.0), 2 by dev assigned to maria (v1.0), 3 docs (group milestone),
   * 4 closed (v0.9), 5 confidential incident by gus assigned to maria and dev. */
  issueIids: [1, 2, 3, 4, 5],
} as const;

function newFileDiff(path: string, lines: string[]): DiffFile {
  const body = lines.map((l) => `+${l}\n`).join('');
  return {
    old_path: path,
    new_path: path,
    a_mode: '0',
    b_mode: '100644',
    new_file: true,
    renamed_file: false,
    deleted_file: false,
    diff: `@@ -0,0 +1,${lines.length} @@\n${body}`,
  };
}
function editDiff(path: string, removed: string[], added: string[]): DiffFile {
  const diff = `@@ -1,${removed.length + 1} +1,${added.length + 1} @@\n ${path}\n${removed.map((l) => `-${l}\n`).join('')}${added.map((l) => `+${l}\n`).join('')}`;
  return { old_path: path, new_path: path, a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: false, deleted_file: false, diff };
}
function renameDiff(from: string, to: string): DiffFile {
  return {
    old_path: from,
    new_path: to,
    a_mode: '100644',
    b_mode: '100644',
    new_file: false,
    renamed_file: true,
    deleted_file: false,
    diff: "@@ -1,2 +1,2 @@\n-export const name = 'logger';\n+export const name = 'log';\n export default name;\n",
  };
}

/** Diffs per main commit index (1-based); commits not listed add one module file. */
function mainDiffs(i: number): DiffFile[] {
  switch (i) {
    case 1:
      return [newFileDiff('README.md', ['# api', '', 'Platform API service.']), newFileDiff('package.json', ['{', '  "name": "api"', '}'])];
    case 3:
      return [newFileDiff('docs/guide/intro.md', INTRO_MD.slice(0, 4))];
    case 5:
      return [newFileDiff('src/app.ts', APP_TS.slice(0, 4))];
    case 10:
      return Array.from({ length: 45 }, (_, k) => {
        const pkg = `packages/pkg-${String(k + 1).padStart(2, '0')}/src`;
        return renameDiff(`${pkg}/logger.ts`, `${pkg}/log.ts`);
      });
    case 12:
      return [editDiff('src/app.ts', [], APP_TS.slice(4, 9))];
    case 15:
      return [editDiff('docs/guide/intro.md', [], INTRO_MD.slice(4))];
    case 19:
      return [editDiff('src/cache.ts', ['const key = id;'], ['const key = `${id}:${ref}`;'])];
    case 20:
      return [editDiff('src/app.ts', ['}'], APP_TS.slice(9))];
    case 30:
      return [editDiff('package.json', ['  "version": "1.3.2"'], ['  "version": "1.4.0"'])];
    default:
      return [newFileDiff(`src/modules/m${String(i).padStart(2, '0')}.ts`, [`export const id = ${i};`, 'export default id;'])];
  }
}

function commit(
  id: string,
  title: string,
  when: number,
  who: number,
  parents: string[],
  diffs: DiffFile[],
  body = '',
  trailers: Record<string, string> = {},
): Commit {
  const p = PEOPLE[who % PEOPLE.length];
  const trailerText = Object.entries(trailers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  const message = `${[title, body, trailerText].filter(Boolean).join('\n\n')}\n`;
  return {
    id,
    title,
    message,
    author_name: p.name,
    author_email: p.email,
    authored_date: iso(when - HOUR / 2),
    committer_name: p.name,
    committer_email: p.email,
    committed_date: iso(when),
    parent_ids: parents,
    trailers,
    diffs,
  };
}

function accessEntries(m: ForgeModel, ...levels: number[]) {
  return levels.map((access_level) => ({ id: m.nextId.accessLevel++, access_level, user_id: null, group_id: null }));
}
function rule(m: ForgeModel, name: string, push: number, merge: number, unprotect = 40): ProtectedBranch {
  return {
    id: m.nextId.protectedBranch++,
    name,
    push: accessEntries(m, push),
    merge: accessEntries(m, merge),
    unprotect: accessEntries(m, unprotect),
    allow_force_push: false,
    code_owner_approval_required: false,
  };
}

function emptyProject(m: ForgeModel, id: number, fullPath: string, nsId: number, visibility: Project['visibility']): Project {
  const path = fullPath.split('/').pop()!;
  return {
    id,
    name: path,
    path,
    path_with_namespace: fullPath,
    default_branch: 'main',
    visibility,
    web_url: `${m.webBase}/${fullPath}`,
    namespace: { id: nsId, full_path: fullPath.slice(0, fullPath.lastIndexOf('/')) },
    members: new Map(),
    branches: new Map(),
    tags: new Map(),
    commits: new Map(),
    protectedBranches: [],
    files: new Map(),
    statuses: [],
    issues: new Map(),
    milestones: [],
    mergeRequests: [],
  };
}

function seedApi(m: ForgeModel): Project {
  const p = emptyProject(m, 42, SEED.projectPath, 7, 'internal');
  p.members.set(1, ACCESS.maintainer).set(2, ACCESS.developer).set(3, ACCESS.guest);
  const add = (c: Commit) => p.commits.set(c.id, c);
  TITLES.forEach((title, k) => {
    const i = k + 1;
    const parents = i === 1 ? [] : i === 19 ? [main[17], hotfix] : [main[k - 1]];
    const t = i === 19 ? "Merge branch 'hotfix/cache-key' into 'main'" : title;
    const body = i === 19 ? 'Fix cache key collisions\n\nSee merge request acme/platform/api!12' : i === 10 ? 'Mechanical rename, no behaviour change.' : '';
    const trailers: Record<string, string> =
      i === 22 ? { 'Signed-off-by': 'Devon Park <dev@forge.test>', 'Reviewed-by': 'Maria Rossi <maria@forge.test>' } : {};
    add(commit(main[k], t, mainTime(i), i % 4, parents, mainDiffs(i), body, trailers));
  });
  add(
    commit(
      hotfix,
      'Fix cache key collisions',
      mainTime(17) + 12 * HOUR,
      3,
      [main[16]],
      [editDiff('src/cache.ts', ['const key = id;'], ['const key = `${id}:${ref}`;'])],
    ),
  );
  add(
    commit(
      develop[0],
      'Add experimental GraphQL gateway',
      mainTime(25) + 3 * HOUR,
      2,
      [main[24]],
      [newFileDiff('src/gateway/graphql.ts', ['export const gateway = true;'])],
    ),
  );
  add(
    commit(
      develop[1],
      'Wire gateway into router',
      mainTime(25) + 5 * HOUR,
      2,
      [develop[0]],
      [editDiff('src/router.ts', [], ["router.use('/graphql', gateway);"])],
    ),
  );
  add(commit(feature[0], 'Add login form', mainTime(28) + 2 * HOUR, 1, [main[27]], [newFileDiff('src/auth/login.ts', ['export function login() {}'])]));
  add(
    commit(
      feature[1],
      'Validate login credentials',
      mainTime(28) + 4 * HOUR,
      1,
      [feature[0]],
      [
        editDiff(
          'src/auth/login.ts',
          ['export function login() {}'],
          ['export function login(user: string) {', '  if (!user) throw new Error("user required");', '}'],
        ),
      ],
      'Reject empty user names before hitting the backend.',
      { 'Signed-off-by': 'Devon Park <dev@forge.test>' },
    ),
  );

  p.branches.set('main', SEED.headSha).set('develop', develop[1]).set('feature/login', feature[1]);
  for (let i = 1; i <= 25; i++) p.branches.set(`topic-${String(i).padStart(2, '0')}`, main[i - 1]);
  p.tags.set('v1.0.0', main[19]).set('v0.9.0', main[9]);
  p.protectedBranches.push(rule(m, 'main', 40, 40), rule(m, 'release/*', 0, 40));

  const chunk = (from: number, to: number) => APP_TS.slice(from - 1, to);
  p.files.set('src/app.ts', {
    path: 'src/app.ts',
    introducedBy: main[4],
    blame: [
      { commitId: main[4], lines: chunk(1, 4) },
      { commitId: main[11], lines: chunk(5, 9) },
      { commitId: main[19], lines: chunk(10, 12) },
    ],
  });
  p.files.set('docs/guide/intro.md', {
    path: 'docs/guide/intro.md',
    introducedBy: main[2],
    blame: [
      { commitId: main[2], lines: INTRO_MD.slice(0, 4) },
      { commitId: main[14], lines: INTRO_MD.slice(4) },
    ],
  });
  p.files.set('README.md', { path: 'README.md', introducedBy: main[0], blame: [{ commitId: main[0], lines: ['# api', '', 'Platform API service.'] }] });

  const at = (min: number) => new Date(mainTime(30) + min * 60_000).toISOString();
  const status = (id: number, name: string, stage: string, st: string, pipeline: number, created: number, authorId: number, retried = false) => ({
    id,
    sha: SEED.headSha,
    ref: 'main',
    status: st,
    name,
    stage,
    target_url: `https://ci.forge.test/jobs/${id}`,
    description: `${name} ${st}`,
    created_at: at(created),
    started_at: at(created + 1),
    finished_at: st === 'running' ? null : at(created + 4),
    allow_failure: false,
    coverage: name === 'unit-tests' && st === 'success' ? 87.5 : null,
    authorId,
    pipeline_id: pipeline,
    retried,
  });
  p.statuses.push(
    status(1001, 'build', 'build', 'success', 2001, 5, 1),
    status(1002, 'unit-tests', 'test', 'failed', 2001, 6, 1, true),
    status(1003, 'unit-tests', 'test', 'success', 2001, 12, 1),
    status(1004, 'lint', 'test', 'running', 2002, 20, 2),
  );
  return p;
}

function seedSecret(m: ForgeModel): Project {
  const p = emptyProject(m, 43, SEED.privateProjectPath, 6, 'private');
  p.members.set(1, ACCESS.maintainer).set(2, ACCESS.developer);
  ['Initial commit', 'Add vault client', 'Rotate signing keys'].forEach((t, k) =>
    p.commits.set(
      secret[k],
      commit(secret[k], t, Date.UTC(2024, 1, 1 + k, 12), k, k ? [secret[k - 1]] : [], [newFileDiff(k ? `src/secret-${k}.ts` : 'README.md', [`// ${t}`])]),
    ),
  );
  p.branches.set('main', secret[2]);
  p.files.set('README.md', { path: 'README.md', introducedBy: secret[0], blame: [{ commitId: secret[0], lines: ['// Initial commit'] }] });
  p.protectedBranches.push(rule(m, 'main', 40, 40));
  return p;
}

/** dev's fork of the api project, made when main was at its 28th commit: that history, and a branch of its own. */
function seedFork(m: ForgeModel, upstream: Project): Project {
  const p = emptyProject(m, SEED.fork.project, SEED.fork.path, 12, 'internal');
  p.forked_from_project_id = upstream.id;
  p.members.set(SEED.users.developer, ACCESS.owner);
  const base = main[27];
  for (const id of m.reachable(upstream, [base])) p.commits.set(id, upstream.commits.get(id)!);
  p.commits.set(
    forkGuide,
    commit(
      forkGuide,
      'Point the README at the guide',
      mainTime(28) + 6 * HOUR,
      1,
      [base],
      [editDiff('README.md', [], ['See docs/guide/intro.md to run it locally.'])],
    ),
  );
  p.branches.set('main', base).set(SEED.fork.branch, forkGuide);
  return p;
}

function seedGroups(m: ForgeModel): void {
  const group = (id: number, fullPath: string, parent: number | null): Group => ({
    id,
    name: fullPath.split('/').pop()!,
    path: fullPath.split('/').pop()!,
    full_path: fullPath,
    parent_id: parent,
    visibility: 'internal',
    web_url: `${m.webBase}/groups/${fullPath}`,
    members: new Map(),
    milestones: [],
  });
  const acme = group(6, 'acme', null);
  acme.members.set(1, ACCESS.maintainer);
  const platform = group(7, 'acme/platform', 6);
  platform.members.set(2, ACCESS.developer);
  platform.milestones.push({
    id: 201,
    iid: 1,
    project_id: null,
    group_id: 7,
    title: 'Q1 Platform',
    description: 'Platform goals for Q1',
    state: 'active',
    due_date: '2024-03-31',
    start_date: '2024-01-01',
    created_at: '2024-01-01T08:00:00.000Z',
    updated_at: '2024-01-01T08:00:00.000Z',
  });
  m.groups.set(acme.id, acme).set(platform.id, platform);
}

/** Milestones and issues of project 42 (see SEED.issues). */
function seedIssues(p: Project): void {
  const ms = (id: number, iid: number, title: string, state: Milestone['state'], due: string | null): Milestone => ({
    id,
    iid,
    project_id: p.id,
    group_id: null,
    title,
    description: `${title} release`,
    state,
    due_date: due,
    start_date: null,
    created_at: '2024-01-02T08:00:00.000Z',
    updated_at: '2024-01-02T08:00:00.000Z',
  });
  p.milestones.push(ms(101, 1, 'v1.0', 'active', '2024-02-29'), ms(102, 2, 'v0.9', 'closed', '2024-01-15'));
  const issue = (iid: number, title: string, o: Partial<Issue>): Issue => ({
    id: 500 + iid,
    iid,
    project_id: p.id,
    title,
    description: `Description of ${title.toLowerCase()}.`,
    state: 'opened',
    author_id: 1,
    assignee_ids: [],
    labels: [],
    milestone_id: null,
    issue_type: 'issue',
    weight: null,
    confidential: false,
    discussion_locked: false,
    due_date: null,
    created_at: `2024-01-${String(iid + 2).padStart(2, '0')}T10:00:00.000Z`,
    updated_at: `2024-01-${String(iid + 2).padStart(2, '0')}T11:00:00.000Z`,
    closed_at: null,
    closed_by_id: null,
    ...o,
  });
  for (const i of [
    issue(1, 'Login fails with SSO', { assignee_ids: [2], labels: ['bug', 'auth'], milestone_id: 101, weight: 3 }),
    issue(2, 'Add rate limiting', { author_id: 2, assignee_ids: [1], labels: ['feature'], milestone_id: 101 }),
    issue(3, 'Document the cache', { author_id: 2, labels: ['docs'], milestone_id: 201 }),
    issue(4, 'Old crash on start', {
      state: 'closed',
      assignee_ids: [2],
      labels: ['bug'],
      milestone_id: 102,
      closed_at: '2024-01-10T12:00:00.000Z',
      closed_by_id: 1,
    }),
    issue(5, 'Secret incident', { author_id: 3, issue_type: 'incident', confidential: true, assignee_ids: [1, 2] }),
  ])
    p.issues.set(i.iid, i);
}

/** The credential kinds of docs/credentials.md, each a token of the seed (tokens.ts judges them). */
function seedTokens(m: ForgeModel): void {
  m.users.set(BOTS.project, {
    id: BOTS.project,
    username: 'project_42_bot_5c1f0e2a9b7d4c3e8f6a1b2c3d4e5f60',
    name: 'api-bot',
    email: 'project_42_bot@noreply.forge.test',
  });
  m.users.set(BOTS.group, {
    id: BOTS.group,
    username: 'group_6_bot_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    name: 'acme-bot',
    email: 'group_6_bot@noreply.forge.test',
  });
  const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
  m.tokens.set(TOKENS.readApi, { userId: 1, kind: 'personal', scopes: ['read_api'], id: 21, name: 'reader' });
  m.tokens.set(TOKENS.readRepository, { userId: 1, kind: 'personal', scopes: ['read_repository'], id: 22, name: 'git only' });
  m.tokens.set(TOKENS.fineGrainedReader, {
    userId: 1,
    kind: 'personal',
    type: 'fine-grained',
    id: 23,
    name: 'issue reader',
    permissions: ['read_project', 'read_issue', 'read_note', 'read_personal_access_token'],
  });
  m.tokens.set(TOKENS.fineGrainedWriter, {
    userId: 1,
    kind: 'personal',
    type: 'fine-grained',
    id: 24,
    name: 'issue writer',
    permissions: ['read_project', 'read_user', 'read_issue', 'create_issue', 'update_issue'],
  });
  m.tokens.set(TOKENS.projectBot, { userId: BOTS.project, kind: 'personal', type: 'project', scopes: ['api'], id: 25, name: 'api-bot' });
  m.tokens.set(TOKENS.groupBot, { userId: BOTS.group, kind: 'personal', type: 'group', scopes: ['read_api'], id: 26, name: 'acme-bot' });
  m.tokens.set(TOKENS.expiring, { userId: 1, kind: 'personal', scopes: ['api'], expiresAt: inDays(3), id: 27, name: 'expiring' });
  m.tokens.set(TOKENS.expired, { userId: 1, kind: 'personal', scopes: ['api'], expiresAt: '2024-01-01', id: 28, name: 'expired' });
}

export function seedModel(): ForgeModel {
  const m = new ForgeModel();
  m.nextId = { status: 1005, protectedBranch: 100, accessLevel: 500, pipeline: 2003, issue: 600, milestone: 300 };
  seedGroups(m);
  m.users.set(1, { id: 1, username: 'maria', name: 'Maria Rossi', email: 'maria@forge.test' });
  m.users.set(2, { id: 2, username: 'dev', name: 'Devon Park', email: 'dev@forge.test' });
  m.users.set(3, { id: 3, username: 'gus', name: 'Gus Guest', email: 'gus@forge.test' });
  m.tokens.set(TOKENS.maintainer, { userId: 1, kind: 'personal' });
  m.tokens.set(TOKENS.developer, { userId: 2, kind: 'personal' });
  m.tokens.set(TOKENS.guest, { userId: 3, kind: 'personal' });
  m.tokens.set(TOKENS.job, { userId: 2, kind: 'job' });
  seedTokens(m);
  for (const p of [seedApi(m), seedSecret(m)]) m.projects.set(p.id, p);
  // Bots are members of what their token belongs to; the group's bot reaches project 42 through
  // acme, which the fake's access levels (project members only) spell as a project membership.
  m.projects.get(42)!.members.set(BOTS.project, ACCESS.maintainer).set(BOTS.group, ACCESS.developer);
  m.groups.get(6)!.members.set(BOTS.group, ACCESS.developer);
  const fork = seedFork(m, m.projects.get(SEED.project)!);
  m.projects.set(fork.id, fork);
  seedIssues(m.projects.get(42)!);
  seedIssueActivity(m);
  seedMilestoneData(m);
  seedCi(m, SEED.headSha, SEED.featureShas[1], SEED.mainShas[28], SEED.featureShas[0]);
  seedCiExtra(m, SEED.featureShas[1]);
  seedMergeRequestReviews(m);
  seedDiscovery(m, SEED.headSha, secret[2], forkGuide);
  seedReleaseData(m);
  seedWorkItems(m);
  seedVariables(m);
  return m;
}
