// Which GitLab the fake forge plays (docs/forge-editions.md). An edition says which code answers:
// `ce` is the Community Edition (Free self-managed): parameters GitLab declares only in its `ee/`
// code are undeclared there, and Grape drops undeclared parameters silently; `ee-premium` is an
// Enterprise Edition with a Premium licence; `ee-free` is the Enterprise Edition without a licence
// (self-managed EE Free, and GitLab.com Free): the EE code declares the paid parameters, and its
// licence checks then leave them undone, so every paid feature the fake models behaves as on `ce`
// while /metadata says EE; `gitlab.com` is GitLab.com with the project in a Premium namespace. A
// version says which release, where behaviour changed between releases.
import type { ForgeModel } from './model';

export const EDITIONS = ['ce', 'ee-free', 'ee-premium', 'gitlab.com'] as const;
export type Edition = (typeof EDITIONS)[number];

/**
 * The releases the fake models: one without GET /personal_access_tokens/self (15.5), before issue
 * threads were resolvable, after, a current one (the default), one where a job's cancel takes `force`,
 * one where the merge checks the sha first, and one with the `reviews_for_me` scope.
 */
export const VERSIONS = ['15.4.0', '16.0.0', '16.7.0', '17.6.0', '17.11.0', '18.2.0', '18.4.0'] as const;
export type Version = (typeof VERSIONS)[number];

/** Paid-tier features (EE code with a Premium licence, or a Premium namespace on GitLab.com). */
export function paidTier(m: ForgeModel): boolean {
  return m.edition === 'ee-premium' || m.edition === 'gitlab.com';
}

/** GitLab's `ee/` code runs (licensed or not): EE's entities and parameter declarations exist. */
export function enterpriseCode(m: ForgeModel): boolean {
  return m.edition !== 'ce';
}

/** The fake's release is `major.minor` or later. */
export function atLeast(m: ForgeModel, major: number, minor: number): boolean {
  const [a, b] = m.version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

/**
 * Issue threads became resolvable in GitLab 16.3 (app/models/concerns/noteable.rb: Issue joined
 * RESOLVABLE_TYPES; lib/api/discussions.rb defines PUT …/discussions/:discussion_id only for
 * resolvable noteable types).
 */
export const issueThreadsResolvable = (m: ForgeModel) => atLeast(m, 16, 3);

/**
 * Milestone lists take `include_ancestors` (the new name of `include_parent_milestones`, which stays)
 * and, for groups, `include_descendants` since GitLab 16.7 (doc/api/milestones.md,
 * doc/api/group_milestones.md; lib/api/milestone_responses.rb); before, Grape drops both undeclared
 * parameters and the parent's own milestones are listed.
 */
export const milestoneHierarchyParams = (m: ForgeModel) => atLeast(m, 16, 7);

/**
 * A job's cancel reads `force` since GitLab 17.11 (17.10 behind a flag that is off by default,
 * lib/api/ci/jobs.rb); before, the parameter is not declared and is dropped without a word.
 */
export const jobForceCancel = (m: ForgeModel) => atLeast(m, 17, 11);

/**
 * The pipeline list filters by pipeline name since GitLab 16.9 (doc/api/pipelines.md: introduced in
 * 15.11 behind `pipeline_name_search`, off by default; the flag removed in 16.9). Before, `name` is
 * declared but unused (earlier it named the user who ran the pipeline), so every pipeline is listed.
 */
export const pipelineNameFilter = (m: ForgeModel) => atLeast(m, 16, 9);

/**
 * The pipeline list takes `created_after` and `created_before` since GitLab 17.10 (lib/api/ci/pipelines.rb,
 * Ci::PipelinesFinder with CreatedAtFilter); before, Grape drops the undeclared parameters.
 */
export const pipelineCreatedFilters = (m: ForgeModel) => atLeast(m, 17, 10);

/**
 * A new pipeline reads CI/CD `inputs` since GitLab 17.11 (lib/api/ci/pipelines.rb passes them to
 * Ci::CreatePipelineService; in 17.10 behind `ci_inputs_for_pipelines`, off by default, on from 17.11
 * and removed in 18.1: doc/api/pipelines.md, doc/api/pipeline_triggers.md); before, they are dropped
 * and the pipeline runs on the declared defaults.
 */
export const pipelineInputs = (m: ForgeModel) => atLeast(m, 17, 11);

/**
 * The merge request lists take `scope=reviews_for_me` (the caller is a reviewer) since GitLab 18.4
 * (merge request gitlab-org/gitlab!203131 for issue #301016; lib/api/helpers/merge_requests_helpers.rb
 * lists it in the scope's `values`). Before, the value is outside `values`: Grape answers 400.
 */
export const reviewsForMeScope = (m: ForgeModel) => atLeast(m, 18, 4);

/**
 * The merge compares `sha` with the head before judging mergeability in the newest releases:
 * lib/api/merge_requests.rb calls build_merge_params (check_sha_param!) before execute_merge. Older
 * releases judged mergeability first (405 before 409). The fake switches at 18.2.
 */
export const mergeChecksShaFirst = (m: ForgeModel) => atLeast(m, 18, 2);

/**
 * GET /metadata (and the older GET /version, which answers the same since 15.5) as GitLab
 * answers them: lib/api/metadata.rb. EE builds carry the `-ee` suffix and `enterprise: true`;
 * GitLab.com runs pre-release builds.
 */
export function metadataOf(m: ForgeModel) {
  const version = m.edition === 'ce' ? m.version : m.edition === 'gitlab.com' ? `${m.version}-pre` : `${m.version}-ee`;
  const revision = '6f1b2c3d4e5';
  return { version, revision, kas: { enabled: m.edition === 'gitlab.com', externalUrl: null, version: null }, enterprise: enterpriseCode(m) };
}
