// How merge requests and issues connect:
// - GET …/merge_requests/:iid/commits: the commits on the source branch not on the target, newest
//   first (lib/api/merge_requests.rb, merge_request.commits from its latest diff);
// - GET …/merge_requests/:iid/closes_issues: the project's issues its title and description close,
//   only when it targets the default branch (MergeRequest#closes_issues, lib/gitlab/closing_issue_extractor.rb);
// - GET …/issues/:iid/closed_by: the open or merged merge requests that close the issue (issue.merge_requests_closing_issues);
// - GET …/issues/:iid/related_merge_requests: merge requests that mention the issue or close it
//   (Issues::ReferencedMergeRequestsService). Confidential issues stay hidden from readers without access.
import type { Commit, ForgeModel, Issue, MergeRequest, Project } from '../model';
import { canReadIssue, loadIssue } from './issue-access';
import { loadMergeRequest } from './merge-request-access';
import { route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { presentCommit } from './present';
import { presentIssue } from './present-issues';
import { presentMergeRequest } from './present-merge-requests';

// GitLab's default issue closing pattern, for same-project references (#12, or a list: #12, #13 and #14).
const KEYWORDS = '(?:[Cc]los(?:e|es|ed|ing)|[Ff]ix(?:|es|ed|ing)|[Rr]esolv(?:e|es|ed|ing)|[Ii]mplement(?:|s|ed|ing))';
const CLOSING = new RegExp(`\\b${KEYWORDS}:?\\s+((?:#\\d+(?:\\s*,\\s*|\\s+and\\s+|\\s*,\\s*and\\s+)?)+)`, 'g');
const MENTION = /(?:^|[^\w&/])#(\d+)\b/g;

function closingIids(mr: MergeRequest): number[] {
  const text = `${mr.title}\n${mr.description}`;
  return [...text.matchAll(CLOSING)].flatMap((m) => [...m[1].matchAll(/#(\d+)/g)].map((x) => Number(x[1])));
}

/** The issues a merge request would close: none unless it targets the default branch. */
function closes(p: Project, mr: MergeRequest): Issue[] {
  if (mr.target_branch !== p.default_branch) return [];
  return [...new Set(closingIids(mr))].map((iid) => p.issues.get(iid)).filter((i): i is Issue => i !== undefined);
}

function ancestors(p: Project, sha: string | undefined): Set<string> {
  const seen = new Set<string>();
  const todo = sha ? [sha] : [];
  while (todo.length) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    todo.push(...(p.commits.get(s)?.parent_ids ?? []));
  }
  return seen;
}

function commitsOf(p: Project, mr: MergeRequest): Commit[] {
  const target = ancestors(p, p.branches.get(mr.target_branch));
  return [...ancestors(p, p.branches.get(mr.source_branch))]
    .filter((s) => !target.has(s))
    .map((s) => p.commits.get(s)!)
    .filter(Boolean)
    .sort((a, b) => b.committed_date.localeCompare(a.committed_date));
}

const visibleIssues = (m: ForgeModel, p: Project, issues: Issue[], userId: number) => issues.filter((i) => canReadIssue(m, p, i, userId));

export const contextRoutes: Route[] = [
  route('GET', '/projects/:id/merge_requests/:merge_request_iid/commits', (ctx: Ctx) => {
    const { p, mr } = loadMergeRequest(ctx);
    return listResponse(ctx, commitsOf(p, mr), (c) => presentCommit(p, c));
  }),
  route('GET', '/projects/:id/merge_requests/:merge_request_iid/closes_issues', (ctx: Ctx) => {
    const { p, mr } = loadMergeRequest(ctx);
    return listResponse(ctx, visibleIssues(ctx.model, p, closes(p, mr), ctx.user.id), (i) => presentIssue(ctx.model, i));
  }),
  route('GET', '/projects/:id/issues/:issue_iid/closed_by', (ctx: Ctx) => {
    const { p, issue } = loadIssue(ctx);
    const closing = p.mergeRequests.filter((mr) => mr.state !== 'closed' && closes(p, mr).includes(issue));
    return listResponse(ctx, closing, (mr) => presentMergeRequest(ctx.model, mr, ctx.user.id));
  }),
  route('GET', '/projects/:id/issues/:issue_iid/related_merge_requests', (ctx: Ctx) => {
    const { p, issue } = loadIssue(ctx);
    const mentions = (mr: MergeRequest) => [...`${mr.title}\n${mr.description}`.matchAll(MENTION)].some((m) => Number(m[1]) === issue.iid);
    const related = p.mergeRequests.filter((mr) => mentions(mr) || closes(p, mr).includes(issue));
    return listResponse(ctx, related, (mr) => presentMergeRequest(ctx.model, mr, ctx.user.id));
  }),
];
