// Every record kind, by the name tools give in `record:` (D33). To add a kind: write its
// projection in a file of this folder (helpers.ts has the shared pieces), add one line here, and
// add a GitLab-shaped example record to test/fixtures/gitlab-records.ts (docs/tools.md shows its
// lean form, test/lean.test.ts checks it shrinks).
import { awardEmoji } from './award';
import { branch, protectedBranch } from './branch';
import { deployment, environment, pipelineSchedule, pipelineVariable } from './ci';
import { blameRange, commit, commitStatus, commitSummary, diff } from './commit';
import { issue, issueLink, linkedIssue } from './issue';
import type { RecordKind } from './kind';
import { mergeRequest } from './merge-request';
import { mergeRequestReviewKinds } from './merge-request-review';
import { burndownEvent, milestone, milestoneSummary } from './milestone';
import { discussion, note } from './note';
import { job, pipeline } from './pipeline';
import { compare, file, treeEntry } from './repository';
import { todo } from './todo';

export const RECORD_KINDS = {
  award_emoji: awardEmoji,
  blame_range: blameRange,
  branch,
  burndown_event: burndownEvent,
  commit,
  deployment,
  environment,
  commit_status: commitStatus,
  commit_summary: commitSummary,
  diff,
  discussion,
  issue,
  issue_link: issueLink,
  job,
  linked_issue: linkedIssue,
  merge_request: mergeRequest,
  milestone,
  milestone_summary: milestoneSummary,
  note,
  pipeline,
  pipeline_schedule: pipelineSchedule,
  pipeline_variable: pipelineVariable,
  protected_branch: protectedBranch,
  todo,
  file,
  tree_entry: treeEntry,
  compare,
  ...mergeRequestReviewKinds,
} satisfies Record<string, RecordKind>;

export type RecordKindName = keyof typeof RECORD_KINDS;

export type { RecordKind } from './kind';
