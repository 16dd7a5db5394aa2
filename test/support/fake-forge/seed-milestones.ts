// Data the milestone tools need beyond the base seed: a dated project milestone, a milestone of the
// top group (for include_ancestors / include_descendants), merge requests on project 42, and a
// project in a personal namespace, where promotion has no group to move a milestone to.
import { ACCESS, type ForgeModel, type MergeRequest, type Milestone, type Project } from './model';

export const MILESTONE_SEED = {
  /** Project 42 "v1.1": active, 2024-03-01 → 2024-04-30, updated 2024-02-10, description mentions "performance". */
  v11: 103,
  /** Group acme (6) "FY24 Roadmap": closed, updated 2023-12-01. */
  acmeRoadmap: 202,
  /** Merge requests of project 42: iids 1, 2 and 3 on v1.0 (101), 4 on Q1 Platform (201), 5 without a milestone. */
  mergeRequestIids: [1, 2, 3, 4, 5],
  /** maria's own project, in her personal namespace (no group), with milestone "Sandbox 1" (110). */
  personalProject: 60,
  personalProjectPath: 'maria/sandbox',
  personalMilestone: 110,
} as const;

const milestone = (o: Pick<Milestone, 'id' | 'iid' | 'title' | 'description' | 'state'> & Partial<Milestone>): Milestone => ({
  project_id: null,
  group_id: null,
  due_date: null,
  start_date: null,
  created_at: '2024-01-05T08:00:00.000Z',
  updated_at: '2024-01-05T08:00:00.000Z',
  ...o,
});

function mergeRequests(p: Project): MergeRequest[] {
  const mr = (iid: number, title: string, source: string, milestoneId: number | null, o: Partial<MergeRequest> = {}): MergeRequest => ({
    id: 900 + iid,
    iid,
    project_id: p.id,
    title,
    description: `${title}.`,
    state: 'opened',
    source_branch: source,
    target_branch: 'main',
    author_id: 2,
    milestone_id: milestoneId,
    created_at: `2024-01-${String(10 + iid).padStart(2, '0')}T09:00:00.000Z`,
    updated_at: `2024-01-${String(10 + iid).padStart(2, '0')}T10:00:00.000Z`,
    ...o,
  });
  return [
    mr(1, 'Fix SSO login redirect', 'feature/login', 101),
    mr(2, 'Add rate limiter middleware', 'topic-11', 101, { author_id: 1, state: 'merged' }),
    mr(3, 'Draft: tune cache sizes', 'topic-14', 101),
    mr(4, 'Document the cache', 'topic-15', 201, { state: 'closed' }),
    mr(5, 'Bump dependencies', 'topic-18', null),
  ];
}

function personalProject(m: ForgeModel): Project {
  const path = 'sandbox';
  const p: Project = {
    id: MILESTONE_SEED.personalProject,
    name: path,
    path,
    path_with_namespace: MILESTONE_SEED.personalProjectPath,
    default_branch: 'main',
    visibility: 'private',
    web_url: `${m.webBase}/${MILESTONE_SEED.personalProjectPath}`,
    namespace: { id: 11, full_path: 'maria', kind: 'user' },
    members: new Map([[1, ACCESS.owner]]),
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
  p.milestones.push(
    milestone({ id: MILESTONE_SEED.personalMilestone, iid: 1, project_id: p.id, title: 'Sandbox 1', description: 'Try things out', state: 'active' }),
  );
  return p;
}

export function seedMilestoneData(m: ForgeModel): void {
  const api = m.projects.get(42)!;
  api.milestones.push(
    milestone({
      id: MILESTONE_SEED.v11,
      iid: 3,
      project_id: api.id,
      title: 'v1.1',
      description: 'Performance work',
      state: 'active',
      start_date: '2024-03-01',
      due_date: '2024-04-30',
      updated_at: '2024-02-10T12:00:00.000Z',
    }),
  );
  api.mergeRequests.push(...mergeRequests(api));
  m.groups.get(6)!.milestones.push(
    milestone({
      id: MILESTONE_SEED.acmeRoadmap,
      iid: 1,
      group_id: 6,
      title: 'FY24 Roadmap',
      description: 'Company roadmap',
      state: 'closed',
      due_date: '2024-12-31',
      created_at: '2023-11-01T08:00:00.000Z',
      updated_at: '2023-12-01T08:00:00.000Z',
    }),
  );
  const personal = personalProject(m);
  m.projects.set(personal.id, personal);
}
