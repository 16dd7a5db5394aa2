// CI lint (lib/api/ci/lint.rb): GET /projects/:id/ci/lint checks the project's own configuration at
// a ref, POST checks the YAML given. The lean answer is valid, errors and warnings; the merged
// configuration (which GitLab always sends, and which can be large) only when asked for. The
// server never parses the YAML itself, so a deeply nested one costs it nothing; its size is bounded.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { projectId, refName } from '../params';
import { releaseBefore } from '../tiers';
import { B, fields, list, S, STRINGS } from '../lean/schema-parts';

const LINT = '/projects/{project_id}/ci/lint';
/** Characters of YAML sent at most: 1 MB, GitLab's default limit of a configuration (max_yaml_size_bytes is 2 MB, max_yaml_depth 100). */
const LINT_CONTENT_MAX = 1_000_000;
/** Characters of merged YAML returned at most. */
const MERGED_YAML_MAX = 60_000;

type Rec = Record<string, unknown>;

function leanLint(answer: Rec | null, withMerged: boolean, fullResponse?: boolean): unknown {
  if (fullResponse || !answer) return answer;
  const lean: Rec = { valid: answer.valid, errors: answer.errors ?? [], warnings: answer.warnings ?? [] };
  if (withMerged && typeof answer.merged_yaml === 'string') {
    const merged = answer.merged_yaml;
    lean.merged_yaml = merged.length > MERGED_YAML_MAX ? merged.slice(0, MERGED_YAML_MAX) : merged;
    if (merged.length > MERGED_YAML_MAX) lean.merged_yaml_truncated = `${merged.length - MERGED_YAML_MAX} more characters; full_response gives it whole`;
  }
  if (Array.isArray(answer.jobs)) lean.jobs = (answer.jobs as Rec[]).map((j) => ({ name: j.name, stage: j.stage }));
  return lean;
}

/** leanLint's answer (a full_response: GitLab's, which output-schema.ts admits too). */
const LINT_OUTPUT = fields({
  valid: B,
  errors: STRINGS,
  warnings: STRINGS,
  merged_yaml: S,
  merged_yaml_truncated: S,
  jobs: list(fields({ name: S, stage: S })),
});

const common = {
  dry_run: Type.Optional(Type.Boolean({ description: 'Simulate pipeline creation' })),
  include_jobs: Type.Optional(Type.Boolean({ description: 'List the jobs' })),
  include_merged_yaml: Type.Optional(Type.Boolean({ description: 'Add the expanded configuration' })),
};

export const validateCiLint = defineTool({
  name: 'validate_ci_lint',
  title: 'Lint CI YAML',
  description: "Check GitLab CI/CD YAML given as content in a project's context: valid, errors, warnings.",
  group: 'ci',
  mode: 'read',
  text: true,
  endpoint: `POST ${LINT}`,
  output: LINT_OUTPUT,
  input: Type.Object(
    {
      project_id: projectId(),
      content: Type.String({ minLength: 1, maxLength: LINT_CONTENT_MAX }),
      ref: Type.Optional(refName('Context for dry_run')),
      ...common,
    },
    { additionalProperties: false },
  ),
  async handler(args, { forge, fullResponse }) {
    const { include_merged_yaml, project_id, ...body } = args;
    const answer = await forge.json<Rec>({ method: 'POST', path: fillPath(LINT, { project_id }), body });
    return leanLint(answer, include_merged_yaml === true, fullResponse);
  },
});

export const validateProjectCiLint = defineTool({
  name: 'validate_project_ci_lint',
  title: 'Lint project CI configuration',
  description: "Check a project's own .gitlab-ci.yml: valid, errors, warnings.",
  group: 'ci',
  mode: 'read',
  text: true,
  endpoint: `GET ${LINT}`,
  output: LINT_OUTPUT,
  input: Type.Object(
    {
      project_id: projectId(),
      content_ref: Type.Optional(refName('Default: the default branch')),
      dry_run_ref: Type.Optional(refName('Context for dry_run')),
      ...common,
    },
    { additionalProperties: false },
  ),
  async handler(args, ctx) {
    const { include_merged_yaml, project_id, content_ref, dry_run_ref, ...rest } = args;
    // content_ref and dry_run_ref came in GitLab 16.10; before, the same two are `sha` and `ref`, and
    // the new names are dropped without a word (the default branch would be linted instead).
    const older = (content_ref !== undefined || dry_run_ref !== undefined) && (await releaseBefore(ctx, 16, 10));
    const query = older ? { ...rest, sha: content_ref, ref: dry_run_ref } : { ...rest, content_ref, dry_run_ref };
    const { forge, fullResponse } = ctx;
    const answer = await forge.json<Rec>({ method: 'GET', path: fillPath(LINT, { project_id }), query });
    return leanLint(answer, include_merged_yaml === true, fullResponse);
  },
});
