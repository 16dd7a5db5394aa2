// Every record kind, by the name tools give in `record:` (D33). To add a kind: write its
// projection and its schema (schema-parts.ts: its fields' JSON types, D41) in a file of this
// folder (helpers.ts has the shared pieces), add one line here, and add a GitLab-shaped example
// record to test/fixtures/gitlab-records.ts (docs/tools.md shows its lean form, test/lean.test.ts
// checks it shrinks, test/output-schemas.test.ts that every tool's results fit its schema).
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
import { release, releaseLink, tag } from './release';
import { compare, file, treeEntry } from './repository';
import { todo } from './todo';
import { group, namespace, project } from './project';
import { event, member, userRecord } from './people';
import { label } from './label';
import { codeHit, snippetHit } from './search';
import { wikiPage } from './wiki';
import { ciVariable } from './variable';
import { workItem, workItemNote, workItemType } from './work-item';

export const RECORD_KINDS = {
  award_emoji: awardEmoji,
  blame_range: blameRange,
  branch,
  burndown_event: burndownEvent,
  ci_variable: ciVariable,
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
  release,
  release_link: releaseLink,
  tag,
  wiki_page: wikiPage,
  ...mergeRequestReviewKinds,
  project,
  group,
  namespace,
  user: userRecord,
  member,
  event,
  label,
  code_hit: codeHit,
  snippet_hit: snippetHit,
  work_item: workItem,
  work_item_note: workItemNote,
  work_item_type: workItemType,
} satisfies Record<string, RecordKind>;

export type RecordKindName = keyof typeof RECORD_KINDS;
